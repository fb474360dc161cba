/** The market explorer (`/dashboard/market`): every plan, acting as one of the account's active keys. */
import type { Router } from 'express';
import { listKeys } from '../../accounts/keys.js';
import type { Lang } from '../../platform/lang.js';
import type { Dashboard } from '../context.js';
import { explorerCredential } from '../explorer-access.js';
import { explorerConfig, type ExplorerKey, viewOf } from '../explorer-config.js';
import { requireSession } from '../guards.js';
import { t } from '../i18n.js';
import { CLIENT_MESSAGE_KEYS, type ClientMessageKey } from '../messages/market-client.js';
import { state } from '../request-state.js';
import { handler, send, view } from '../respond.js';
import { marketPage } from '../views/market.js';

const clientMessages = (lang: Lang) =>
  Object.fromEntries(CLIENT_MESSAGE_KEYS.map((k) => [k, t(lang, k)])) as Record<ClientMessageKey, string>;

export function marketRoutes(router: Router, d: Dashboard): void {
  router.get(
    '/market',
    requireSession(),
    handler(async (req, res) => {
      const session = state(res).session!;
      const account = session.account;
      const keys: ExplorerKey[] = (await listKeys(d.prisma, account.id, d.now()))
        .filter((k) => k.active)
        .map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, kind: k.kind }));
      // The key asked for, else the first live key, else a test key.
      const key = keys.find((k) => k.id === req.query.key) ?? keys.find((k) => k.kind === 'live') ?? keys[0] ?? null;
      const v = view(d, req, res);
      const config = key
        ? explorerConfig({
            lang: v.lang,
            origin: v.origin,
            credential: explorerCredential(session, key.id),
            key,
            plan: account.plan,
            view: viewOf(req.query),
            messages: clientMessages(v.lang),
          })
        : null;
      const script = d.explorerBuilt
        ? {
            js: `${v.base}/assets/explorer.js?v=${d.assets['explorer.js'].version}`,
            css: `${v.base}/assets/explorer.css?v=${d.assets['explorer.css'].version}`,
          }
        : null;
      res.setHeader('Cache-Control', 'no-store');
      send(res, 200, marketPage(v, { config, keys, limit: d.explorerLimit, script }));
    }),
  );
}
