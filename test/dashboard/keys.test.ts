/**
 * Keys from the dashboard: create (shown once), the plan's key count, revoke, rotate with
 * a 24-hour overlap, and the API's view of each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROTATION_GRACE_MS, rotateKey } from '../../server/accounts/rotation.js';
import { AccountRuleError } from '../../server/accounts/errors.js';
import { createKey } from '../../server/accounts/keys.js';
import { changePlan } from '../../server/accounts/plan-changes.js';
import { apiGet, type Client, type DashboardServer, revealedKey, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const SEARCH = '/api/v1/listings?limit=1';

async function keyRow(accountId: string, key: string) {
  return t.db.prisma.apiKey.findFirstOrThrow({ where: { accountId, prefix: key.slice(0, 16) } });
}

function createForm(client: Client, name: string) {
  return client.submit('/dashboard/keys', '/dashboard/keys', { name });
}

describe('create', () => {
  it('creates a named key, shows it once in full with a copy button, then only its prefix', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    const page = await createForm(client, '  Serveur de production  ');
    expect(page.status).toBe(201);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const key = revealedKey(page.text);
    expect(textOf(page.text)).toContain('Key “Serveur de production” created');
    expect(page.text).toContain('data-copy="new-key"');
    expect((await apiGet(t.baseUrl, SEARCH, key)).status).toBe(200);
    expect((await keyRow(accountId, key)).name).toBe('Serveur de production');

    const list = await client.get('/dashboard/keys');
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`${key.slice(0, 16)}…`);
    expect(textOf(list.text)).toContain('Your Pro plan allows 5 active keys; you have 2.');
  });

  it('shows created and last-used dates', async () => {
    const client = t.client();
    const { key } = await signUp(t, client, { plan: 'starter' });
    const before = textOf((await client.get('/dashboard/keys')).text);
    expect(before).toMatch(/Main key mboa_live_\w{6}… \d+ \w+ \d{4}, \d\d:\d\d UTC never Active/);
    await apiGet(t.baseUrl, SEARCH, key);
    await expect
      .poll(async () => textOf((await client.get('/dashboard/keys')).text))
      .toMatch(/Main key mboa_live_\w{6}… \d+ \w+ \d{4}, \d\d:\d\d UTC \d+ \w+ \d{4}, \d\d:\d\d UTC Active/);
  });

  it('never allows more active keys than the plan: Starter 1, Pro 5', async () => {
    const starter = t.client();
    const s = await signUp(t, starter, { plan: 'starter' });
    const refused = await createForm(starter, 'Second');
    expect(refused.status).toBe(409);
    expect(textOf(refused.text)).toContain('Your Starter plan allows 1 active key and you have 1. Revoke a key, or change plan for more.');
    expect(refused.text).toContain('value="Second"');
    expect(await t.db.prisma.apiKey.count({ where: { accountId: s.accountId } })).toBe(1);

    const pro = t.client();
    const p = await signUp(t, pro, { plan: 'pro' });
    for (let i = 2; i <= 5; i++) expect((await createForm(pro, `Key ${i}`)).status).toBe(201);
    const sixth = await createForm(pro, 'Key 6');
    expect(sixth.status).toBe(409);
    expect(textOf(sixth.text)).toContain('Your Pro plan allows 5 active keys and you have 5.');
    expect(await t.db.prisma.apiKey.count({ where: { accountId: p.accountId } })).toBe(5);
  });

  it('holds the key count under concurrent creations', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => createKey(t.db.prisma, accountId, `Parallel ${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(await t.db.prisma.apiKey.count({ where: { accountId, revokedAt: null } })).toBe(5);
  });

  it('refuses an empty or too long name with 422 and the form refilled', async () => {
    const client = t.client();
    await signUp(t, client, { plan: 'pro' });
    const empty = await createForm(client, '   ');
    expect(empty.status).toBe(422);
    expect(textOf(empty.text)).toContain('Give the key a name of 1 to 80 characters.');
    const long = await createForm(client, 'x'.repeat(81));
    expect(long.status).toBe(422);
    expect(long.text).toContain(`value="${'x'.repeat(81)}"`);
  });

  it('escapes key names everywhere they are shown', async () => {
    const client = t.client();
    await signUp(t, client, { plan: 'pro' });
    const page = await createForm(client, '<img src=x onerror=alert(1)>');
    expect(page.status).toBe(201);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('revoke', () => {
  it('revokes a key: the API refuses it at once and the page says so', async () => {
    const client = t.client();
    const { key, accountId } = await signUp(t, client, { plan: 'starter' });
    const row = await keyRow(accountId, key);
    const res = await client.submit('/dashboard/keys', `/dashboard/keys/${row.id}/revoke`, {});
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/keys');
    const after = await client.get('/dashboard/keys');
    expect(textOf(after.text)).toContain(`Key ${key.slice(0, 16)}… revoked: the API now refuses it.`);
    expect(textOf(after.text)).toMatch(/Revoked on \d+ \w+ \d{4}/);
    expect(textOf((await client.get('/dashboard/keys')).text)).not.toContain('revoked: the API now refuses it'); // shown once
    const api = await apiGet(t.baseUrl, SEARCH, key);
    expect(api.status).toBe(401);
    expect(api.body.code).toBe('invalid_api_key');
    // The slot is free again.
    expect((await createForm(client, 'Replacement')).status).toBe(201);
  });

  it('cannot touch another account’s key', async () => {
    const victim = await signUp(t, t.client(), { plan: 'starter' });
    const victimKey = await keyRow(victim.accountId, victim.key);
    const attacker = t.client();
    await signUp(t, attacker, { plan: 'starter' });
    for (const action of ['revoke', 'rotate']) {
      const res = await attacker.submit('/dashboard/keys', `/dashboard/keys/${victimKey.id}/${action}`, {});
      expect(res.status).toBe(404);
      expect(textOf(res.text)).toContain('This key does not exist or is no longer active.');
    }
    expect((await apiGet(t.baseUrl, SEARCH, victim.key)).status).toBe(200);
    const garbage = await attacker.submit('/dashboard/keys', '/dashboard/keys/not-a-key/revoke', {});
    expect(garbage.status).toBe(404);
  });
});

describe('rotate', () => {
  it('gives a new key with the same name; the old one works 24 hours, then is refused', async () => {
    const client = t.client();
    const { key: oldKey, accountId } = await signUp(t, client, { plan: 'starter' });
    const old = await keyRow(accountId, oldKey);

    // Allowed on Starter although its one key slot is taken: the old key is on its way out.
    const before = Date.now();
    const page = await client.submit('/dashboard/keys', `/dashboard/keys/${old.id}/rotate`, {});
    expect(page.status).toBe(201);
    const newKey = revealedKey(page.text);
    expect(textOf(page.text)).toContain('Replacement for “Main key” created');
    expect(textOf(page.text)).toMatch(
      new RegExp(`The old key ${oldKey.slice(0, 16)}… keeps working until .+ UTC; then the API refuses it.`),
    );

    const outgoing = await keyRow(accountId, oldKey);
    expect(outgoing.revokedAt).toBeNull();
    expect(outgoing.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + ROTATION_GRACE_MS);
    expect(outgoing.expiresAt!.getTime()).toBeLessThan(Date.now() + ROTATION_GRACE_MS + 1000);
    expect((await keyRow(accountId, newKey)).name).toBe('Main key');
    expect(textOf((await client.get('/dashboard/keys')).text)).toMatch(/Replaced: works until/);

    expect((await apiGet(t.baseUrl, SEARCH, oldKey)).status).toBe(200);
    expect((await apiGet(t.baseUrl, SEARCH, newKey)).status).toBe(200);

    // 24 hours later (moved into the past here), the API refuses the old key: every
    // instance hears of the change through the database's change feed, within a second.
    await t.db.prisma.apiKey.update({ where: { id: old.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect.poll(async () => (await apiGet(t.baseUrl, SEARCH, oldKey)).status, { timeout: 1_000, interval: 50 }).toBe(401);
    const refused = await apiGet(t.baseUrl, SEARCH, oldKey);
    expect(refused.body.code).toBe('invalid_api_key');
    expect((await apiGet(t.baseUrl, SEARCH, newKey)).status).toBe(200);
    expect(textOf((await client.get('/dashboard/keys')).text)).toMatch(/Expired on/);
  });

  it('refuses to rotate a key already being replaced, and bounds keys in their grace period by the plan', async () => {
    const client = t.client();
    const { key: first, accountId } = await signUp(t, client, { plan: 'starter' });
    const firstRow = await keyRow(accountId, first);
    const rotated = await client.submit('/dashboard/keys', `/dashboard/keys/${firstRow.id}/rotate`, {});
    const second = revealedKey(rotated.text);

    const again = await client.submit('/dashboard/keys', `/dashboard/keys/${firstRow.id}/rotate`, {});
    expect(again.status).toBe(409);
    expect(textOf(again.text)).toMatch(
      new RegExp(`Key ${first.slice(0, 16)}… is already being replaced \\(it works until .+\\)\\. Rotate its replacement instead\\.`),
    );

    // Starter: one key in its grace period at a time, or rotation would hand out extra keys.
    const secondRow = await keyRow(accountId, second);
    const chained = await client.submit('/dashboard/keys', `/dashboard/keys/${secondRow.id}/rotate`, {});
    expect(chained.status).toBe(409);
    expect(textOf(chained.text)).toContain(
      `Your Starter plan allows 1 key being replaced at a time. Revoke ${first.slice(0, 16)}… now, or wait until`,
    );

    // Revoking the outgoing key frees it.
    await client.submit('/dashboard/keys', `/dashboard/keys/${firstRow.id}/revoke`, {});
    expect((await client.submit('/dashboard/keys', `/dashboard/keys/${secondRow.id}/rotate`, {})).status).toBe(201);
    expect(await t.db.prisma.apiKey.count({ where: { accountId, revokedAt: null } })).toBe(2);
  });

  it('lets exactly one of two simultaneous rotations of a key through (the account row is locked)', async () => {
    const { key, accountId } = await signUp(t, t.client(), { plan: 'pro' });
    const row = await keyRow(accountId, key);
    const results = await Promise.allSettled([rotateKey(t.db.prisma, accountId, row.id), rotateKey(t.db.prisma, accountId, row.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AccountRuleError);
    expect(await t.db.prisma.apiKey.count({ where: { accountId } })).toBe(2);
  });

  it('does not let a rotation get round a downgrade: keys in their grace period count as active', async () => {
    const { key, accountId } = await signUp(t, t.client(), { plan: 'pro' });
    await rotateKey(t.db.prisma, accountId, (await keyRow(accountId, key)).id);
    await expect(changePlan(t.db.prisma, accountId, 'starter')).rejects.toMatchObject({ code: 'too_many_keys_for_plan' });
  });
});
