/**
 * A customer's life, end to end over HTTP with a real SMTP server and the operator CLI:
 * sign-up → confirmation mail → the key works on the API → password reset by mail →
 * month closed (CLI) → invoice PDF downloaded from the dashboard, its VAT line read back →
 * payment recorded (CLI) → the invoice shows as paid.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { monthStart } from '../../server/accounts/policy.js';
import { csrfOf, type DashboardServer, startDashboardServer, textOf, uniqueEmail } from '../dashboard/helpers.js';
import { admin } from '../helpers/admin.js';
import { linksIn } from '../helpers/mailbox.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const STANDARD_FONTS = new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url).pathname;

async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS, verbosity: 0 }).promise;
  const content = await (await pdf.getPage(1)).getTextContent();
  return content.items
    .map((item) => ('str' in item ? item.str : ''))
    .join(' ')
    .replace(/\s+/g, ' ');
}

const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

it('takes a customer from sign-up to a paid invoice', async () => {
  const mailEnv = { SMTP_URL: t.mailbox.url, MBOA_PUBLIC_URL: t.baseUrl };
  const email = uniqueEmail('e2e');
  const browser = t.client();

  // 1. Sign-up: the first key is shown, and refused until the address is confirmed.
  const signup = await browser.submit('/dashboard/signup', '/dashboard/signup', {
    company: 'Assurances du Wouri SA',
    email,
    password: 'first passphrase here',
    plan: 'pro',
  });
  expect(signup.status).toBe(201);
  const key = /data-testid="new-key">(mboa_live_[0-9A-Za-z]{32})</.exec(signup.text)![1];
  const api = (path: string) => fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': key } });
  expect((await (await api('/api/v1/listings?city=Douala&limit=2')).json()).code).toBe('email_unverified');

  // 2. The confirmation mail arrives over SMTP; its link turns the key on.
  const confirmation = await t.mailbox.waitFor(email, /Confirm your e-mail address for Mboa/);
  const verifyLink = linksIn(confirmation).find((l) => l.includes('/dashboard/verify?token='))!;
  expect((await browser.get(pathOf(verifyLink))).status).toBe(200);
  const search = await api('/api/v1/listings?city=Douala&limit=2');
  expect(search.status).toBe(200);
  expect(((await search.json()) as { data: unknown[] }).data).toHaveLength(2);

  // 3. Password forgotten: a reset link by mail, a new password, the old one refused.
  await browser.submit('/dashboard/', '/dashboard/logout', {});
  const stranger = t.client();
  expect((await stranger.submit('/dashboard/password/forgot', '/dashboard/password/forgot', { email })).status).toBe(200);
  const resetMail = await t.mailbox.waitFor(email, /Reset your Mboa password/);
  const resetLink = linksIn(resetMail).find((l) => l.includes('/dashboard/password/reset?token='))!;
  const form = await stranger.get(pathOf(resetLink));
  const reset = await stranger.post('/dashboard/password/reset', {
    _csrf: csrfOf(form.text),
    token: new URL(resetLink).searchParams.get('token')!,
    password: 'second passphrase here',
  });
  expect(reset.status).toBe(303);
  expect((await t.client().submit('/dashboard/login', '/dashboard/login', { email, password: 'first passphrase here' })).status).toBe(422);
  const customer = t.client();
  expect((await customer.submit('/dashboard/login', '/dashboard/login', { email, password: 'second passphrase here' })).status).toBe(303);

  // 4. The month is closed by the operator. Only a month that is over can be closed, so the
  //    account's history is moved one month back first (as if it had signed up then).
  const account = (await t.db.prisma.account.findUniqueOrThrow({ where: { email } }))!;
  const thisMonth = monthStart(new Date());
  const lastMonth = new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - 1, 1));
  const month = lastMonth.toISOString().slice(0, 7);
  await t.db.prisma.account.update({ where: { id: account.id }, data: { createdAt: lastMonth } });
  await t.db.prisma.planChange.updateMany({ where: { accountId: account.id }, data: { changedAt: lastMonth } });
  const closed = await admin(['invoices', 'close', '--month', month, '--json'], mailEnv);
  expect(closed.code, closed.stderr).toBe(0);
  const issued = (closed.json.issued as Array<{ account_id: string; number: number; display_number: string; total_xaf: number }>).find(
    (i) => i.account_id === account.id,
  )!;
  expect(issued.total_xaf).toBe(298_125);
  await t.mailbox.waitFor(email, new RegExp(`Mboa invoice ${issued.display_number}`));

  // 5. The customer downloads the invoice from the Billing page and reads its VAT line.
  const billing = await customer.get('/dashboard/billing');
  const href = new RegExp(`href="(/dashboard/billing/invoices/${issued.number})"`).exec(billing.text)![1];
  const pdf = await fetch(`${t.baseUrl}${href}`, {
    headers: { cookie: `mboa_session=${customer.cookies.get('mboa_session')}`, 'accept-language': 'en' },
  });
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const text = await pdfText(await pdf.arrayBuffer());
  expect(text).toContain('VAT 19.25% 48,125 FCFA');
  expect(text).toContain('Total incl. tax 298,125 FCFA');

  // 6. The finance desk records the mobile-money payment; the customer sees it paid.
  const paid = await admin(
    ['invoices', 'pay', '--number', issued.display_number, '--reference', 'OM-240517-7781', '--method', 'mobile-money', '--json'],
    mailEnv,
  );
  expect(paid.code, paid.stderr).toBe(0);
  await t.mailbox.waitFor(email, new RegExp(`Payment received for Mboa invoice ${issued.display_number}`));
  const after = textOf((await customer.get('/dashboard/billing')).text);
  expect(after).toMatch(new RegExp(`${issued.display_number} .+ 298,125 FCFA Paid on \\d+ \\w+ \\d{4}`));
  const paidPdf = await fetch(`${t.baseUrl}${href}`, {
    headers: { cookie: `mboa_session=${customer.cookies.get('mboa_session')}`, 'accept-language': 'en' },
  });
  expect(await pdfText(await paidPdf.arrayBuffer())).toMatch(/Paid on \d+ \w+ \d{4}, reference OM-240517-7781\./);
});
