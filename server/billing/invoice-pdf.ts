/**
 * An invoice as a one-page A4 PDF (pdfkit, its built-in Helvetica: no font files), in
 * French or English: seller and customer, dates, a line per run of days on one plan with
 * its calculation, the total before tax, VAT at 19.25 %, the total, and how to pay.
 */
import PDFDocument from 'pdfkit';
import { PLANS } from '../../contract/plans.js';
import { dayDate, formatDay, formatMonth, formatNumber, formatShortDay } from '../platform/format.js';
import { catalogue } from '../platform/i18n.js';
import type { Lang } from '../platform/lang.js';
import type { InvoiceView } from './invoices.js';
import { SELLER } from './seller.js';
import { ratePercent } from './vat.js';

const LABELS = catalogue({
  title: { en: 'Invoice', fr: 'Facture' },
  number: { en: 'Invoice No.', fr: 'Facture n°' },
  issued: { en: 'Issued on', fr: 'Émise le' },
  due: { en: 'Due on', fr: 'À régler au plus tard le' },
  period: { en: 'Period:', fr: 'Période :' },
  billTo: { en: 'Bill to', fr: 'Facturé à' },
  account: { en: 'Account', fr: 'Compte' },
  colPeriod: { en: 'Period', fr: 'Période' },
  colPlan: { en: 'Plan', fr: 'Offre' },
  colCalc: { en: 'Calculation', fr: 'Calcul' },
  colAmount: { en: 'Amount excl. tax', fr: 'Montant HT' },
  subtotal: { en: 'Total excl. tax', fr: 'Total HT' },
  total: { en: 'Total incl. tax', fr: 'Total TTC' },
  rule: {
    en: 'Each day is charged 1/(days in the month) of the monthly price of the most expensive plan held that day; each period is rounded to the franc.',
    fr: 'Chaque jour est facturé 1/(nombre de jours du mois) du prix mensuel de l’offre la plus chère détenue ce jour-là ; chaque période est arrondie au franc.',
  },
  pay: {
    en: 'Payment by bank transfer or mobile money within 15 days, quoting the invoice number as the reference. Payment details: billing@mboa.cm.',
    fr: 'Paiement par virement bancaire ou mobile money sous 15 jours, en indiquant le numéro de facture en référence. Coordonnées de paiement : billing@mboa.cm.',
  },
  paid: { en: 'Paid on {date}, reference {ref}.', fr: 'Payée le {date}, référence {ref}.' },
  currency: { en: 'Amounts in CFA francs (XAF).', fr: 'Montants en francs CFA (XAF).' },
});

/** Helvetica's encoding has no narrow no-break space: plain spaces in the PDF. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');
const money = (lang: Lang, n: number) => plain(`${formatNumber(lang, n)} FCFA`);

export function vatLabel(lang: Lang, basisPoints: number): string {
  const rate = plain(
    new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { minimumFractionDigits: 2 }).format(ratePercent(basisPoints)),
  );
  return lang === 'fr' ? `TVA ${rate} %` : `VAT ${rate}%`;
}

export function renderInvoicePdf(invoice: InvoiceView, lang: Lang): Promise<Buffer> {
  const L = (key: Parameters<typeof LABELS.t>[1]) => LABELS.t(lang, key);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `${L('number')} ${invoice.display_number}`, Author: SELLER.name, Subject: invoice.month },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = 50;
  const width = 495;
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#005c47').text(SELLER.name, left, 50);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#1c2421')
    .text([...SELLER.address, SELLER.email].join('\n'), left, 76);
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(`${L('title')} ${invoice.display_number}`, left, 50, { width, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(
      [
        `${L('issued')} ${plain(formatDay(lang, new Date(invoice.issued_at)))}`,
        `${L('due')} ${plain(formatDay(lang, dayDate(invoice.due_on)))}`,
        `${L('period')} ${plain(formatMonth(lang, invoice.month))}`,
      ].join('\n'),
      left,
      74,
      { width, align: 'right' },
    );

  doc.font('Helvetica-Bold').fontSize(10).text(L('billTo'), left, 140);
  doc
    .font('Helvetica')
    .fontSize(10)
    .text([invoice.customer_name, invoice.customer_email, `${L('account')} ${invoice.account_id}`].join('\n'), left, 154);

  // Lines: period, plan, calculation, amount.
  const cols = [left, left + 150, left + 250, left + 395];
  let y = 220;
  doc.font('Helvetica-Bold').fontSize(9);
  doc
    .text(L('colPeriod'), cols[0], y)
    .text(L('colPlan'), cols[1], y)
    .text(L('colCalc'), cols[2], y)
    .text(L('colAmount'), cols[3], y, { width: 100, align: 'right' });
  y += 16;
  doc
    .moveTo(left, y - 4)
    .lineTo(left + width, y - 4)
    .strokeColor('#dfe5e2')
    .stroke();
  doc.font('Helvetica').fontSize(9);
  // A month with many plan changes runs onto another page rather than off this one.
  const room = (needed: number) => {
    if (y + needed > doc.page.height - 60) {
      doc.addPage();
      y = 50;
    }
  };
  for (const line of invoice.lines) {
    room(16);
    const from = plain(formatShortDay(lang, dayDate(line.first_day)));
    const to = plain(formatShortDay(lang, dayDate(line.last_day)));
    const period = line.first_day === line.last_day ? from : `${from} – ${to}`;
    const calc = plain(`${formatNumber(lang, line.monthly_price_xaf)} × ${line.days} / ${line.days_in_month}`);
    doc
      .text(period, cols[0], y)
      .text(PLANS[line.plan].label, cols[1], y)
      .text(calc, cols[2], y)
      .text(money(lang, line.amount_xaf), cols[3], y, { width: 100, align: 'right' });
    y += 16;
  }
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .strokeColor('#dfe5e2')
    .stroke();
  y += 10;
  room(120);
  const total = (label: string, amount: number, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10);
    doc.text(label, cols[2], y).text(money(lang, amount), cols[3], y, { width: 100, align: 'right' });
    y += bold ? 20 : 16;
  };
  total(L('subtotal'), invoice.subtotal_xaf);
  total(vatLabel(lang, invoice.vat_rate_basis_points), invoice.vat_xaf);
  total(L('total'), invoice.total_xaf, true);

  y += 20;
  doc.font('Helvetica').fontSize(8.5).fillColor('#5b6762');
  doc.text(L('currency'), left, y, { width });
  doc.text(L('rule'), left, doc.y + 4, { width });
  doc
    .fillColor('#1c2421')
    .fontSize(9.5)
    .text(L('pay'), left, doc.y + 10, { width });
  if (invoice.paid_at) {
    const paid = LABELS.t(lang, 'paid', { date: plain(formatDay(lang, new Date(invoice.paid_at))), ref: invoice.payment_reference ?? '' });
    doc
      .font('Helvetica-Bold')
      .fillColor('#005c47')
      .text(paid, left, doc.y + 10, { width });
  }
  doc.end();
  return done;
}
