/**
 * Quota e-mails at 80 % and 100 % of the monthly quota: once each per month, whatever the
 * number of calls or of server instances, and no query at all below 80 %.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaAlerts, threshold } from '../../server/mail/quota-alerts.js';
import { isoDay, monthStart } from '../../server/accounts/policy.js';
import { createAccount } from '../../server/accounts/accounts.js';
import { randomId } from '../../server/platform/ids.js';
import { createLogger } from '../../server/platform/logger.js';
import { AccountMail } from '../../server/mail/account-mail.js';
import { SmtpMailer } from '../../server/mail/mailer.js';
import { apiGet, type DashboardServer, startDashboardServer } from '../dashboard/helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer({ quotaAlerts: true });
});
afterAll(() => t.close());

const QUOTA_MAIL = /quota/i;

async function accountWithQuota(limit: number, language: 'fr' | 'en' = 'en') {
  const email = `${randomId('quota')}@test.mboa.cm`;
  const created = await createAccount(t.db.prisma, { email, plan: 'starter', monthlyQuotaOverride: limit, language });
  return { email, id: created.account.id, key: created.key };
}

/** A pool that counts the queries it is asked to run. */
function countingPool(pool: pg.Pool): { pool: pg.Pool; count: () => number } {
  let n = 0;
  const counted = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (...args: unknown[]) => {
          n++;
          return (target.query as (...a: unknown[]) => unknown)(...args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return { pool: counted, count: () => n };
}

describe('quota e-mails after counted calls', () => {
  it('mails once at 80 % and once at 100 %, then never again this month', async () => {
    const { email, id, key } = await accountWithQuota(10);
    for (let i = 0; i < 7; i++) expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(email)).toHaveLength(0);
    expect(await t.db.prisma.quotaAlert.count({ where: { accountId: id } })).toBe(0);

    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key); // 8 of 10
    const eighty = await t.mailbox.waitFor(email, /80% of your Mboa monthly quota used/);
    expect(eighty.text).toMatch(/Your account has used 8 of its 10 calls of \w+ \d{4}\. At the limit, calls are refused until/);
    expect(eighty.text).toContain(`${t.baseUrl}/dashboard/plans`);

    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key); // 9
    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key); // 10
    const hundred = await t.mailbox.waitFor(email, /Your Mboa monthly quota is used up/);
    expect(hundred.text).toContain('the API answers 429 quota_exceeded until');
    expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(email).filter((m) => QUOTA_MAIL.test(m.subject ?? ''))).toHaveLength(2);
    const rows = await t.db.prisma.quotaAlert.findMany({ where: { accountId: id }, orderBy: { level: 'asc' } });
    expect(rows.map((r) => [isoDay(r.month), r.level])).toEqual([
      [isoDay(monthStart(new Date())), 80],
      [isoDay(monthStart(new Date())), 100],
    ]);
  });

  it('says nothing about plans without a quota', async () => {
    const email = `${randomId('quota')}@test.mboa.cm`;
    const created = await createAccount(t.db.prisma, { email, plan: 'enterprise' });
    for (let i = 0; i < 3; i++) await apiGet(t.baseUrl, '/api/v1/listings?limit=1', created.key);
    expect(await t.db.prisma.quotaAlert.count({ where: { accountId: created.account.id } })).toBe(0);
  });
});

describe('noteQuotaLevel', () => {
  const logger = createLogger('silent');
  const month = isoDay(monthStart(new Date()));
  const alertsOver = (pool: pg.Pool) =>
    new QuotaAlerts({
      pool,
      logger,
      mail: new AccountMail({
        mailer: new SmtpMailer(t.mailbox.url, 'Mboa <no-reply@mboa.cm>'),
        dashboardUrl: `${t.baseUrl}/dashboard`,
        logger,
      }),
    });

  it('runs no query while no level is crossed, and one round once per level', async () => {
    const { id } = await accountWithQuota(100);
    const counting = countingPool(t.db.pool);
    const alerts = alertsOver(counting.pool);
    for (let used = 1; used < threshold(100, 80); used++) await alerts.noteQuotaLevel(id, month, used, 100);
    expect(counting.count()).toBe(0);
    await alerts.noteQuotaLevel(id, month, 80, 100);
    const afterFirst = counting.count();
    expect(afterFirst).toBeGreaterThan(0);
    for (let used = 80; used < 100; used++) await alerts.noteQuotaLevel(id, month, used, 100);
    expect(counting.count()).toBe(afterFirst);
    await alerts.noteQuotaLevel(id, month, 100, 100);
    expect(counting.count()).toBeGreaterThan(afterFirst);
    await alerts.noteQuotaLevel(id, month, 100, null);
  });

  it('mails a level once across instances noting it at the same moment', async () => {
    const { email, id } = await accountWithQuota(50);
    const instances = [alertsOver(t.db.pool), alertsOver(t.db.pool), alertsOver(t.db.pool)];
    await Promise.all(instances.map((a) => a.noteQuotaLevel(id, month, 40, 50)));
    await t.mailbox.waitFor(email, /80% of your Mboa monthly quota used/);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(email)).toHaveLength(1);
  });

  it('sends only the 100 % mail when a plan change jumps both levels at once, in the account’s language', async () => {
    const { email, id } = await accountWithQuota(10, 'fr');
    await alertsOver(t.db.pool).noteQuotaLevel(id, month, 15, 10);
    const mail = await t.mailbox.waitFor(email, /quota mensuel Mboa est épuisé/);
    expect(mail.text).toContain('Votre compte a utilisé les 10 appels de');
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(email)).toHaveLength(1);
    expect(await t.db.prisma.quotaAlert.count({ where: { accountId: id } })).toBe(2);
  });
});
