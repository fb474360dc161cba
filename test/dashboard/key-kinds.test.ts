/**
 * Test keys (`mboa_test_` + 32 base62) beside live ones, from the dashboard and the CLI:
 * shown as test keys, kept apart from the plan's key limit (at most 5 active per account);
 * and the e-mails that tell an account its keys changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, isWellFormedApiKey, kindOfKey } from '../../server/accounts/api-keys.js';
import { rotateKey } from '../../server/accounts/rotation.js';
import { createKey, TEST_KEYS_PER_ACCOUNT } from '../../server/accounts/keys.js';
import { admin } from '../helpers/admin.js';
import { type Client, type DashboardServer, revealedKey, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

function create(client: Client, name: string, kind: 'live' | 'test') {
  return client.submit('/dashboard/keys', '/dashboard/keys', { name, kind });
}

describe('the two kinds of key', () => {
  it('are generated and recognised by their prefix', () => {
    const test = generateApiKey('test');
    expect(test.key).toMatch(/^mboa_test_[0-9A-Za-z]{32}$/);
    expect(test.prefix).toBe(test.key.slice(0, 16));
    expect(generateApiKey().key).toMatch(/^mboa_live_[0-9A-Za-z]{32}$/);
    for (const key of [test.key, generateApiKey('live').key]) expect(isWellFormedApiKey(key)).toBe(true);
    for (const bad of ['mboa_demo_' + 'a'.repeat(32), 'mboa_test_' + 'a'.repeat(31), 'mboa_test_' + 'a'.repeat(31) + '-'])
      expect(isWellFormedApiKey(bad)).toBe(false);
    expect(kindOfKey(test.key)).toBe('test');
  });

  it('creates test keys from the dashboard, shown as such, outside the plan’s key limit', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'starter' });
    expect((await create(client, 'Second live', 'live')).status).toBe(409); // Starter: one live key

    const created = await create(client, 'CI pipeline', 'test');
    expect(created.status).toBe(201);
    const key = revealedKey(created.text);
    expect(key).toMatch(/^mboa_test_[0-9A-Za-z]{32}$/);
    const row = await t.db.prisma.apiKey.findFirstOrThrow({ where: { accountId, name: 'CI pipeline' } });
    expect(row.kind).toBe('test');
    const list = await client.get('/dashboard/keys');
    expect(list.text).toMatch(new RegExp(`CI pipeline <span class="badge badge-test" data-testid="test-key">Test</span>`));
    expect(textOf(list.text)).toContain('Your Starter plan allows 1 active key; you have 1.');
    expect(textOf(list.text)).toContain('Test keys do not count towards your plan’s limit: up to 5 active at a time.');

    for (let i = 2; i <= TEST_KEYS_PER_ACCOUNT; i++) expect((await create(client, `Test ${i}`, 'test')).status).toBe(201);
    const sixth = await create(client, 'One too many', 'test');
    expect(sixth.status).toBe(409);
    expect(textOf(sixth.text)).toContain('You already have 5 active test keys. Revoke one first.');
    expect(sixth.text).toMatch(/name="kind" value="test" checked/);
    expect(await t.db.prisma.apiKey.count({ where: { accountId, kind: 'test' } })).toBe(5);
  });

  it('leaves test keys out of a downgrade’s key count, and rotation keeps the kind', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    for (const name of ['t1', 't2', 't3']) await createKey(t.db.prisma, accountId, name, new Date(), { kind: 'test' });
    const switched = await client.submit('/dashboard/plans', '/dashboard/plans', { plan: 'starter' });
    expect(switched.status).toBe(303);
    const testKey = await t.db.prisma.apiKey.findFirstOrThrow({ where: { accountId, name: 't1' } });
    const rotation = await rotateKey(t.db.prisma, accountId, testKey.id);
    expect(rotation.key).toMatch(/^mboa_test_/);
    expect(rotation.keyInfo.kind).toBe('test');
  });

  it('creates a test key from the CLI and lists the kind', async () => {
    const { email } = await signUp(t, t.client(), { plan: 'starter' });
    const res = await admin(['keys', 'create', '--email', email, '--test', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.key).toMatch(/^mboa_test_[0-9A-Za-z]{32}$/);
    expect(res.json.key_info).toMatchObject({ kind: 'test', name: 'Test key' });
    const listed = await admin(['keys', 'list', '--email', email]);
    expect(listed.stdout).toMatch(/mboa_test_\w{6}…\s+test\s+active/);
    expect(listed.stdout).toMatch(/mboa_live_\w{6}…\s+live\s+active/);
  });
});

describe('e-mails about keys', () => {
  it('tells the account when a key is created, rotated or revoked', async () => {
    const client = t.client();
    const { email, accountId } = await signUp(t, client, { plan: 'pro' });
    const created = await create(client, 'Risk engine', 'live');
    const key = revealedKey(created.text);
    const made = await t.mailbox.waitFor(email, /New API key “Risk engine” on your Mboa account/);
    expect(made.text).toContain(`A live key ${key.slice(0, 16)}… named “Risk engine” was created on`);
    expect(made.text).toContain(`${t.baseUrl}/dashboard/keys`);

    const row = await t.db.prisma.apiKey.findFirstOrThrow({ where: { accountId, name: 'Risk engine' } });
    const rotated = await client.submit('/dashboard/keys', `/dashboard/keys/${row.id}/rotate`, {});
    const replacement = revealedKey(rotated.text);
    const rotatedMail = await t.mailbox.waitFor(email, /API key “Risk engine” replaced/);
    expect(rotatedMail.text).toContain(
      `A replacement ${replacement.slice(0, 16)}… was created for “Risk engine”. The old key ${key.slice(0, 16)}… keeps working until`,
    );

    await client.submit('/dashboard/keys', `/dashboard/keys/${row.id}/revoke`, {});
    const revoked = await t.mailbox.waitFor(email, /API key “Risk engine” revoked/);
    expect(revoked.text).toContain(`Key ${key.slice(0, 16)}… (“Risk engine”) was revoked on`);
  });
});
