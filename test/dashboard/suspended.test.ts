/**
 * A suspended account still logs in to read its pages and pay, but cannot change plan,
 * create or rotate keys; revoking stays open. Operators keep every power.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rotateKey } from '../../server/accounts/rotation.js';
import { createKey } from '../../server/accounts/keys.js';
import { changePlan } from '../../server/accounts/plan-changes.js';
import { admin } from '../helpers/admin.js';
import { csrfOf, type DashboardServer, PASSWORD, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const READ_PAGES = ['/dashboard/', '/dashboard/keys', '/dashboard/usage', '/dashboard/plans', '/dashboard/billing'];

it('logs in and reads every page, but cannot change plan, create or rotate keys', async () => {
  const { email, accountId } = await signUp(t, t.client(), { plan: 'pro' });
  await createKey(t.db.prisma, accountId, 'Batch');
  const keysBefore = await t.db.prisma.apiKey.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } });
  const suspended = await admin(['accounts', 'suspend', '--email', email]);
  expect(suspended.code, suspended.stderr).toBe(0);

  const client = t.client();
  const login = await client.submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD });
  expect(login.status).toBe(303);
  for (const path of READ_PAGES) {
    const page = await client.get(path);
    expect(page.status, path).toBe(200);
  }
  const home = textOf((await client.get('/dashboard/')).text);
  expect(home).toContain(
    'This account is suspended: the API refuses its calls, and plan changes and new keys wait until access is restored.',
  );
  const keysPage = await client.get('/dashboard/keys');
  expect(keysPage.text).not.toContain('action="/dashboard/keys" ');
  expect(keysPage.text).not.toMatch(/\/rotate"/);
  expect(keysPage.text).toMatch(/\/revoke"/);
  const plansPage = await client.get('/dashboard/plans');
  expect(plansPage.text).not.toContain('name="plan"');

  // Forged or replayed forms are refused all the same.
  const csrf = csrfOf(keysPage.text);
  const switched = await client.post('/dashboard/plans', { _csrf: csrf, plan: 'starter' });
  expect(switched.status).toBe(403);
  expect(textOf(switched.text)).toContain('Account suspended');
  const created = await client.post('/dashboard/keys', { _csrf: csrf, name: 'Sneaky' });
  expect(created.status).toBe(403);
  const rotated = await client.post(`/dashboard/keys/${keysBefore[0].id}/rotate`, { _csrf: csrf });
  expect(rotated.status).toBe(403);
  const after = await t.db.prisma.account.findUniqueOrThrow({
    where: { id: accountId },
    include: { apiKeys: { orderBy: { createdAt: 'asc' } } },
  });
  expect(after.plan).toBe('pro');
  expect(after.apiKeys).toEqual(keysBefore);

  // Revoking a key only reduces access: allowed.
  const revoked = await client.post(`/dashboard/keys/${keysBefore[1].id}/revoke`, { _csrf: csrf });
  expect(revoked.status).toBe(303);

  // Resumed, the customer acts again.
  await admin(['accounts', 'resume', '--email', email]);
  expect((await client.submit('/dashboard/keys', '/dashboard/keys', { name: 'Back again' })).status).toBe(201);
});

it('holds the rule in the account rules: customers are refused, operators are not', async () => {
  const { email, accountId, key } = await signUp(t, t.client(), { plan: 'pro' });
  await t.db.prisma.account.update({ where: { id: accountId }, data: { status: 'suspended' } });
  const keyId = (await t.db.prisma.apiKey.findFirstOrThrow({ where: { accountId } })).id;
  await expect(createKey(t.db.prisma, accountId, 'x')).rejects.toMatchObject({ code: 'account_suspended' });
  await expect(rotateKey(t.db.prisma, accountId, keyId)).rejects.toMatchObject({ code: 'account_suspended' });
  await expect(changePlan(t.db.prisma, accountId, 'starter')).rejects.toMatchObject({ code: 'account_suspended' });
  const byOperator = await admin(['keys', 'create', '--email', email, '--name', 'from ops', '--json']);
  expect(byOperator.code, byOperator.stderr).toBe(0);
  await expect(changePlan(t.db.prisma, accountId, 'starter', new Date(), { by: 'operator' })).rejects.toMatchObject({
    code: 'too_many_keys_for_plan',
  });
  expect(key).toMatch(/^mboa_live_/);
});
