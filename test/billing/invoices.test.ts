/**
 * Invoices: a month's close issues one invoice per account from the billing rule (lines
 * per plan period, VAT 19.25 %, total, due date), numbered without gaps even when closes
 * run at once; customers download them as PDF; the finance desk records payments; overdue
 * invoices lead to a warning, then a suspension that the payment lifts.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanName } from '../../contract/plans.js';
import { proratedAmount } from '../../server/accounts/billing.js';
import { createAccount } from '../../server/accounts/accounts.js';
import { changePlan } from '../../server/accounts/plan-changes.js';
import { closeMonth, enforcePayments, listInvoices, recordPayment } from '../../server/billing/invoices.js';
import { renderInvoicePdf } from '../../server/billing/invoice-pdf.js';
import { vatOn } from '../../server/billing/vat.js';
import { randomId } from '../../server/platform/ids.js';
import { apiGet, type DashboardServer, signUp, startDashboardServer, textOf } from '../dashboard/helpers.js';
import { admin } from '../helpers/admin.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const STANDARD_FONTS = new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url).pathname;

/** The text of every page of a PDF, as a reader would extract it. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes, standardFontDataUrl: STANDARD_FONTS, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages.join('\n').replace(/\s+/g, ' ');
}

/** An account opened at `openedAt` on `plan`, then moved through `changes`; its e-mail and id. */
async function historyAccount(openedAt: string, plan: PlanName, changes: Array<[PlanName, string]> = [], language: 'fr' | 'en' = 'en') {
  const email = `${randomId('inv')}@test.mboa.cm`;
  const created = await createAccount(t.db.prisma, { email, plan, companyName: `Client ${email.slice(4, 10)}`, language });
  const at = new Date(openedAt);
  await t.db.prisma.account.update({ where: { id: created.account.id }, data: { createdAt: at } });
  await t.db.prisma.planChange.updateMany({ where: { accountId: created.account.id }, data: { changedAt: at } });
  for (const [to, when] of changes) await changePlan(t.db.prisma, created.account.id, to, new Date(when), { by: 'operator' });
  return { email, id: created.account.id, key: created.key };
}

async function invoiceOf(accountId: string, month: string) {
  const [invoice] = await listInvoices(t.db.prisma, { accountId, month });
  return invoice;
}

describe('VAT', () => {
  it('is 19.25 % rounded half up to the franc', () => {
    expect(vatOn(50_000)).toBe(9_625);
    expect(vatOn(250_000)).toBe(48_125);
    expect(vatOn(1_000_000)).toBe(192_500);
    expect(vatOn(112_903)).toBe(21_734); // 21 733.83
    expect(vatOn(2)).toBe(0); // 0.385
    expect(vatOn(26)).toBe(5); // 5.005
  });
});

