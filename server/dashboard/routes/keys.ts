/** Keys: list, create (shown once), revoke, rotate. */
import type { Request, Response, Router } from 'express';
import { PLANS } from '../../../contract/plans.js';
import { rotateKey } from '../../accounts/rotation.js';
import { AccountRuleError } from '../../accounts/errors.js';
import { createKey, listKeys, revokeKey } from '../../accounts/keys.js';
import { type KeyView } from '../../accounts/views.js';
import type { Dashboard } from '../context.js';
import { requireActive, requireCsrf, requireSession } from '../guards.js';
import { flash, state } from '../request-state.js';
import { fieldOf, handler, redirect, send, view } from '../respond.js';
import { formatDayTime } from '../../platform/format.js';
import { html, type HtmlValue } from '../../platform/html.js';
import { t } from '../i18n.js';
import { keysPage } from '../views/keys.js';

const KEY_ID = /^key_[a-z2-7]{16}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
/** Where a revoke may send the customer back to. */
const BACK = new Set(['/keys', '/plans']);

export function keyRoutes(router: Router, d: Dashboard): void {
  const render = async (
    req: Request,
    res: Response,
    status: number,
    o: {
      name?: string;
      kind?: 'live' | 'test';
      errors?: { name?: string; form?: string };
      reveal?: { key: string; title: string; extra?: HtmlValue };
    } = {},
  ) => {
    const account = state(res).session!.account;
    const keys = await listKeys(d.prisma, account.id, d.now());
    if (o.reveal) res.setHeader('Cache-Control', 'no-store');
    send(
      res,
      status,
      keysPage(view(d, req, res), { keys, plan: account.plan, name: o.name ?? '', kind: o.kind, errors: o.errors, reveal: o.reveal }),
    );
  };

  /** The customer's words for a refusal from the account rules. */
  const explain = (res: Response, err: AccountRuleError): string => {
    const lang = state(res).lang;
    const account = state(res).session!.account;
    const label = PLANS[account.plan].label;
    const details = err.details as Record<string, unknown>;
    if (err.code === 'key_limit_reached' && details.reason === 'rotations_in_progress') {
      const first = (details.outgoing as KeyView[])[0];
      return t(lang, 'error.rotate.limit', {
        plan: label,
        max: Number(details.maxKeys),
        prefix: first.prefix,
        date: formatDayTime(lang, new Date(first.expires_at!)),
      });
    }
    if (err.code === 'key_limit_reached' && details.kind === 'test')
      return t(lang, 'error.key.testLimit', { max: Number(details.maxKeys) });
    if (err.code === 'key_limit_reached') {
      return t(lang, 'error.key.limit', { plan: label, max: Number(details.maxKeys), active: Number(details.active) });
    }
    if (err.code === 'already_rotating') {
      return t(lang, 'error.rotate.already', {
        prefix: String(details.prefix),
        date: formatDayTime(lang, new Date(String(details.expiresAt))),
      });
    }
    if (err.code === 'key_not_found' || err.code === 'ambiguous_prefix') return t(lang, 'error.key.notFound');
    return t(lang, 'error.key.name');
  };

  router.get(
    '/keys',
    requireSession(),
    handler((req, res) => render(req, res, 200)),
  );

  router.post(
    '/keys',
    requireSession(),
    requireCsrf(d),
    requireActive(d),
    handler(async (req, res) => {
      const lang = state(res).lang;
      const account = state(res).session!.account;
      const name = fieldOf(req, 'name').replace(CONTROL, ' ').trim();
      const kind = fieldOf(req, 'kind') === 'test' ? 'test' : 'live';
      if (!name || [...name].length > 80)
        return render(req, res, 422, { name: name.slice(0, 200), kind, errors: { name: t(lang, 'error.key.name') } });
      try {
        const created = await createKey(d.prisma, account.id, name, d.now(), { by: 'customer', kind });
        d.deps.logger.info({ account_id: account.id, key_id: created.keyInfo.id, kind }, 'dashboard: key created');
        void d.mail.keyCreated(account, created.keyInfo);
        await render(req, res, 201, { reveal: { key: created.key, title: t(lang, 'keys.created', { name: created.keyInfo.name }) } });
      } catch (err) {
        if (err instanceof AccountRuleError) return render(req, res, err.status, { name, kind, errors: { form: explain(res, err) } });
        throw err;
      }
    }),
  );

  router.post(
    '/keys/:id/revoke',
    requireSession(),
    requireCsrf(d),
    handler(async (req, res) => {
      const account = state(res).session!.account;
      const id = req.params.id;
      const back = BACK.has(fieldOf(req, 'back')) ? fieldOf(req, 'back') : '/keys';
      if (!KEY_ID.test(id)) return render(req, res, 404, { errors: { form: t(state(res).lang, 'error.key.notFound') } });
      try {
        const key = await revokeKey(d.prisma, account.id, id);
        d.deps.logger.info({ account_id: account.id, key_id: key.id }, 'dashboard: key revoked');
        void d.mail.keyRevoked(account, key);
        flash(req, res, 'notice.revoked', { prefix: key.prefix });
        redirect(req, res, back);
      } catch (err) {
        if (err instanceof AccountRuleError) return render(req, res, err.status, { errors: { form: explain(res, err) } });
        throw err;
      }
    }),
  );

  router.post(
    '/keys/:id/rotate',
    requireSession(),
    requireCsrf(d),
    requireActive(d),
    handler(async (req, res) => {
      const lang = state(res).lang;
      const account = state(res).session!.account;
      const id = req.params.id;
      if (!KEY_ID.test(id)) return render(req, res, 404, { errors: { form: t(lang, 'error.key.notFound') } });
      try {
        const rotation = await rotateKey(d.prisma, account.id, id, d.now(), { by: 'customer' });
        d.deps.logger.info(
          { account_id: account.id, key_id: rotation.keyInfo.id, previous: rotation.previous.id },
          'dashboard: key rotated',
        );
        void d.mail.keyRotated(account, rotation);
        const extra = html`<p class="notice notice-info">${t(lang, 'keys.rotated.old', {
          prefix: rotation.previous.prefix,
          date: formatDayTime(lang, new Date(rotation.previous.expires_at!)),
        })}</p>`;
        await render(req, res, 201, {
          reveal: { key: rotation.key, title: t(lang, 'keys.rotated', { name: rotation.keyInfo.name }), extra },
        });
      } catch (err) {
        if (err instanceof AccountRuleError) {
          return render(req, res, err.status, { errors: { form: explain(res, err) } });
        }
        throw err;
      }
    }),
  );
}
