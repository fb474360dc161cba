/** The plans page: the plans side by side, and changing plan. */
import { n, s, sf, type Messages } from '../../platform/i18n.js';

export const plansMessages = {
  'error.plan': { en: 'Choose Starter or Pro.', fr: 'Choisissez Starter ou Pro.' },
  'error.plan.contract': {
    en: 'Enterprise is sold by annual contract, so it cannot be chosen here: contact sales and we will answer within one business day.',
    fr: 'Enterprise est vendue par contrat annuel et ne peut donc pas être choisie ici : contactez le service commercial, nous répondons sous un jour ouvré.',
  },
  'error.plan.inForce': {
    en: 'Your Enterprise contract is still running: plan changes before its end go through your account manager (sales@mboa.cm).',
    fr: 'Votre contrat Enterprise est en cours : avant son terme, les changements d’offre passent par votre interlocuteur commercial (sales@mboa.cm).',
  },

  'plans.title': { en: 'Plans', fr: 'Offres' },
  'plans.lead': {
    en: 'Prices excl. tax, in FCFA per month. Starter and Pro: monthly billing, no commitment; switch between them at any time, with immediate effect; the calls already used this month are kept. Enterprise is sold by annual contract: contact sales.',
    fr: 'Prix hors taxes, en FCFA par mois. Starter et Pro : facturation mensuelle, sans engagement ; passez de l’une à l’autre à tout moment, avec effet immédiat ; les appels déjà utilisés ce mois-ci sont conservés. Enterprise est vendue par contrat annuel : contactez le service commercial.',
  },
  'plans.contactSales': { en: 'Contact sales', fr: 'Contacter le service commercial' },
  'plans.contract.until': {
    en: 'Your Enterprise contract runs until {date} included: plan changes before then go through your account manager (sales@mboa.cm).',
    fr: 'Votre contrat Enterprise court jusqu’au {date} inclus : d’ici là, les changements d’offre passent par votre interlocuteur commercial (sales@mboa.cm).',
  },
  'plans.contract.open': {
    en: 'Your Enterprise contract has no end date yet: plan changes go through your account manager (sales@mboa.cm).',
    fr: 'Votre contrat Enterprise n’a pas encore de date de fin : les changements d’offre passent par votre interlocuteur commercial (sales@mboa.cm).',
  },
  'plans.contract.ended': {
    en: 'Your Enterprise contract ended on {date}: switch to Starter or Pro yourself, or contact sales to renew it.',
    fr: 'Votre contrat Enterprise a pris fin le {date} : passez vous-même à Starter ou Pro, ou contactez le service commercial pour le renouveler.',
  },
  'plans.row.price': { en: 'Price per month', fr: 'Prix par mois' },
  'plans.row.quota': { en: 'Monthly quota (calls)', fr: 'Quota mensuel (appels)' },
  'plans.row.rate': { en: 'Rate limit', fr: 'Limite de débit' },
  'plans.row.keys': { en: 'API keys', fr: 'Clés d’API' },
  'plans.row.endpoints': { en: 'Endpoints', fr: 'Endpoints' },
  'plans.row.support': { en: 'Support', fr: 'Support' },
  'plans.support.email': { en: 'e-mail', fr: 'e-mail' },
  'plans.support.priority': { en: 'priority, response under 24 h', fr: 'prioritaire, réponse sous 24 h' },
  'plans.support.dedicated': {
    en: 'dedicated, response under 4 h; 99.9% SLA with on-call',
    fr: 'dédié, réponse sous 4 h ; SLA de 99,9 % avec astreinte',
  },
  'plans.row.analytics': { en: 'Usage analytics', fr: 'Analyse de consommation' },
  'plans.row.push': { en: 'Saved searches and webhooks', fr: 'Recherches enregistrées et webhooks' },
  'plans.push': {
    en: 'up to {searches} saved searches, {endpoints} webhook endpoints',
    fr: 'jusqu’à {searches} recherches enregistrées, {endpoints} endpoints de webhooks',
  },
  'plans.perMinute': { en: '{n} per minute', fr: '{n} par minute' },
  'plans.included': { en: 'Included', fr: 'Incluse' },
  'plans.notIncluded': { en: 'Not included', fr: 'Non incluse' },
  'plans.allEndpoints': {
    en: 'all of /api/v1/*, custom endpoints on request',
    fr: 'tout /api/v1/*, endpoints sur mesure à la demande',
  },
  'plans.annualContract': { en: 'annual contract', fr: 'contrat annuel' },
  'plans.current': { en: 'Your current plan', fr: 'Votre offre actuelle' },
  'plans.switch': { en: 'Switch to {plan}', fr: 'Passer à {plan}' },
  'plans.switch.confirm': {
    en: 'Switch to {plan} now? Its quota, rate limit and price apply from today.',
    fr: 'Passer à {plan} maintenant ? Son quota, sa limite de débit et son prix s’appliquent dès aujourd’hui.',
  },
  'plans.start': { en: 'Start with {plan}', fr: 'Commencer avec {plan}' },
  'plans.billing': { en: 'How plan changes are billed', fr: 'Comment les changements d’offre sont facturés' },
  'notice.planChanged': {
    en: 'You are now on the {plan} plan. Quota and rate limit changed at once; the {used} calls used this month are kept.',
    fr: 'Vous êtes maintenant sur l’offre {plan}. Quota et limite de débit ont changé immédiatement ; les {used} appels utilisés ce mois-ci sont conservés.',
  },
  'notice.planSame': { en: 'You are already on the {plan} plan.', fr: 'Vous êtes déjà sur l’offre {plan}.' },
  'error.plan.tooManyKeys': {
    en: (p) =>
      `The ${p.plan} plan allows ${p.max} active key${s(n(p, 'max'))} and you have ${p.active}. Revoke ${p.excess} of these key${s(n(p, 'excess'))} first, then switch:`,
    fr: (p) =>
      `L’offre ${p.plan} autorise ${p.max} clé${sf(n(p, 'max'))} active${sf(n(p, 'max'))} et vous en avez ${p.active}. Révoquez d’abord ${p.excess} de ces clés, puis changez d’offre :`,
  },
} satisfies Messages;