describe('closing a month', () => {
  it('issues an invoice per account: lines per plan period, VAT, total, due 15 days after issue', async () => {
    const upgraded = await historyAccount('2025-01-10T09:00:00Z', 'starter', [['pro', '2025-01-20T12:00:00Z']]);
    const whole = await historyAccount('2024-12-01T00:00:00Z', 'pro');
    const later = await historyAccount('2025-02-03T00:00:00Z', 'pro');

    const result = await closeMonth(t.db.prisma, '2025-01');
    const mine = result.issued.filter((i) => [upgraded.id, whole.id, later.id].includes(i.account_id));
    expect(mine.map((i) => i.account_id).sort()).toEqual([upgraded.id, whole.id].sort());

    const a = mine.find((i) => i.account_id === upgraded.id)!;
    const pro12 = proratedAmount(250_000, 12, 31);
    expect(a.lines).toEqual([
      {
        plan: 'starter',
        first_day: '2025-01-10',
        last_day: '2025-01-19',
        days: 10,
        days_in_month: 31,
        monthly_price_xaf: 50_000,
        amount_xaf: 16_129,
      },
      {
        plan: 'pro',
        first_day: '2025-01-20',
        last_day: '2025-01-31',
        days: 12,
        days_in_month: 31,
        monthly_price_xaf: 250_000,
        amount_xaf: pro12,
      },
    ]);
    expect(a).toMatchObject({
      month: '2025-01',
      subtotal_xaf: 16_129 + pro12,
      vat_rate_basis_points: 1925,
      status: 'unpaid',
      customer_email: upgraded.email,
    });
    expect(a.vat_xaf).toBe(vatOn(16_129 + pro12));
    expect(a.total_xaf).toBe(a.subtotal_xaf + a.vat_xaf);
    const issued = new Date(a.issued_at);
    expect(a.due_on).toBe(
      new Date(Date.UTC(issued.getUTCFullYear(), issued.getUTCMonth(), issued.getUTCDate() + 15)).toISOString().slice(0, 10),
    );
    expect(a.display_number).toBe(`MBOA-${String(a.number).padStart(6, '0')}`);

    const b = mine.find((i) => i.account_id === whole.id)!;
    expect(b).toMatchObject({ subtotal_xaf: 250_000, vat_xaf: 48_125, total_xaf: 298_125 });
    expect(b.lines).toHaveLength(1);

    // Again: nothing new, the same invoices.
    const again = await closeMonth(t.db.prisma, '2025-01');
    expect(again.issued.filter((i) => [upgraded.id, whole.id].includes(i.account_id))).toEqual([]);
    expect(again.alreadyIssued).toBeGreaterThanOrEqual(2);
    expect((await invoiceOf(upgraded.id, '2025-01')).number).toBe(a.number);
  });

  it('charges a closed account up to its closing day, and no month after', async () => {
    const closing = await historyAccount('2025-03-01T00:00:00Z', 'pro');
    await t.db.prisma.account.update({ where: { id: closing.id }, data: { closedAt: new Date('2025-04-10T15:00:00Z') } });
    await closeMonth(t.db.prisma, '2025-04');
    await closeMonth(t.db.prisma, '2025-05');
    expect((await invoiceOf(closing.id, '2025-04')).lines).toEqual([
      expect.objectContaining({ first_day: '2025-04-01', last_day: '2025-04-10', days: 10, amount_xaf: 83_333 }),
    ]);
    expect(await invoiceOf(closing.id, '2025-05')).toBeUndefined();
  });

  it('numbers invoices without gaps, one per account and month, when closes run at once', async () => {
    const accounts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => historyAccount(`2025-06-0${i + 1}T08:00:00Z`, i % 2 ? 'pro' : 'starter')),
    );
    const other = await Promise.all(Array.from({ length: 4 }, (_, i) => historyAccount(`2025-07-1${i}T08:00:00Z`, 'starter')));
    const cli = (month: string) => admin(['invoices', 'close', '--month', month, '--json']);
    const runs = await Promise.all([
      closeMonth(t.db.prisma, '2025-06'),
      closeMonth(t.db.prisma, '2025-07'),
      cli('2025-06'),
      closeMonth(t.db.prisma, '2025-06'),
      cli('2025-07'),
      closeMonth(t.db.prisma, '2025-07'),
    ]);
    for (const run of runs) if ('code' in run) expect(run.code, run.stderr).toBe(0);

    for (const [list, month] of [
      [accounts, '2025-06'],
      [other, '2025-07'],
    ] as const) {
      for (const a of list)
        expect(await t.db.prisma.invoice.count({ where: { accountId: a.id, month: new Date(`${month}-01T00:00:00Z`) } })).toBe(1);
    }
    const { rows } = await t.db.pool.query<{ n: number; max: number; min: number }>(
      'SELECT count(*)::int AS n, max(number) AS max, min(number) AS min FROM invoices',
    );
    expect(rows[0].n).toBeGreaterThanOrEqual(10);
    expect(rows[0]).toMatchObject({ min: 1, max: rows[0].n });
  });

  it('refuses a month that is not over, and says how to write one', async () => {
    const now = new Date();
    const current = now.toISOString().slice(0, 7);
    await expect(closeMonth(t.db.prisma, current)).rejects.toMatchObject({ code: 'invalid_input' });
    const refused = await admin(['invoices', 'close', '--month', current]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${current} is not over yet`);
    const bad = await admin(['invoices', 'close', '--month', '2025-13']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--month must be written YYYY-MM');
  });
});

describe('the invoice PDF', () => {
  it('runs onto a second page when a month has a line for every day', async () => {
    const plans = ['starter', 'pro'] as const;
    const lines = Array.from({ length: 31 }, (_, i) => {
      const day = `2025-01-${String(i + 1).padStart(2, '0')}`;
      const plan = plans[i % 2];
      const price = plan === 'pro' ? 250_000 : 50_000;
      return {
        plan,
        first_day: day,
        last_day: day,
        days: 1,
        days_in_month: 31,
        monthly_price_xaf: price,
        amount_xaf: proratedAmount(price, 1, 31),
      };
    });
    const subtotal = lines.reduce((s, l) => s + l.amount_xaf, 0);
    const invoice = {
      number: 7,
      display_number: 'MBOA-000007',
      account_id: 'acc_many',
      month: '2025-01',
      issued_at: '2025-02-01T06:00:00Z',
      due_on: '2025-02-16',
      customer_name: 'Changeante SA',
      customer_email: 'x@changeante.cm',
      language: 'en' as const,
      subtotal_xaf: subtotal,
      vat_rate_basis_points: 1925,
      vat_xaf: vatOn(subtotal),
      total_xaf: subtotal + vatOn(subtotal),
      status: 'unpaid' as const,
      paid_at: null,
      payment_reference: null,
      payment_method: null,
      warned_at: null,
      lines,
    };
    const bytes = await renderInvoicePdf(invoice, 'en');
    const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS, verbosity: 0 }).promise;
    expect(pdf.numPages).toBe(2);
    const text = await pdfText(new Uint8Array(bytes));
    expect(text).toContain('31 Jan Starter');
    expect(text).toContain(`Total incl. tax ${(subtotal + vatOn(subtotal)).toLocaleString('en-GB')} FCFA`);
  });
});

describe('invoices reach the customer', () => {
  it('mails each invoice with its PDF, in the account’s language', async () => {
    const french = await historyAccount('2025-08-05T00:00:00Z', 'pro', [], 'fr');
    const res = await admin(['invoices', 'close', '--month', '2025-08', '--json'], { SMTP_URL: t.mailbox.url, MBOA_PUBLIC_URL: t.baseUrl });
    expect(res.code, res.stderr).toBe(0);
    const invoice = (res.json.issued as Array<{ account_id: string; display_number: string; total_xaf: number }>).find(
      (i) => i.account_id === french.id,
    )!;
    const mail = await t.mailbox.waitFor(french.email, new RegExp(`Facture Mboa ${invoice.display_number} pour août 2025`));
    expect(mail.text).toContain(`Votre facture ${invoice.display_number} pour août 2025 est jointe`);
    expect(mail.text).toContain(`${t.baseUrl}/dashboard/billing`);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: `${invoice.display_number}.pdf`, contentType: 'application/pdf' });
    const text = await pdfText(new Uint8Array(mail.attachments[0].content));
    const amount27 = proratedAmount(250_000, 27, 31);
    expect(text).toContain(`Facture ${invoice.display_number}`);
    expect(text).toContain(`TVA 19,25 % ${new Intl.NumberFormat('fr-FR').format(vatOn(amount27)).replace(/\s/g, ' ')} FCFA`);
    expect(text).toContain(`Total TTC ${new Intl.NumberFormat('fr-FR').format(invoice.total_xaf).replace(/\s/g, ' ')} FCFA`);
  });

  it('lists the invoices on the Billing page and serves each one’s PDF to its account only', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    await t.db.prisma.account.update({ where: { id: accountId }, data: { createdAt: new Date('2025-09-01T00:00:00Z') } });
    await t.db.prisma.planChange.updateMany({ where: { accountId }, data: { changedAt: new Date('2025-09-01T00:00:00Z') } });
    await closeMonth(t.db.prisma, '2025-09');
    const invoice = await invoiceOf(accountId, '2025-09');
    expect(invoice.total_xaf).toBe(298_125);

    const page = await client.get('/dashboard/billing');
    const row = textOf(page.text.slice(page.text.indexOf(`data-invoice="${invoice.number}"`)));
    expect(row).toMatch(new RegExp(`^.*${invoice.display_number} September 2025 \\d+ \\w+ \\d{4} 298,125 FCFA (To pay|Overdue) PDF`));
    expect(textOf(page.text)).toContain('By bank transfer or mobile money within 15 days of the invoice, quoting its number');

    const pdf = await fetch(`${t.baseUrl}/dashboard/billing/invoices/${invoice.number}`, {
      headers: { cookie: `mboa_session=${client.cookies.get('mboa_session')}`, 'accept-language': 'en' },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.display_number}.pdf"`);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain(`Invoice ${invoice.display_number}`);
    expect(text).toContain('Total excl. tax 250,000 FCFA');
    expect(text).toContain('VAT 19.25% 48,125 FCFA');
    expect(text).toContain('Total incl. tax 298,125 FCFA');

    const stranger = t.client();
    await signUp(t, stranger);
    expect((await stranger.get(`/dashboard/billing/invoices/${invoice.number}`)).status).toBe(404);
    expect((await stranger.get('/dashboard/billing/invoices/abc')).status).toBe(404);
    expect((await t.client().get(`/dashboard/billing/invoices/${invoice.number}`)).status).toBe(303);
  });
});

