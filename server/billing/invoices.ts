/**
 * Invoices: at each month's close, one per account that held a plan that month, from the
 * billing rule (server/accounts/billing.ts): a line per run of days on one plan, the total
 * before tax, VAT at 19.25 % and the total, due 15 days after issue.
 *
 * Numbers form one series without gaps, also when several closes run at once: each invoice
 * is written in a transaction that takes one advisory lock, reads the highest number and
 * adds one, so a number is taken only by a committed invoice. Closing a month again issues
 * nothing new (one invoice per account and month, enforced by a unique key too).
 */
import type { PlanName } from '../../contract/plans.js';
import { type MonthStatement, monthlyStatements, type PlanChangeEntry } from '../accounts/billing.js';
import { DAY_MS, isMonthKey, isoDay, lockAccount, monthBounds } from '../accounts/policy.js';
import { findAccountByEmail } from '../accounts/accounts.js';
import { AccountRuleError } from '../accounts/errors.js';
import type { Prisma } from '../platform/db.js';
import { randomId } from '../platform/ids.js';
import { displayNumber, parseInvoiceNumber } from './invoice-number.js';
import { addDays, dayOf, PAYMENT_TERMS_DAYS, SUSPEND_AFTER_DUE_DAYS, suspensionDay, WARNING_NOTICE_DAYS } from './terms.js';
import { VAT_RATE_BASIS_POINTS, vatOn } from './vat.js';

/** Serialises invoice numbering across every process and connection. */
const NUMBERING_LOCK = 0x4d424f41; // "MBOA"

export type PaymentMethod = 'bank_transfer' | 'mobile_money';
export type InvoiceStatus = 'paid' | 'unpaid' | 'overdue';

export interface InvoiceLineView {
  plan: PlanName;
  first_day: string;
  last_day: string;
  days: number;
  days_in_month: number;
  monthly_price_xaf: number;
  amount_xaf: number;
}

export interface InvoiceView {
  number: number;
  display_number: string;
  account_id: string;
  /** `YYYY-MM` */
  month: string;
  issued_at: string;
  due_on: string;
  customer_name: string;
  customer_email: string;
  language: 'fr' | 'en';
  subtotal_xaf: number;
  vat_rate_basis_points: number;
  vat_xaf: number;
  total_xaf: number;
  status: InvoiceStatus;
  paid_at: string | null;
  payment_reference: string | null;
  payment_method: PaymentMethod | null;
  warned_at: string | null;
  lines: InvoiceLineView[];
}

type InvoiceRow = Awaited<ReturnType<Prisma['invoice']['findUniqueOrThrow']>> & {
  lines: Array<Awaited<ReturnType<Prisma['invoiceLine']['findUniqueOrThrow']>>>;
};

export function invoiceStatus(row: Pick<InvoiceRow, 'paidAt' | 'dueOn'>, now: Date): InvoiceStatus {
  if (row.paidAt) return 'paid';
  return dayOf(now) > row.dueOn ? 'overdue' : 'unpaid';
}

export function invoiceView(row: InvoiceRow, now = new Date()): InvoiceView {
  return {
    number: row.number,
    display_number: displayNumber(row.number),
    account_id: row.accountId,
    month: isoDay(row.month).slice(0, 7),
    issued_at: row.issuedAt.toISOString(),
    due_on: isoDay(row.dueOn),
    customer_name: row.customerName,
    customer_email: row.customerEmail,
    language: row.language,
    subtotal_xaf: row.subtotalXaf,
    vat_rate_basis_points: row.vatRateBasisPoints,
    vat_xaf: row.vatXaf,
    total_xaf: row.totalXaf,
    status: invoiceStatus(row, now),
    paid_at: row.paidAt?.toISOString() ?? null,
    payment_reference: row.paymentReference,
    payment_method: row.paymentMethod,
    warned_at: row.warnedAt?.toISOString() ?? null,
    lines: [...row.lines]
      .sort((a, b) => a.position - b.position)
      .map((l) => ({
        plan: l.plan,
        first_day: isoDay(l.firstDay),
        last_day: isoDay(l.lastDay),
        days: l.days,
        days_in_month: l.daysInMonth,
        monthly_price_xaf: l.monthlyPriceXaf,
        amount_xaf: l.amountXaf,
      })),
  };
}

/** `YYYY-MM` → its first day and the first day of the next month (UTC). */
export function monthRange(month: string): { start: Date; end: Date } {
  if (!isMonthKey(month)) throw new AccountRuleError('invalid_input', `month must be written YYYY-MM, not ${month}`);
  return monthBounds(month);
}

