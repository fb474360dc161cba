/**
 * Invoices for the finance desk: close a month (idempotent), list, record a payment, run
 * the daily payment enforcement, and write an invoice's PDF.
 */
import { writeFileSync } from 'node:fs';
import { isMonthKey } from '../../accounts/policy.js';
import { renderInvoicePdf } from '../../billing/invoice-pdf.js';
import {
  closeMonth,
  enforcePayments,
  invoiceByNumber,
  invoiceView,
  type InvoiceView,
  listInvoices,
  recordPayment,
} from '../../billing/invoices.js';
import { BillingNotices } from '../../billing/notices.js';
import { parseOptions, required } from '../args.js';
import { type Command, UsageError } from '../io.js';
import { operatorMail } from '../mail.js';

const STATUSES = ['paid', 'unpaid', 'overdue'] as const;
const METHODS = { bank: 'bank_transfer', 'mobile-money': 'mobile_money' } as const;

function monthOption(value: string | undefined, requiredFlag: boolean): string | undefined {
  if (value === undefined) {
    if (requiredFlag) throw new UsageError('--month YYYY-MM is required');
    return undefined;
  }
  if (!isMonthKey(value)) throw new UsageError('--month must be written YYYY-MM');
  return value;
}

const xaf = (n: number) => `${n.toLocaleString('en-US')} XAF`;
const line = (i: InvoiceView) =>
  `${i.display_number}  ${i.month}  ${i.customer_email.padEnd(32)}  ${xaf(i.total_xaf).padStart(14)} incl. VAT  due ${i.due_on}  ${i.status}${i.paid_at ? ` ${i.paid_at.slice(0, 10)} ref ${i.payment_reference}` : ''}`;

const close: Command = {
  name: 'invoices close',
  usage: "invoices close --month YYYY-MM   (issues the month's invoices and mails them; running it again issues nothing new)",
  async run(args, ctx) {
    const { values } = parseOptions(args, { month: { type: 'string' } });
    const month = monthOption(values.month, true)!;
    const { prisma } = await ctx.db();
    const result = await closeMonth(prisma, month);
    const { mail, close: closeMail } = operatorMail();
    const notices = new BillingNotices(prisma, mail);
    for (const invoice of result.issued) await notices.issued(invoice);
    closeMail();
    const total = result.issued.reduce((s, i) => s + i.total_xaf, 0);
    ctx.print(
      { month, issued: result.issued, already_issued: result.alreadyIssued },
      [
        `${month}: ${result.issued.length} invoice${result.issued.length === 1 ? '' : 's'} issued (${xaf(total)} incl. VAT), ${result.alreadyIssued} already issued`,
        ...result.issued.map(line),
      ].join('\n'),
    );
  },
};

const list: Command = {
  name: 'invoices list',
  usage: 'invoices list [--month YYYY-MM] [--email E] [--status paid|unpaid|overdue]',
  async run(args, ctx) {
    const { values } = parseOptions(args, { month: { type: 'string' }, email: { type: 'string' }, status: { type: 'string' } });
    const month = monthOption(values.month, false);
    if (values.status !== undefined && !(STATUSES as readonly string[]).includes(values.status)) {
      throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
    }
    const { prisma } = await ctx.db();
    const invoices = await listInvoices(prisma, {
      month,
      email: values.email,
      status: values.status as (typeof STATUSES)[number] | undefined,
    });
    ctx.print({ invoices }, invoices.length ? invoices.map(line).join('\n') : 'no invoices');
  },
};

const pay: Command = {
  name: 'invoices pay',
  usage: 'invoices pay --number N --reference REF [--method bank|mobile-money]   (records a payment; lifts a suspension for non-payment)',
  async run(args, ctx) {
    const { values } = parseOptions(args, { number: { type: 'string' }, reference: { type: 'string' }, method: { type: 'string' } });
    const number = required(values.number, 'number');
    const reference = required(values.reference, 'reference');
    if (values.method !== undefined && !(values.method in METHODS)) throw new UsageError('--method must be bank or mobile-money');
    const method = values.method ? METHODS[values.method as keyof typeof METHODS] : null;
    const { prisma } = await ctx.db();
    const result = await recordPayment(prisma, { number, reference, method });
    if (!result.alreadyRecorded) {
      const { mail, close: closeMail } = operatorMail();
      await new BillingNotices(prisma, mail).paid(result.invoice, result.restored);
      closeMail();
    }
    ctx.print(
      { invoice: result.invoice, restored: result.restored, already_recorded: result.alreadyRecorded },
      result.alreadyRecorded
        ? `${result.invoice.display_number} was already recorded as paid with reference ${reference}: nothing changed`
        : `${result.invoice.display_number} paid (reference ${reference})${result.restored ? '; API access restored' : ''}`,
    );
  },
};

const enforce: Command = {
  name: 'invoices enforce',
  usage: 'invoices enforce   (run daily: warns of overdue invoices, suspends access 15 days past due)',
  async run(args, ctx) {
    parseOptions(args, {});
    const { prisma } = await ctx.db();
    const result = await enforcePayments(prisma);
    const { mail, close: closeMail } = operatorMail();
    const notices = new BillingNotices(prisma, mail);
    for (const w of result.warned) await notices.overdue(w.invoice, w.suspendOn);
    for (const s of result.suspended) await notices.suspended(s);
    closeMail();
    ctx.print(
      { warned: result.warned, suspended: result.suspended },
      [
        `${result.warned.length} warning${result.warned.length === 1 ? '' : 's'} sent, ${result.suspended.length} account${result.suspended.length === 1 ? '' : 's'} suspended for non-payment`,
        ...result.warned.map((w) => `warned     ${line(w.invoice)}  (suspension on ${w.suspendOn})`),
        ...result.suspended.map((s) => `suspended  ${line(s)}`),
      ].join('\n'),
    );
  },
};

const pdf: Command = {
  name: 'invoices pdf',
  usage: 'invoices pdf --number N --out FILE.pdf [--lang fr|en]',
  async run(args, ctx) {
    const { values } = parseOptions(args, { number: { type: 'string' }, out: { type: 'string' }, lang: { type: 'string' } });
    const number = required(values.number, 'number');
    const out = required(values.out, 'out');
    if (values.lang !== undefined && values.lang !== 'fr' && values.lang !== 'en') throw new UsageError('--lang must be fr or en');
    const { prisma } = await ctx.db();
    const invoice = invoiceView(await invoiceByNumber(prisma, number));
    const bytes = await renderInvoicePdf(invoice, (values.lang as 'fr' | 'en' | undefined) ?? invoice.language);
    writeFileSync(out, bytes);
    ctx.print({ invoice: invoice.display_number, file: out, bytes: bytes.length }, `${invoice.display_number} written to ${out}`);
  },
};

export const commands: Command[] = [close, list, pay, enforce, pdf];