describe('payments and overdue invoices', () => {
  it('records a payment from the CLI, once, and lists invoices by status', async () => {
    const acc = await historyAccount('2025-10-01T00:00:00Z', 'starter');
    await closeMonth(t.db.prisma, '2025-10');
    const invoice = await invoiceOf(acc.id, '2025-10');
    const paid = await admin(
      ['invoices', 'pay', '--number', invoice.display_number, '--reference', 'MOMO-88231', '--method', 'mobile-money', '--json'],
      {
        SMTP_URL: t.mailbox.url,
        MBOA_PUBLIC_URL: t.baseUrl,
      },
    );
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.json).toMatchObject({
      restored: false,
      already_recorded: false,
      invoice: { status: 'paid', payment_reference: 'MOMO-88231', payment_method: 'mobile_money' },
    });
    await t.mailbox.waitFor(acc.email, new RegExp(`Payment received for Mboa invoice ${invoice.display_number}`));

    const same = await admin(['invoices', 'pay', '--number', String(invoice.number), '--reference', 'MOMO-88231']);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('already recorded as paid');
    const other = await admin(['invoices', 'pay', '--number', String(invoice.number), '--reference', 'VIR-1']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`${invoice.display_number} was already paid on`);
    const bad = await admin(['invoices', 'pay', '--number', 'twelve', '--reference', 'x']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('not an invoice number: twelve');

    const listed = await admin(['invoices', 'list', '--email', acc.email, '--status', 'paid', '--json']);
    expect(listed.json.invoices.map((i: { number: number }) => i.number)).toEqual([invoice.number]);
    expect((await admin(['invoices', 'list', '--status', 'late'])).code).toBe(2);
  });

  it('warns, then suspends an account 15 days past due, and the payment restores access within 1 s', async () => {
    const client = t.client();
    const { accountId, key, email } = await signUp(t, client, { plan: 'pro' });
    await t.db.prisma.account.update({ where: { id: accountId }, data: { createdAt: new Date('2025-11-01T00:00:00Z') } });
    await t.db.prisma.planChange.updateMany({ where: { accountId }, data: { changedAt: new Date('2025-11-01T00:00:00Z') } });
    await closeMonth(t.db.prisma, '2025-11');
    const invoice = await invoiceOf(accountId, '2025-11');

    // Not yet due: nothing happens.
    expect((await enforcePayments(t.db.prisma)).warned.map((w) => w.invoice.number)).not.toContain(invoice.number);
    // 16 days past due (moved into the past here): a warning naming the suspension day, access kept.
    const dueOn = new Date(Date.now() - 16 * 86_400_000);
    await t.db.prisma.invoice.update({ where: { number: invoice.number }, data: { dueOn: new Date(dueOn.toISOString().slice(0, 10)) } });
    const enforced = await admin(['invoices', 'enforce', '--json'], { SMTP_URL: t.mailbox.url, MBOA_PUBLIC_URL: t.baseUrl });
    expect(enforced.code, enforced.stderr).toBe(0);
    const warning = enforced.json.warned.find((w: { invoice: { number: number } }) => w.invoice.number === invoice.number);
    const in3Days = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expect(warning.suspendOn).toBe(in3Days);
    const warnMail = await t.mailbox.waitFor(email, new RegExp(`Mboa invoice ${invoice.display_number} is overdue`));
    expect(warnMail.text).toContain('Without payment, API access will be suspended on');
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(200);
    expect((await enforcePayments(t.db.prisma)).suspended.map((s) => s.number)).not.toContain(invoice.number);

    // Three days after the warning: suspended for non-payment.
    await t.db.prisma.invoice.update({
      where: { number: invoice.number },
      data: { warnedAt: new Date(Date.now() - 3 * 86_400_000 - 60_000) },
    });
    const second = await admin(['invoices', 'enforce', '--json'], { SMTP_URL: t.mailbox.url, MBOA_PUBLIC_URL: t.baseUrl });
    expect(second.json.suspended.map((s: { number: number }) => s.number)).toContain(invoice.number);
    await t.mailbox.waitFor(email, new RegExp(`Mboa API access suspended: invoice ${invoice.display_number} unpaid`));
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).suspensionReason).toBe('non_payment');
    // A change reaches the API within 1 s (README, "How fast a change reaches the API").
    await expect
      .poll(async () => (await apiGet(t.baseUrl, '/api/v1/ping', key)).body.code, { timeout: 1_000, interval: 50 })
      .toBe('account_suspended');
    const home = textOf((await client.get('/dashboard/')).text);
    expect(home).toContain('API access is suspended: an invoice is unpaid 15 days after its due date.');
    expect((await client.get('/dashboard/billing')).text).toContain(`data-invoice="${invoice.number}" data-status="overdue"`);
    // Still able to read and download what is owed.
    expect((await client.get(`/dashboard/billing/invoices/${invoice.number}`)).status).toBe(200);

    const payment = await recordPayment(t.db.prisma, {
      number: String(invoice.number),
      reference: 'VIR-2025-12-0042',
      method: 'bank_transfer',
    });
    expect(payment.restored).toBe(true);
    await expect.poll(async () => (await apiGet(t.baseUrl, '/api/v1/ping', key)).status, { timeout: 1_000, interval: 50 }).toBe(200);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).suspensionReason).toBeNull();
  });

  it('does not lift an operator’s suspension when an invoice is paid', async () => {
    const acc = await historyAccount('2025-12-01T00:00:00Z', 'starter');
    await closeMonth(t.db.prisma, '2025-12');
    const suspended = await admin(['accounts', 'suspend', '--email', acc.email]);
    expect(suspended.code).toBe(0);
    const invoice = await invoiceOf(acc.id, '2025-12');
    const payment = await recordPayment(t.db.prisma, { number: String(invoice.number), reference: 'VIR-9' });
    expect(payment.restored).toBe(false);
    expect(await t.db.prisma.account.findUniqueOrThrow({ where: { id: acc.id } })).toMatchObject({
      status: 'suspended',
      suspensionReason: 'operator',
    });
    await expect
      .poll(async () => (await apiGet(t.baseUrl, '/api/v1/ping', acc.key)).body.code, { timeout: 1_000, interval: 50 })
      .toBe('account_suspended');
  });
});
