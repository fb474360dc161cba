/** The billing page: charges by month, invoices, how to pay. */
import type { Messages } from '../../platform/i18n.js';

export const billingMessages = {
  'billing.title': { en: 'Billing', fr: 'Facturation' },
  'billing.lead': {
    en: 'Monthly billing, no commitment. Amounts in FCFA excl. tax, computed from the plans you held each day.',
    fr: 'Facturation mensuelle, sans engagement. Montants en FCFA hors taxes, calculés d’après les offres détenues chaque jour.',
  },
  'billing.rule.title': { en: 'How a month is charged', fr: 'Comment un mois est facturé' },
  'billing.rule': {
    en: 'Prorated by day (UTC): each day is charged 1/(days in the month) of the monthly price of the most expensive plan held that day. So an upgrade is charged from the day it happens, a downgrade from the next day, and the day you sign up is charged in full. Each period is rounded to the nearest franc; a whole month on one plan costs exactly its price.',
    fr: 'Au prorata des jours (UTC) : chaque jour est facturé 1/(nombre de jours du mois) du prix mensuel de l’offre la plus chère détenue ce jour-là. Une montée en gamme est donc facturée dès le jour où elle a lieu, une descente à partir du lendemain, et le jour de l’inscription est facturé en entier. Chaque période est arrondie au franc le plus proche ; un mois entier sur une offre coûte exactement son prix.',
  },
  'billing.closed': { en: 'Closed', fr: 'Clôturé' },
  'billing.inProgress': { en: 'In progress, charged to {date}', fr: 'En cours, facturé jusqu’au {date}' },
  'billing.col.period': { en: 'Period', fr: 'Période' },
  'billing.col.plan': { en: 'Plan', fr: 'Offre' },
  'billing.col.days': { en: 'Days', fr: 'Jours' },
  'billing.col.calc': { en: 'Calculation', fr: 'Calcul' },
  'billing.col.amount': { en: 'Amount', fr: 'Montant' },
  'billing.total': { en: 'Total excl. tax', fr: 'Total HT' },
  'billing.projected': {
    en: 'Estimated for the whole month if you keep your plan: {amount}',
    fr: 'Estimation pour le mois entier si vous gardez votre offre : {amount}',
  },
  'billing.changes': { en: 'Plan changes this month', fr: 'Changements d’offre ce mois-ci' },
  'billing.opened': { en: '{date}: account opened on {plan}', fr: '{date} : ouverture du compte avec {plan}' },
  'billing.switched': { en: '{date}: switched to {plan}', fr: '{date} : passage à {plan}' },
  'billing.none': { en: 'No billable day yet.', fr: 'Aucun jour facturable pour l’instant.' },
  'billing.statements.title': { en: 'Charges by month', fr: 'Montants par mois' },
  'billing.vatNote': {
    en: 'Amounts before tax; invoices add VAT at 19.25%.',
    fr: 'Montants hors taxes ; les factures ajoutent la TVA de 19,25 %.',
  },
  'billing.invoices.title': { en: 'Invoices', fr: 'Factures' },
  'billing.invoices.none': {
    en: 'No invoice yet: each month is invoiced once it is over.',
    fr: 'Aucune facture pour l’instant : chaque mois est facturé une fois terminé.',
  },
  'billing.col.number': { en: 'Number', fr: 'Numéro' },
  'billing.col.month': { en: 'Month', fr: 'Mois' },
  'billing.col.due': { en: 'Due on', fr: 'Échéance' },
  'billing.col.totalTtc': { en: 'Total incl. VAT', fr: 'Total TTC' },
  'billing.col.status': { en: 'Status', fr: 'État' },
  'billing.download': { en: 'PDF', fr: 'PDF' },
  'billing.download.label': { en: 'Download invoice {number} (PDF)', fr: 'Télécharger la facture {number} (PDF)' },
  'billing.status.paid': { en: 'Paid on {date}', fr: 'Payée le {date}' },
  'billing.status.unpaid': { en: 'To pay', fr: 'À payer' },
  'billing.status.overdue': { en: 'Overdue', fr: 'En retard' },
  'billing.pay.title': { en: 'How to pay', fr: 'Comment payer' },
  'billing.pay.text': {
    en: 'By bank transfer or mobile money within 15 days of the invoice, quoting its number (such as MBOA-000042) as the reference; payment details from billing@mboa.cm. When an invoice is 15 days past due, API access is suspended after a warning by e-mail; it comes back as soon as the payment is recorded.',
    fr: 'Par virement bancaire ou mobile money sous 15 jours, en indiquant le numéro de la facture (par exemple MBOA-000042) en référence ; coordonnées de paiement auprès de billing@mboa.cm. Quand une facture a 15 jours de retard, l’accès à l’API est suspendu après un avertissement par e-mail ; il revient dès que le paiement est enregistré.',
  },
} satisfies Messages;
