/** The dashboard's home page: this month's calls, the plan, keys, the upgrade offer, a suspension. */
import { n, s, sf, type Messages } from '../../platform/i18n.js';

export const homeMessages = {
  'home.title': { en: 'Dashboard', fr: 'Tableau de bord' },
  'home.usage.title': { en: 'Calls this month', fr: 'Appels ce mois-ci' },
  'home.usage.of': { en: '{used} of {limit} calls used', fr: '{used} appels utilisés sur {limit}' },
  'home.usage.unlimited': {
    en: (p) => `${p.used} call${s(n(p, 'used'))} counted, unlimited plan`,
    fr: (p) => `${p.used} appel${sf(n(p, 'used'))} compté${sf(n(p, 'used'))}, offre illimitée`,
  },
  'home.usage.remaining': { en: 'Remaining', fr: 'Restants' },
  'home.usage.resets': { en: 'Resets', fr: 'Remise à zéro' },
  'home.usage.resetsAt': {
    en: '{date}, 00:00 UTC (01:00 in Douala)',
    fr: '{date}, 00\u00a0h\u00a000 UTC (01\u00a0h\u00a000 à Douala)',
  },
  'home.usage.counted': {
    en: 'Only successful calls (2xx) are counted; ping is free.',
    fr: 'Seuls les appels réussis (2xx) sont comptés ; ping est gratuit.',
  },
  'home.usage.meter': { en: '{pct}% of the monthly quota used', fr: '{pct} % du quota mensuel utilisé' },
  'home.rate': { en: 'Rate limit', fr: 'Limite de débit' },
  'home.plan.title': { en: 'Your plan', fr: 'Votre offre' },
  'home.plan.price': { en: '{price} per month', fr: '{price} par mois' },
  'home.plan.change': { en: 'Change plan', fr: 'Changer d’offre' },
  'home.keys.title': { en: 'API keys', fr: 'Clés d’API' },
  'home.keys.count': {
    en: (p) => `${p.active} active key${s(n(p, 'active'))}, ${p.max} allowed`,
    fr: (p) => `${p.active} clé${sf(n(p, 'active'))} active${sf(n(p, 'active'))}, ${p.max} autorisée${sf(n(p, 'max'))}`,
  },
  'home.keys.countUnlimited': {
    en: (p) => `${p.active} active key${s(n(p, 'active'))}, no limit`,
    fr: (p) => `${p.active} clé${sf(n(p, 'active'))} active${sf(n(p, 'active'))}, sans limite`,
  },
  'home.keys.manage': { en: 'Manage keys', fr: 'Gérer les clés' },
  'home.analytics.link': {
    en: 'Calls per day, per endpoint and per key',
    fr: 'Appels par jour, par endpoint et par clé',
  },
  'upgrade.title': { en: 'Usage analytics come with Pro', fr: 'L’analyse de consommation est incluse dans Pro' },
  'upgrade.text': {
    en: 'See your calls per day, per endpoint and per key. Pro also adds market/trends, {quota} calls a month and {rate} calls per minute, for {price} per month.',
    fr: 'Suivez vos appels par jour, par endpoint et par clé. Pro ajoute aussi market/trends, {quota} appels par mois et {rate} appels par minute, pour {price} par mois.',
  },
  'upgrade.button': { en: 'See the plans', fr: 'Voir les offres' },
  suspended: {
    en: 'This account is suspended: the API refuses its calls, and plan changes and new keys wait until access is restored. You can still read your pages and pay your invoices. Contact support@mboa.cm to restore access.',
    fr: 'Ce compte est suspendu : l’API refuse ses appels, et changements d’offre et nouvelles clés attendent le rétablissement de l’accès. Vous pouvez toujours consulter vos pages et régler vos factures. Contactez support@mboa.cm pour rétablir l’accès.',
  },
  'suspended.title': { en: 'Account suspended', fr: 'Compte suspendu' },
  'suspended.nonPayment': {
    en: 'API access is suspended: an invoice is unpaid 15 days after its due date. Pay it (see Billing): access comes back as soon as the payment is recorded. Plan changes and new keys wait until then; you can still read your pages.',
    fr: 'L’accès à l’API est suspendu : une facture reste impayée 15 jours après son échéance. Réglez-la (voir Facturation) : l’accès revient dès que le paiement est enregistré. Changements d’offre et nouvelles clés attendent jusque-là ; vous pouvez toujours consulter vos pages.',
  },
} satisfies Messages;
