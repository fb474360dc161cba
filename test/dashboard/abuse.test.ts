/**
 * The dashboard under abuse: log-in guesses and sign-ups sent in parallel never get past
 * their limits, in one process and across instances sharing Redis.
 */
import { describe, expect, it } from 'vitest';
import { randomId } from '../../server/platform/ids.js';
import { DEFAULT_SIGNUP_LIMITS, type SignupLimits } from '../../server/dashboard/signup-limiter.js';
import { type Client, csrfOf, type DashboardServer, PASSWORD, signUp, startDashboardServer, textOf } from './helpers.js';
import { itWhen } from '../helpers/requires.js';

/** A DNS label: randomId's `_` is not allowed in a mail domain. */
const label = (prefix: string) => randomId(prefix).replace('_', '-');

const GUESS_LIMITS = { perEmail: 5, perIp: 100_000, windowSeconds: 600 };

/** A client holding a valid log-in form token, reused by every request it sends. */
async function loginForm(t: DashboardServer): Promise<{ client: Client; csrf: string }> {
  const client = t.client();
  return { client, csrf: csrfOf((await client.get('/dashboard/login')).text) };
}

/** Sends `n` wrong passwords for `email` at once, spread over the given servers; counts the answers. */
async function parallelGuesses(servers: DashboardServer[], email: string, n: number) {
  const forms = await Promise.all(servers.map(loginForm));
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const { client, csrf } = forms[i % forms.length];
      return client.post('/dashboard/login', { _csrf: csrf, email, password: `wrong guess ${i}` });
    }),
  );
  const count = (status: number) => answers.filter((a) => a.status === status).length;
  return {
    checked: count(422),
    limited: count(429),
    other: answers.filter((a) => a.status !== 422 && a.status !== 429).map((a) => a.status),
  };
}

describe('parallel log-in guesses never get more password checks than the limit', () => {
  it.each([40, 200])('in one process: %i simultaneous guesses, 5 checked', async (n) => {
    const t = await startDashboardServer({ loginLimits: GUESS_LIMITS });
    try {
      const { email } = await signUp(t, t.client());
      const result = await parallelGuesses([t], email, n);
      expect(result).toEqual({ checked: 5, limited: n - 5, other: [] });
      // The right password now waits too: the limit is per address, not per wrong answer.
      const right = await t.client().submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD });
      expect(right.status).toBe(429);
      expect(textOf(right.text)).toContain('Too many failed log-in attempts. For your security, try again in 10 min.');
    } finally {
      await t.close();
    }
  });

  it('per IP as well: 200 addresses guessed at once from one place, 10 checked', async () => {
    const t = await startDashboardServer({ loginLimits: { perEmail: 5, perIp: 10, windowSeconds: 600 } });
    try {
      const { client, csrf } = await loginForm(t);
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          client.post('/dashboard/login', { _csrf: csrf, email: `nobody-${i}@${label('d')}.cm`, password: PASSWORD }),
        ),
      );
      expect(answers.filter((a) => a.status === 422)).toHaveLength(10);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(190);
    } finally {
      await t.close();
    }
  });

  for (const n of [40, 200])
    itWhen(Boolean(process.env.REDIS_URL), 'Redis (REDIS_URL)')(
      `across two instances sharing Redis: ${n} simultaneous guesses, 5 checked`,
      async () => {
        const limitPrefix = randomId('mboa-test-shared');
        const a = await startDashboardServer({ redis: true, loginLimits: GUESS_LIMITS, limitPrefix });
        const b = await startDashboardServer({ redis: true, loginLimits: GUESS_LIMITS, limitPrefix });
        try {
          const { email } = await signUp(a, a.client());
          expect(await parallelGuesses([a, b], email, n)).toEqual({ checked: 5, limited: n - 5, other: [] });
        } finally {
          await a.close();
          await b.close();
        }
      },
    );

  it('a success clears the address’s count and gives the IP its attempt back', async () => {
    const t = await startDashboardServer({ loginLimits: { perEmail: 3, perIp: 4, windowSeconds: 600 } });
    try {
      const { email } = await signUp(t, t.client());
      const attempt = async (password: string) => {
        const client = t.client();
        return (await client.submit('/dashboard/login', '/dashboard/login', { email, password })).status;
      };
      // Two failures, a success (clears the address, gives the IP one back), two failures: 4 counted on the IP.
      expect([
        await attempt('nope nope 1'),
        await attempt('nope nope 2'),
        await attempt(PASSWORD),
        await attempt('nope nope 3'),
        await attempt('nope nope 4'),
      ]).toEqual([422, 422, 303, 422, 422]);
      expect(await attempt(PASSWORD)).toBe(429); // the IP's 4 attempts are used
    } finally {
      await t.close();
    }
  });
});

