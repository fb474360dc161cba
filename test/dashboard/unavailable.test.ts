/**
 * While PostgreSQL is unreachable (a proxy in front of it is cut: its port closed, its
 * connections reset), every dashboard page answers 503 with a page in French and English
 * and retry advice, never a 500; when the database is back, pages work again at once.
 */
import { BackgroundWork } from '../../server/platform/background-work.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRouter } from '../../server/dashboard/index.js';
import { createLogger } from '../../server/platform/logger.js';
import { AccountMail } from '../../server/mail/account-mail.js';
import { TEST_SECRETS } from '../helpers/server.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { type DashboardServer, signUp, startDashboardServer, textOf } from './helpers.js';

let proxy: TcpProxy;
let t: DashboardServer;
beforeAll(async () => {
  proxy = await startTcpProxy(process.env.DATABASE_URL!);
  t = await startDashboardServer({ databaseUrl: proxy.url });
});
afterAll(async () => {
  await proxy.restore().catch(() => {});
  await t.close();
  await proxy.close();
});

/** Every route the dashboard serves (read from its router, so a new page is covered at once). */
function dashboardRoutes(): Array<{ method: 'GET' | 'POST'; path: string }> {
  const logger = createLogger('silent');
  const mail = new AccountMail({ mailer: { send: async () => {}, close() {} }, dashboardUrl: t.baseUrl, logger });
  const router = dashboardRouter({
    prisma: t.db.prisma,
    pool: t.db.pool,
    logger,
    mail,
    background: new BackgroundWork(),
    formSecrets: TEST_SECRETS.dashboard,
  });
  const fill: Record<string, string> = { ':id': 'key_aaaaaaaaaaaaaaaa', ':lang': 'en', ':number': '1' };
  const routes: Array<{ method: 'GET' | 'POST'; path: string }> = [];
  for (const layer of (router as unknown as { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> }).stack) {
    if (!layer.route || layer.route.path.startsWith('/assets')) continue;
    const path = `/dashboard${layer.route.path.replace(/:\w+/g, (p) => fill[p] ?? 'x')}`;
    for (const method of Object.keys(layer.route.methods)) routes.push({ method: method.toUpperCase() as 'GET' | 'POST', path });
  }
  return routes;
}

function expectUnavailablePage(res: { status: number; headers: Headers; text: string }, lang: 'fr' | 'en', where: string) {
  expect(res.status, where).toBe(503);
  expect(res.headers.get('content-type'), where).toBe('text/html; charset=utf-8');
  expect(res.headers.get('retry-after'), where).toBe('30');
  expect(res.text, where).toContain(`<html lang="${lang}">`);
  const text = textOf(res.text);
  const [first, second] =
    lang === 'fr'
      ? ['Service momentanément indisponible', 'Service temporarily unavailable']
      : ['Service temporarily unavailable', 'Service momentanément indisponible'];
  expect(text.indexOf(first), where).toBeGreaterThan(-1);
  expect(text.indexOf(second), where).toBeGreaterThan(text.indexOf(first));
  expect(text, where).toContain(lang === 'fr' ? 'Réessayez dans 30 secondes' : 'Try again in 30 seconds');
  expect(res.text, where).not.toMatch(/at .+\.(ts|js):\d+|ECONNREFUSED|P1001|prisma|SELECT/i);
}

describe('database unreachable', () => {
  it('answers every page with a 503 in French and English, then recovers', async () => {
    const routes = dashboardRoutes();
    expect(routes.length).toBeGreaterThan(10);
    const client = t.client();
    await signUp(t, client, { plan: 'pro' });
    expect((await client.get('/dashboard/')).status).toBe(200);

    await proxy.cut();
    for (const lang of ['fr', 'en'] as const) {
      for (const { method, path } of routes) {
        const res = await client.request(method, path, method === 'POST' ? { _csrf: 'x' } : undefined, { 'accept-language': lang });
        expectUnavailablePage(res, lang, `${lang} ${method} ${path}`);
      }
    }
    // A visitor without a session: pages that need nothing stored still show; every form that
    // must read or write answers 503, never 500.
    const visitor = t.client();
    for (const { method, path } of routes) {
      const res = await visitor.request(method, path, method === 'POST' ? { _csrf: 'x' } : undefined);
      expect([200, 303, 403, 404, 503], `visitor ${method} ${path}`).toContain(res.status);
      if (res.status === 503) expectUnavailablePage(res, 'en', `visitor ${method} ${path}`);
    }
    const login = await visitor.submit('/dashboard/login', '/dashboard/login', {
      email: 'someone@bank.cm',
      password: 'correct horse battery',
    });
    expectUnavailablePage(login, 'en', 'log-in');

    await proxy.restore();
    expect((await client.get('/dashboard/')).status).toBe(200);
    expect((await client.get('/dashboard/keys')).status).toBe(200);
  });
});
