/**
 * Every visible string of the dashboard, in French and English side by side, through the
 * one catalogue mechanism (platform/i18n.ts). The messages are kept by page in
 * ./messages: a new string goes in the file of the page that shows it (`layout` for the
 * shell and pieces several pages share).
 */
import { catalogue } from '../platform/i18n.js';
import { accountMessages } from './messages/account.js';
import { authMessages } from './messages/auth.js';
import { billingMessages } from './messages/billing.js';
import { errorsMessages } from './messages/errors.js';
import { homeMessages } from './messages/home.js';
import { keysMessages } from './messages/keys.js';
import { layoutMessages } from './messages/layout.js';
import { marketMessages } from './messages/market.js';
import { marketClientMessages } from './messages/market-client.js';
import { passwordMessages } from './messages/password.js';
import { plansMessages } from './messages/plans.js';
import { salesMessages } from './messages/sales.js';
import { usageMessages } from './messages/usage.js';
import { webhooksMessages } from './messages/webhooks.js';

export type { Params } from '../platform/i18n.js';

const DASHBOARD = catalogue(
  layoutMessages,
  authMessages,
  passwordMessages,
  accountMessages,
  homeMessages,
  keysMessages,
  plansMessages,
  salesMessages,
  usageMessages,
  webhooksMessages,
  billingMessages,
  marketMessages,
  marketClientMessages,
  errorsMessages,
);

export type MessageKey = ReturnType<typeof DASHBOARD.keys>[number];

export const t = DASHBOARD.t;

/** Every message key, for the completeness test. */
export const messageKeys = DASHBOARD.keys;
