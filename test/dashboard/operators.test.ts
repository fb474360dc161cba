/**
 * Operators keep the CLI; the dashboard and the CLI act on the same tables, so what one
 * does the other shows.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { admin } from '../helpers/admin.js';
import { apiGet, type DashboardServer, PASSWORD, signUp, startDashboardServer, textOf, uniqueEmail } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

it('shows the CLI’s plan change and revocation, and the CLI sees the dashboard’s keys', async () => {
  const client = t.client();
  const { email, key } = await signUp(t, client, { plan: 'starter' });

  const upgraded = await admin(['plans', 'set', '--email', email, '--plan', 'pro', '--json']);
  expect(upgraded.code, upgraded.stderr).toBe(0);
  const plans = await client.get('/dashboard/plans');
  expect(plans.text).toMatch(
    /<section class="plan card selected" data-plan="pro"><h3 class="plan-name">Pro <span class="badge">Your current plan/,
  );
  expect(textOf((await client.get('/dashboard/billing')).text)).toContain('switched to Pro');

  await client.submit('/dashboard/keys', '/dashboard/keys', { name: 'Made in the dashboard' });
  const listed = await admin(['keys', 'list', '--email', email, '--json']);
  expect(listed.json.keys.map((k: { name: string }) => k.name)).toEqual(['Main key', 'Made in the dashboard']);

  const revoked = await admin(['keys', 'revoke', '--email', email, '--prefix', key.slice(0, 16), '--json']);
  expect(revoked.code, revoked.stderr).toBe(0);
  expect(textOf((await client.get('/dashboard/keys')).text)).toMatch(/Main key .* Revoked on/);
  expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(401);
});

it('does not open the dashboard to an account made by an operator without a password', async () => {
  const email = uniqueEmail('ops');
  expect((await admin(['accounts', 'create', '--email', email, '--plan', 'pro', '--json'])).code).toBe(0);
  const res = await t.client().submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD });
  expect(res.status).toBe(422);
  expect(textOf(res.text)).toContain('Wrong e-mail or password,');
});
