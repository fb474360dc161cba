/** The usage page: calls per day, per endpoint and per key. */
import { n, s, sf, type Messages } from '../../platform/i18n.js';

export const usageMessages = {
  'usage.deliveries.title': { en: 'Webhook deliveries', fr: 'Envois de webhooks' },
  'usage.deliveries.figure': {
    en: '{count} of {cap} deliveries in {month}',
    fr: '{count} envois sur {cap} en {month}',
  },
  'usage.deliveries.held': {
    en: '{count} deliveries held past the cap, unsent: each endpoint’s log lists them, and “Resend” sends one once the month has room (next month, or a larger plan).',
    fr: '{count} envois retenus au-delà du plafond, non envoyés : le journal de chaque point de réception les liste, et « Renvoyer » en envoie un dès que le mois a de la place (le mois suivant, ou une offre supérieure).',
  },
  'usage.deliveries.rule': {
    en: 'Capped per month by your plan, never counted in your API quota. An event counts once per endpoint, whatever its retries and resends; test events are not counted. Past the cap, deliveries are kept unsent.',
    fr: 'Plafonnés chaque mois par votre offre, jamais comptés dans votre quota d’API. Un événement compte une fois par point de réception, quels que soient ses nouvelles tentatives et renvois ; les événements de test ne comptent pas. Au-delà du plafond, les envois sont conservés sans être envoyés.',
  },
  'usage.title': { en: 'Usage', fr: 'Consommation' },
  'usage.prev': { en: '← Previous month', fr: '← Mois précédent' },
  'usage.next': { en: 'Next month →', fr: 'Mois suivant →' },
  'usage.total': {
    en: (p) => `${p.used} call${s(n(p, 'used'))} counted in ${p.month}`,
    fr: (p) => `${p.used} appel${sf(n(p, 'used'))} compté${sf(n(p, 'used'))} en ${p.month}`,
  },
  'usage.chart.title': { en: 'Calls per day (UTC)', fr: 'Appels par jour (UTC)' },
  'usage.chart.desc': {
    en: 'Bar chart of the calls counted each day of {month}; the largest day had {max} calls.',
    fr: 'Histogramme des appels comptés chaque jour de {month} ; le jour le plus chargé en compte {max}.',
  },
  'usage.chart.tap': {
    en: 'Tap or hover over a bar to see its figure.',
    fr: 'Touchez ou survolez une barre pour voir sa valeur.',
  },
  'usage.chart.bar': {
    en: (p) => `${p.day}: ${p.n} call${s(n(p))}`,
    fr: (p) => `${p.day} : ${p.n} appel${sf(n(p))}`,
  },
  'usage.table.show': { en: 'Show the figures as a table', fr: 'Afficher les chiffres en tableau' },
  'usage.col.day': { en: 'Day', fr: 'Jour' },
  'usage.col.calls': { en: 'Calls', fr: 'Appels' },
  'usage.col.share': { en: 'Share', fr: 'Part' },
  'usage.col.endpoint': { en: 'Endpoint', fr: 'Endpoint' },
  'usage.col.key': { en: 'Key', fr: 'Clé' },
  'usage.byEndpoint': { en: 'By endpoint', fr: 'Par endpoint' },
  'usage.byKey': { en: 'By key', fr: 'Par clé' },
  'usage.empty': { en: 'No counted calls in this month.', fr: 'Aucun appel compté ce mois-là.' },
  'usage.revoked': { en: '(revoked)', fr: '(révoquée)' },
  'usage.note': {
    en: 'Counted calls are successful calls (2xx), except ping: exactly what the API counts against your quota.',
    fr: 'Les appels comptés sont les appels réussis (2xx), sauf ping : exactement ce que l’API décompte de votre quota.',
  },
  'usage.availability.title': { en: 'Availability (promised: 99.9 %)', fr: 'Disponibilité (promise : 99,9 %)' },
  'usage.availability.none': { en: 'No calls yet', fr: 'Aucun appel encore' },
  'usage.availability.met': {
    en: 'Share of your calls that Mboa did not fail: {answered} answered, {failed} with a server error. Within the 99.9 % promise.',
    fr: 'Part de vos appels que Mboa n’a pas manqués : {answered} servis, {failed} en erreur du serveur. Dans la promesse de 99,9 %.',
  },
  'usage.availability.below': {
    en: 'Share of your calls that Mboa did not fail: {answered} answered, {failed} with a server error. Below the 99.9 % promise: your contract’s service credits apply.',
    fr: 'Part de vos appels que Mboa n’a pas manqués : {answered} servis, {failed} en erreur du serveur. En dessous de la promesse de 99,9 % : les avoirs prévus par votre contrat s’appliquent.',
  },
  'usage.availability.rule': {
    en: 'Counted as server errors: the answers where Mboa failed (5xx: database unreachable, internal error, a read stopped at its time limit). Not counted: your own refusals (4xx, among them 429 for your per-minute limit, your quota and the caps on heavy reads), 503 valuations_warming_up (an instance fitting its model says when to retry), and a heavy read (a wide area, removed listings too, an area history) stopped at its time limit.',
    fr: 'Comptées comme erreurs du serveur : les réponses où Mboa a failli (5xx : base de données injoignable, erreur interne, lecture arrêtée à sa limite de temps). Non comptées : vos propres refus (4xx, dont les 429 de votre limite par minute, de votre quota et des plafonds des lectures lourdes), les 503 valuations_warming_up (une instance qui ajuste son modèle indique quand réessayer) et une lecture lourde (une vaste zone, les annonces retirées aussi, l’historique d’une zone) arrêtée à sa limite de temps.',
  },
  'error.month': {
    en: 'Choose a month between {from} and {to}, written YYYY-MM.',
    fr: 'Choisissez un mois entre {from} et {to}, au format AAAA-MM.',
  },
} satisfies Messages;