/** What the billing rule charges an account for a month, seen once the month is over. */
function statementFor(history: PlanChangeEntry[], month: string, end: Date, closedAt: Date | null): MonthStatement | undefined {
  return monthlyStatements(history, end, closedAt).find((s) => s.month === month);
}

/**
 * Issues the month's invoices (the month must be over). Returns the ones issued now and
 * how many existed already: running it twice, or twice at once, issues each invoice once.
 */
export async function closeMonth(
  prisma: Prisma,
  month: string,
  now = new Date(),
): Promise<{ issued: InvoiceView[]; alreadyIssued: number }> {
  const { start, end } = monthRange(month);
  if (end > now)
    throw new AccountRuleError('invalid_input', `${month} is not over yet: it can be closed from ${end.toISOString().slice(0, 10)}`);
  const accounts = await prisma.account.findMany({
    where: {
      AND: [
        { OR: [{ createdAt: { lt: end } }, { planChanges: { some: { changedAt: { lt: end } } } }] },
        { OR: [{ closedAt: null }, { closedAt: { gte: start } }] },
      ],
    },
    include: { planChanges: { orderBy: [{ changedAt: 'asc' }, { id: 'asc' }], select: { plan: true, changedAt: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const issued: InvoiceView[] = [];
  let alreadyIssued = 0;
  for (const account of accounts) {
    const history = account.planChanges.length ? account.planChanges : [{ plan: account.plan, changedAt: account.createdAt }];
    const statement = statementFor(history, month, end, account.closedAt);
    if (!statement || statement.lines.length === 0) continue;
    const lines = statement.lines;
    const subtotal = lines.reduce((s, l) => s + l.amountXaf, 0);
    const vat = vatOn(subtotal);
    const row = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${NUMBERING_LOCK})`);
      const existing = await tx.invoice.findUnique({ where: { accountId_month: { accountId: account.id, month: start } } });
      if (existing) return null;
      const [{ next }] = await tx.$queryRaw<Array<{ next: number }>>`SELECT (coalesce(max(number), 0) + 1)::int AS next FROM invoices`;
      return tx.invoice.create({
        data: {
          id: randomId('inv'),
          number: next,
          accountId: account.id,
          month: start,
          issuedAt: now,
          dueOn: addDays(dayOf(now), PAYMENT_TERMS_DAYS),
          customerName: account.companyName ?? account.email,
          customerEmail: account.email,
          language: account.language,
          subtotalXaf: subtotal,
          vatRateBasisPoints: VAT_RATE_BASIS_POINTS,
          vatXaf: vat,
          totalXaf: subtotal + vat,
          lines: {
            create: lines.map((l, i) => ({
              position: i + 1,
              plan: l.plan,
              firstDay: new Date(`${l.from}T00:00:00Z`),
              lastDay: new Date(`${l.to}T00:00:00Z`),
              days: l.days,
              daysInMonth: statement.daysInMonth,
              monthlyPriceXaf: l.monthlyPriceXaf,
              amountXaf: l.amountXaf,
            })),
          },
        },
        include: { lines: true },
      });
    });
    if (row) issued.push(invoiceView(row, now));
    else alreadyIssued++;
  }
  return { issued, alreadyIssued };
}

export async function findInvoice(prisma: Prisma, number: number): Promise<InvoiceRow | null> {
  return prisma.invoice.findUnique({ where: { number }, include: { lines: true } });
}

/** An invoice by number as typed by an operator (`42`, `MBOA-000042`). */
export async function invoiceByNumber(prisma: Prisma, value: string): Promise<InvoiceRow> {
  const number = parseInvoiceNumber(value);
  if (number === null) throw new AccountRuleError('invalid_input', `not an invoice number: ${value} (e.g. MBOA-000042 or 42)`);
  const row = await findInvoice(prisma, number);
  if (!row) throw new AccountRuleError('invalid_input', `no invoice ${displayNumber(number)}`);
  return row;
}

export async function listInvoices(
  prisma: Prisma,
  filter: { month?: string; email?: string; accountId?: string; status?: InvoiceStatus } = {},
  now = new Date(),
): Promise<InvoiceView[]> {
  const accountId = filter.accountId ?? (filter.email ? (await findAccountByEmail(prisma, filter.email)).id : undefined);
  const today = dayOf(now);
  const rows = await prisma.invoice.findMany({
    where: {
      ...(accountId ? { accountId } : {}),
      ...(filter.month ? { month: monthRange(filter.month).start } : {}),
      ...(filter.status === 'paid' ? { paidAt: { not: null } } : {}),
      ...(filter.status === 'unpaid' ? { paidAt: null, dueOn: { gte: today } } : {}),
      ...(filter.status === 'overdue' ? { paidAt: null, dueOn: { lt: today } } : {}),
    },
    include: { lines: true },
    orderBy: { number: 'desc' },
  });
  return rows.map((r) => invoiceView(r, now));
}

export interface PaymentResult {
  invoice: InvoiceView;
  /** The account was suspended for non-payment and is active again. */
  restored: boolean;
  /** The same payment was recorded before: nothing changed. */
  alreadyRecorded: boolean;
}

/**
 * Records a payment (bank transfer or mobile money, with its reference). When the account
 * was suspended for non-payment and no other invoice keeps it so, access is restored at
 * once. A suspension an operator decided is not lifted by a payment.
 */
export async function recordPayment(
  prisma: Prisma,
  input: { number: string; reference: string; method?: PaymentMethod | null },
  now = new Date(),
): Promise<PaymentResult> {
  const reference = input.reference.trim();
  if (!reference || reference.length > 120)
    throw new AccountRuleError('invalid_input', 'the payment reference must be 1 to 120 characters');
  const row = await invoiceByNumber(prisma, input.number);
  return prisma.$transaction(async (tx) => {
    await lockAccount(tx, row.accountId);
    const current = await tx.invoice.findUniqueOrThrow({ where: { id: row.id }, include: { lines: true } });
    if (current.paidAt) {
      if (current.paymentReference === reference) return { invoice: invoiceView(current, now), restored: false, alreadyRecorded: true };
      throw new AccountRuleError(
        'invalid_input',
        `${displayNumber(current.number)} was already paid on ${current.paidAt.toISOString().slice(0, 10)} (reference ${current.paymentReference})`,
        { reason: 'already_paid' },
      );
    }
    const paid = await tx.invoice.update({
      where: { id: row.id },
      data: { paidAt: now, paymentReference: reference, paymentMethod: input.method ?? null },
      include: { lines: true },
    });
    const account = await tx.account.findUniqueOrThrow({ where: { id: row.accountId } });
    let restored = false;
    if (account.status === 'suspended' && account.suspensionReason === 'non_payment') {
      const stillDue = await tx.invoice.count({
        where: { accountId: account.id, paidAt: null, dueOn: { lte: addDays(dayOf(now), -SUSPEND_AFTER_DUE_DAYS) } },
      });
      if (stillDue === 0) {
        await tx.account.update({ where: { id: account.id }, data: { status: 'active', suspensionReason: null } });
        restored = true;
      }
    }
    return { invoice: invoiceView(paid, now), restored, alreadyRecorded: false };
  });
}

export interface EnforcementResult {
  /** Invoices whose overdue warning was sent now, with the suspension day it states. */
  warned: Array<{ invoice: InvoiceView; suspendOn: string }>;
  /** Invoices whose account was suspended now. */
  suspended: InvoiceView[];
}

/**
 * The daily run on unpaid invoices past due: first a warning naming the suspension day,
 * then, on that day, API access suspended for non-payment. Accounts an operator suspended
 * stay as they are. Running it twice a day does nothing more.
 */
export async function enforcePayments(prisma: Prisma, now = new Date()): Promise<EnforcementResult> {
  const today = dayOf(now);
  const overdue = await prisma.invoice.findMany({
    where: { paidAt: null, dueOn: { lt: today } },
    include: { lines: true, account: true },
    orderBy: { number: 'asc' },
  });
  const result: EnforcementResult = { warned: [], suspended: [] };
  for (const row of overdue) {
    if (row.account.closedAt) continue;
    if (!row.warnedAt) {
      const warned = await prisma.invoice.update({ where: { id: row.id }, data: { warnedAt: now }, include: { lines: true } });
      result.warned.push({ invoice: invoiceView(warned, now), suspendOn: isoDay(suspensionDay(row.dueOn, now)) });
      continue;
    }
    if (today < suspensionDay(row.dueOn, row.warnedAt) || now.getTime() - row.warnedAt.getTime() < WARNING_NOTICE_DAYS * DAY_MS) continue;
    const { count } = await prisma.account.updateMany({
      where: { id: row.accountId, status: 'active', closedAt: null },
      data: { status: 'suspended', suspensionReason: 'non_payment' },
    });
    if (count === 1) result.suspended.push(invoiceView(row, now));
  }
  return result;
}