/** Signs up `n` accounts at once from one client (one address), each e-mail from `emailOf(i)`. */
async function parallelSignups(t: DashboardServer, n: number, emailOf: (i: number) => string) {
  const client = t.client();
  const csrf = csrfOf((await client.get('/dashboard/signup')).text);
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      client.post('/dashboard/signup', { _csrf: csrf, company: `Bulk ${i}`, email: emailOf(i), password: PASSWORD, plan: 'starter' }),
    ),
  );
  return answers;
}

describe('sign-ups are limited per IP and per e-mail domain', () => {
  it('lets 10 of 100 simultaneous sign-ups from one address through (the default per IP)', async () => {
    const t = await startDashboardServer({ signupLimits: DEFAULT_SIGNUP_LIMITS });
    try {
      const tag = label('bulk');
      const answers = await parallelSignups(t, 100, (i) => `owner@${tag}-${i}.cm`);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(90);
      expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(60);
      expect(textOf(refused[0].text)).toContain('Too many accounts opened from your network or your e-mail domain.');
      expect(await t.db.prisma.account.count({ where: { email: { endsWith: '.cm', contains: tag } } })).toBe(10);
    } finally {
      await t.close();
    }
  });

  it('allows a company’s domain a few a day, and an ordinary webmail domain more', async () => {
    const limits: SignupLimits = {
      perIp: { points: 1000, windowSeconds: 3600 },
      perDomain: { points: 3, windowSeconds: 86_400 },
      perWebmailDomain: { points: 6, windowSeconds: 86_400 },
    };
    const t = await startDashboardServer({ signupLimits: limits });
    try {
      const company = `${label('bank')}.cm`;
      const atCompany = await parallelSignups(t, 8, (i) => `staff${i}-${randomId('u')}@${company}`);
      expect(atCompany.filter((a) => a.status === 201)).toHaveLength(3);
      // Another company is not affected.
      expect((await parallelSignups(t, 1, () => `ceo@${label('other')}.cm`))[0].status).toBe(201);
      const webmail = await parallelSignups(t, 10, (i) => `${randomId('person')}${i}@gmail.com`);
      expect(webmail.filter((a) => a.status === 201)).toHaveLength(6);
      expect(webmail.filter((a) => a.status === 429)).toHaveLength(4);
    } finally {
      await t.close();
    }
  });

  itWhen(Boolean(process.env.REDIS_URL), 'Redis (REDIS_URL)')('shares the counts between instances through Redis', async () => {
    const limits: SignupLimits = { ...DEFAULT_SIGNUP_LIMITS, perIp: { points: 4, windowSeconds: 3600 } };
    const limitPrefix = randomId('mboa-test-shared');
    const a = await startDashboardServer({ redis: true, signupLimits: limits, limitPrefix });
    const b = await startDashboardServer({ redis: true, signupLimits: limits, limitPrefix });
    try {
      const tag = label('redis');
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        const [answer] = await parallelSignups(i % 2 ? b : a, 1, () => `owner@${tag}-${i}.cm`);
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
