/**
 * The billing e-mails: an invoice issued (its PDF attached), an invoice overdue (the
 * suspension day named), access suspended, a payment recorded. Each goes to the account's
 * address, in the invoice's language.
 */
import { dayDate, formatDay, formatMonth, formatNumber } from '../platform/format.js';
import type { Prisma } from '../platform/db.js';
import type { AccountMail, Recipient } from '../mail/account-mail.js';
import { accessSuspendedMail, invoiceIssuedMail, invoiceOverdueMail, paymentRecordedMail } from '../mail/templates.js';
import type { Lang } from '../platform/lang.js';
import { renderInvoicePdf } from './invoice-pdf.js';
import type { InvoiceView } from './invoices.js';

const money = (lang: Lang, n: number) => `${formatNumber(lang, n)}\u00a0FCFA`;

export class BillingNotices {
  constructor(
    private readonly prisma: Prisma,
    private readonly mail: AccountMail,
  ) {}

  /** The account's current address, in the invoice's language. */
  private async recipient(invoice: InvoiceView): Promise<Recipient | null> {
    const account = await this.prisma.account.findUnique({ where: { id: invoice.account_id } });
    if (!account) return null;
    return { id: account.id, email: account.email, companyName: account.companyName, language: invoice.language };
  }

  async issued(invoice: InvoiceView): Promise<boolean> {
    const to = await this.recipient(invoice);
    if (!to) return false;
    const lang = to.language;
    const pdf = await renderInvoicePdf(invoice, lang);
    const content = invoiceIssuedMail(lang, {
      number: invoice.display_number,
      month: formatMonth(lang, invoice.month),
      total: money(lang, invoice.total_xaf),
      due: formatDay(lang, dayDate(invoice.due_on)),
      url: this.mail.link('/billing'),
    });
    return this.mail.send(to, 'invoice_issued', content, [
      { filename: `${invoice.display_number}.pdf`, content: pdf, contentType: 'application/pdf' },
    ]);
  }

  async overdue(invoice: InvoiceView, suspendOn: string): Promise<boolean> {
    const to = await this.recipient(invoice);
    if (!to) return false;
    const lang = to.language;
    const content = invoiceOverdueMail(lang, {
      number: invoice.display_number,
      total: money(lang, invoice.total_xaf),
      due: formatDay(lang, dayDate(invoice.due_on)),
      suspendOn: formatDay(lang, dayDate(suspendOn)),
      url: this.mail.link('/billing'),
    });
    return this.mail.send(to, 'invoice_overdue', content);
  }

  async suspended(invoice: InvoiceView): Promise<boolean> {
    const to = await this.recipient(invoice);
    if (!to) return false;
    return this.mail.send(
      to,
      'access_suspended',
      accessSuspendedMail(to.language, { number: invoice.display_number, url: this.mail.link('/billing') }),
    );
  }

  async paid(invoice: InvoiceView, restored: boolean): Promise<boolean> {
    const to = await this.recipient(invoice);
    if (!to) return false;
    const lang = to.language;
    const content = paymentRecordedMail(lang, {
      number: invoice.display_number,
      total: money(lang, invoice.total_xaf),
      restored,
      url: this.mail.link('/billing'),
    });
    return this.mail.send(to, 'payment_recorded', content);
  }
}
