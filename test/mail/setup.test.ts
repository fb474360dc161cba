/**
 * Where e-mail goes: SMTP when SMTP_URL is set; the data folder in demo mode; a production
 * server without SMTP_URL (or MBOA_PUBLIC_URL) refuses to start; the operator CLI on a
 * production database without them logs every unsent message as an error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/platform/config.js';
import { randomId } from '../../server/platform/ids.js';
import { createLogger } from '../../server/platform/logger.js';
import { FileMailer, SmtpMailer } from '../../server/mail/mailer.js';
import { cliMail, serverMail } from '../../server/mail/setup.js';
import { admin } from '../helpers/admin.js';
import { startMailbox, type Mailbox } from '../helpers/mailbox.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const logger = createLogger('silent');
/** Production refuses to start without its secrets before it looks at mail: give it some. */
const PRODUCTION_SECRETS = { MBOA_CURSOR_SECRET: 'c'.repeat(32), MBOA_DASHBOARD_SECRET: 'd'.repeat(32) };

let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(() => mailbox.close());

describe('choosing the mailer', () => {
  it('sends through SMTP when SMTP_URL is set, links on MBOA_PUBLIC_URL', async () => {
    const config = loadConfig({
      ...PRODUCTION_SECRETS,
      DATABASE_URL: 'postgresql://db/x',
      SMTP_URL: mailbox.url,
      MBOA_PUBLIC_URL: 'https://api.mboa.cm/',
    });
    const { mailer, publicUrl } = serverMail(config, logger);
    expect(mailer).toBeInstanceOf(SmtpMailer);
    expect(publicUrl).toBe('https://api.mboa.cm');
    const to = `${randomId('smtp')}@bank.cm`;
    await mailer.send({ to, subject: 'Essai', text: 'Bonjour', html: '<p>Bonjour</p>', kind: 'test' });
    const got = await mailbox.waitFor(to, /^Essai$/);
    expect(got.text?.trim()).toBe('Bonjour');
    expect(got.from?.value).toEqual([{ name: 'Mboa', address: 'no-reply@mboa.cm' }]);
    mailer.close();
  });

  it('writes demo mail to the data folder and logs its links', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mboa-mail-'));
    try {
      const lines: string[] = [];
      const capture = (await import('pino')).pino({ level: 'info' }, { write: (l: string) => lines.push(l) });
      const { mailer, publicUrl } = serverMail(loadConfig({ MBOA_DATA_DIR: dir, PORT: '4123' }), capture);
      expect(mailer).toBeInstanceOf(FileMailer);
      expect(publicUrl).toBe('http://localhost:4123');
      await mailer.send({
        to: 'demo@bank.cm',
        subject: 'Confirm',
        text: 'Open http://localhost:4123/dashboard/verify?token=abc now',
        html: '<p>x</p>',
        kind: 'verify_email',
      });
      const files = readdirSync(join(dir, 'mail'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/verify_email-demo@bank\.cm\.eml$/);
      const eml = readFileSync(join(dir, 'mail', files[0]), 'utf8');
      expect(eml).toContain('Subject: Confirm');
      expect(eml).toContain('To: demo@bank.cm');
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'demo mail written (no SMTP_URL)');
      expect(logged.links).toEqual(['http://localhost:4123/dashboard/verify?token=abc']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a production server without SMTP_URL or MBOA_PUBLIC_URL', () => {
    const attempt = (env: Record<string, string>) => () =>
      serverMail(loadConfig({ ...PRODUCTION_SECRETS, DATABASE_URL: 'postgresql://db/x', ...env }), logger);
    expect(attempt({})).toThrow(ConfigError);
    expect(attempt({})).toThrow(/SMTP_URL and MBOA_PUBLIC_URL must be set when DATABASE_URL is/);
    expect(attempt({ SMTP_URL: mailbox.url })).toThrow(/MBOA_PUBLIC_URL must be set/);
    expect(attempt({ MBOA_PUBLIC_URL: 'https://api.mboa.cm' })).toThrow(/SMTP_URL must be set/);
    expect(() => loadConfig({ SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    // The CLI runs, but says so for every message (below, through a real command).
    expect(cliMail(loadConfig({ DATABASE_URL: 'postgresql://db/x' }, { secrets: 'optional' }), logger).mailer.constructor.name).toBe(
      'UnsentMailer',
    );
  });

  it('stops `npm start` with a clear message, before touching the database', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/start/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        ...PRODUCTION_SECRETS,
        DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
        SMTP_URL: '',
        MBOA_PUBLIC_URL: '',
        PORT: '0',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('SMTP_URL and MBOA_PUBLIC_URL must be set when DATABASE_URL is');
    expect(run.stderr).not.toMatch(/ECONNREFUSED|\n\s+at /);
  });

  it('logs each mail the CLI could not send as an error, and still does the work', async () => {
    const email = `${randomId('ops')}@test.mboa.cm`;
    expect((await admin(['accounts', 'create', '--email', email, '--plan', 'pro', '--json'])).code).toBe(0);
    const res = await admin(['keys', 'create', '--email', email, '--name', 'batch', '--json'], { SMTP_URL: '', MBOA_PUBLIC_URL: '' });
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.key).toMatch(/^mboa_live_/);
    const errors = res.stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(errors).toEqual([expect.objectContaining({ level: 50, kind: 'key_created', msg: 'mail not sent' })]);
    expect(errors[0].err).toMatch(
      new RegExp(`^not sent to ${email.replace('.', '\\.')} \\(".+"\\): SMTP_URL and MBOA_PUBLIC_URL not set$`),
    );
  });

  it('sends the CLI’s mail through SMTP when it is set', async () => {
    const email = `${randomId('ops')}@test.mboa.cm`;
    await admin(['accounts', 'create', '--email', email, '--plan', 'pro', '--lang', 'en']);
    const res = await admin(['keys', 'create', '--email', email, '--name', 'nightly', '--test', '--json'], {
      SMTP_URL: mailbox.url,
      MBOA_PUBLIC_URL: 'https://api.mboa.cm',
    });
    expect(res.code, res.stderr).toBe(0);
    const mail = await mailbox.waitFor(email, /New API key “nightly”/);
    expect(mail.text).toContain(`A test key ${res.json.key_info.prefix}… named “nightly” was created on`);
    expect(mail.text).toContain('https://api.mboa.cm/dashboard/keys');
  });
});
