/** The operator CLI, run as a process: every command with --json, refusals and bad arguments. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/platform/config.js';
import { randomId } from '../../server/platform/ids.js';
import { admin } from '../helpers/admin.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const email = () => `${randomId('cli')}@test.mboa.cm`;
/** A contract end date a year from now, `YYYY-MM-DD`. */
const nextYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

describe('accounts and keys', () => {
  it('creates an account whose printed key works at once', async () => {
    const e = email();
    const res = await admin(['accounts', 'create', '--email', e, '--plan', 'starter', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.account).toMatchObject({ email: e, plan: 'starter', monthly_quota: 10000, rate_limit_per_minute: 30, max_keys: 1 });
    expect(res.json.key).toMatch(/^mboa_live_[0-9A-Za-z]{32}$/);
    expect((await get(t.baseUrl, '/api/v1/ping', res.json.key)).status).toBe(200);
  });

  it('applies Enterprise overrides of quota and rate limit', async () => {
    const res = await admin([
      'accounts',
      'create',
      '--email',
      email(),
      '--plan',
      'enterprise',
      '--contract-end',
      nextYear(),
      '--monthly-quota',
      '500000',
      '--rate-limit',
      '1200',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.account).toMatchObject({ monthly_quota: 500000, rate_limit_per_minute: 1200 });
    const ping = await get(t.baseUrl, '/api/v1/ping', res.json.key);
    expect(ping.body.meta.quota).toMatchObject({ plan: 'enterprise', limit: 500000 });
  });

  it('refuses a second key on Starter, lists and revokes keys, and the API refuses a revoked key', async () => {
    const e = email();
    const created = await admin(['accounts', 'create', '--email', e, '--plan', 'starter', '--json']);
    const refused = await admin(['keys', 'create', '--email', e, '--name', 'second', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ error: 'key_limit_reached' });
    const list = await admin(['keys', 'list', '--email', e, '--json']);
    expect(list.json.keys).toHaveLength(1);
    expect(JSON.stringify(list.json)).not.toContain(created.json.key);
    const prefix = list.json.keys[0].prefix;
    expect(created.json.key.startsWith(prefix)).toBe(true);
    const revoked = await admin(['keys', 'revoke', '--email', e, '--prefix', prefix, '--json']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.json.key_info.active).toBe(false);
    expect((await get(t.baseUrl, '/api/v1/ping', created.json.key)).body.code).toBe('invalid_api_key');
    const second = await admin(['keys', 'create', '--email', e, '--name', 'replacement', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect((await get(t.baseUrl, '/api/v1/ping', second.json.key)).status).toBe(200);
  });

  it('refuses a downgrade that would leave too many active keys, naming them; the month count is kept across plan changes', async () => {
    const e = email();
    const created = await admin(['accounts', 'create', '--email', e, '--plan', 'pro', '--json']);
    await admin(['keys', 'create', '--email', e, '--name', 'batch', '--json']);
    await get(t.baseUrl, '/api/v1/listings?limit=1', created.json.key);
    const refused = await admin(['plans', 'set', '--email', e, '--plan', 'starter']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/allows 1 active key.*has 2: revoke 1/);
    const up = await admin(['plans', 'set', '--email', e, '--plan', 'enterprise', '--contract-end', nextYear(), '--json']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.json.account.plan).toBe('enterprise');
    const usage = await admin(['usage', '--email', e, '--json']);
    expect(usage.json.usage).toMatchObject({ plan: 'enterprise', used: 1, limit: null });
    const trends = await get(t.baseUrl, '/api/v1/market/trends', created.json.key);
    expect(trends.status).toBe(200);
  });

  it('suspends and resumes an account', async () => {
    const e = email();
    const created = await admin(['accounts', 'create', '--email', e, '--plan', 'pro', '--json']);
    await admin(['accounts', 'suspend', '--email', e]);
    expect((await get(t.baseUrl, '/api/v1/ping', created.json.key)).body.code).toBe('account_suspended');
    await admin(['accounts', 'resume', '--email', e]);
    expect((await get(t.baseUrl, '/api/v1/ping', created.json.key)).status).toBe(200);
  });
});

describe('bad arguments: a clear message and a non-zero exit', () => {
  it.each([
    [['accounts', 'create', '--plan', 'pro'], /--email is required/, 2],
    [['accounts', 'create', '--email', 'x@y.cm', '--plan', 'gold'], /--plan must be one of starter, pro, enterprise/, 2],
    [['accounts', 'create', '--email', 'x@y.cm', '--plan', 'pro', '--rate-limit', '0'], /--rate-limit must be a positive integer/, 2],
    [['accounts', 'create', '--email', 'not-an-email', '--plan', 'pro'], /not an e-mail address/, 1],
    [['keys', 'list', '--email', 'nobody@nowhere.cm'], /no account with e-mail/, 1],
    [['keys', 'create', '--emial', 'x@y.cm'], /Unknown option '--emial'/, 2],
    [['frobnicate'], /unknown command "frobnicate"/, 2],
  ] as Array<[string[], RegExp, number]>)('%j', async (args, message, code) => {
    const res = await admin(args);
    expect(res.code).toBe(code);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a taken e-mail', async () => {
    const e = email();
    await admin(['accounts', 'create', '--email', e, '--plan', 'starter']);
    const again = await admin(['accounts', 'create', '--email', e.toUpperCase(), '--plan', 'pro']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  });
});

describe('which database', () => {
  it('says on stderr which PostgreSQL it acts on, without the password; --json output stays as it was', async () => {
    const res = await admin(['accounts', 'create', '--email', email(), '--plan', 'starter']);
    expect(res.code, res.stderr).toBe(0);
    const u = new URL(process.env.DATABASE_URL!);
    expect(res.stderr).toContain(`database: PostgreSQL ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname} (DATABASE_URL)`);
    if (u.password) expect(res.stderr).not.toContain(u.password);
    expect(res.stdout).toMatch(/mboa_live_/);
    const json = await admin(['accounts', 'create', '--email', email(), '--plan', 'starter', '--json']);
    expect(json.stderr).toBe('');
    expect(json.json.key).toMatch(/^mboa_live_/);
  });

  it('without DATABASE_URL, names the embedded database and the running server it shares it with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mboa-cli-'));
    try {
      // What a running demo server leaves in its data folder: its pid (alive) and its address.
      writeFileSync(join(dir, 'embedded.json'), JSON.stringify({ pid: process.pid, url: process.env.DATABASE_URL }));
      const e = email();
      const res = await admin(['accounts', 'create', '--email', e, '--plan', 'starter'], {
        DATABASE_URL: '',
        MBOA_DATA_DIR: dir,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(`database: the embedded PostgreSQL in ${dir} (served by the running demo server;`);
      expect(await t.db.prisma.account.count({ where: { email: e } })).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('defaults to the data folder of the project, wherever it is started from, as the server does', () => {
    expect(loadConfig({}, { secrets: 'optional' }).dataDir).toBe(fileURLToPath(new URL('../../.mboa-data', import.meta.url)));
    expect(loadConfig({ MBOA_DATA_DIR: '/srv/mboa' }, { secrets: 'optional' }).dataDir).toBe('/srv/mboa');
  });
});
