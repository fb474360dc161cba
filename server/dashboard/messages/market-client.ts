/**
 * The market explorer's script's messages: handed to the page's script in its config, in
 * the page's language. Plain text with `{name}` parameters only (no functions: they travel
 * as JSON), so counts are written as "listings: {n}" rather than with plural endings.
 */
import type { Messages } from '../../platform/i18n.js';

export const marketClientMessages = {
  'explorer.status.loading': { en: 'Loading…', fr: 'Chargement…' },
  'explorer.status.coloured': {
    en: 'Quarters with enough data: {n} of {total}, coloured.',
    fr: 'Quartiers avec assez de données : {n} sur {total}, colorés.',
  },
  'explorer.sample.marked': {
    en: 'Sample data: the fixed public sample that test keys read, not the market.',
    fr: 'Données d’exemple : l’échantillon public fixe que lisent les clés de test, pas le marché.',
  },
  'explorer.map.title': { en: 'Quarters of {city}', fr: 'Quartiers de {city}' },
  'explorer.map.label': {
    en: 'Map of the quarters of {city}: choose one to see its figures',
    fr: 'Carte des quartiers de {city} : choisissez-en un pour voir ses chiffres',
  },
  'explorer.legend.upTo': { en: 'up to {value}', fr: 'jusqu’à {value}' },
  'explorer.legend.above': { en: 'above {value}', fr: 'plus de {value}' },
  'explorer.legend.below': { en: 'below {value}', fr: 'moins de {value}' },
  'explorer.legend.perM2': { en: ' per m²', fr: ' le m²' },
  'explorer.legend.thin': {
    en: 'Not enough data (fewer than {min} listings)',
    fr: 'Données insuffisantes (moins de {min} annonces)',
  },
  'explorer.figure.thin': {
    en: 'not enough data (listings: {n}; {min} needed)',
    fr: 'données insuffisantes (annonces : {n} ; il en faut {min})',
  },
  'explorer.figure.failed': {
    en: 'not loaded (the line under the map says why)',
    fr: 'non chargé (la ligne sous la carte dit pourquoi)',
  },
  'explorer.neighborhood.none': { en: 'Choose a quarter', fr: 'Choisissez un quartier' },
  'explorer.neighborhood.title': { en: '{neighborhood}, {city}', fr: '{neighborhood}, {city}' },
  'explorer.neighborhood.thin': {
    en: 'Not enough data for statistics here: listings {n}, {min} needed.',
    fr: 'Données insuffisantes pour des statistiques ici : annonces {n}, il en faut {min}.',
  },
  'explorer.neighborhood.points': {
    en: 'On the map: listings with a point of their own {shown}, of {returned} read ({total} in the quarter). The others sit at the quarter’s centroid and are not drawn.',
    fr: 'Sur la carte : annonces avec un point propre {shown}, sur {returned} lues ({total} dans le quartier). Les autres sont au centre du quartier et ne sont pas dessinées.',
  },
  'explorer.stats.median': { en: 'Median price', fr: 'Prix médian' },
  'explorer.stats.quartiles': { en: '1st to 3rd quartile', fr: '1er au 3e quartile' },
  'explorer.stats.sample': { en: 'Sample (listings on the market)', fr: 'Échantillon (annonces en ligne)' },
  'explorer.stats.perM2': { en: 'Median price per m²', fr: 'Prix médian au m²' },
  'explorer.stats.perM2.value': { en: '{value} (listings with a surface: {n})', fr: '{value} (annonces avec surface : {n})' },
  'explorer.stats.perM2.thin': {
    en: 'too few surfaces (listings with one: {n}; {min} needed)',
    fr: 'trop peu de surfaces (annonces qui en ont une : {n} ; il en faut {min})',
  },
  'explorer.stats.asOf': { en: 'Computed (UTC)', fr: 'Calculé le (UTC)' },
  'explorer.history.title': { en: 'History of {neighborhood} over 36 months', fr: 'Historique de {neighborhood} sur 36 mois' },
  'explorer.history.notInPlan': { en: 'History is not in your plan.', fr: 'L’historique n’est pas inclus dans votre offre.' },
  'explorer.history.summary': {
    en: '{months} months. A month with fewer than {min} listings has no figure (in this series: {absent}): a gap in the line, shaded.',
    fr: '{months} mois. Un mois de moins de {min} annonces n’a pas de chiffre (dans cette série : {absent}) : un trou dans la courbe, grisé.',
  },
  'explorer.history.copy': { en: 'Copy the table', fr: 'Copier le tableau' },
  'explorer.copied': { en: 'Copied', fr: 'Copié' },
  'explorer.copy.selected': { en: 'Selected: press Ctrl+C', fr: 'Sélectionné : appuyez sur Ctrl+C' },
  'explorer.table.absent': { en: 'fewer than {min} listings: no figure', fr: 'moins de {min} annonces : pas de chiffre' },
  'explorer.chart.month': { en: 'Month', fr: 'Mois' },
  'explorer.chart.median': { en: 'Median price', fr: 'Prix médian' },
  'explorer.chart.p25': { en: '1st quartile', fr: '1er quartile' },
  'explorer.chart.p75': { en: '3rd quartile', fr: '3e quartile' },
  'explorer.chart.volume': { en: 'Listings on the market', fr: 'Annonces en ligne' },
  'explorer.chart.absent': { en: 'no figure (too few listings)', fr: 'pas de chiffre (trop peu d’annonces)' },
  'explorer.percentSign': { en: '%', fr: '\u00a0%' },
  'explorer.valuation.anyNeighborhood': { en: 'Any quarter of the city', fr: 'Tout quartier de la ville' },
  'explorer.valuation.range': {
    en: 'Between {low} and {high} with {level}% probability; confidence: {confidence}.',
    fr: 'Entre {low} et {high} avec une probabilité de {level} % ; confiance : {confidence}.',
  },
  'explorer.valuation.bar': {
    en: 'Estimate {price}, range {low} to {high}; the thin marks are the comparables’ adjusted prices',
    fr: 'Estimation {price}, fourchette de {low} à {high} ; les traits fins sont les prix ajustés des comparables',
  },
  'explorer.valuation.basis': {
    en: 'Comparables used: {n}. Asking prices of adverts, not transaction prices.',
    fr: 'Comparables utilisés : {n}. Prix demandés dans les annonces, pas prix de transaction.',
  },
  'explorer.valuation.onMap': {
    en: 'On the map: comparables with a point {shown} of {n}.',
    fr: 'Sur la carte : comparables avec un point {shown} sur {n}.',
  },
  'explorer.valuation.previewMarked': {
    en: 'Preview on the sample data: valuing the market itself is in Enterprise.',
    fr: 'Aperçu sur les données d’exemple : l’estimation sur le marché lui-même est incluse dans Enterprise.',
  },
  'explorer.confidence.high': { en: 'high', fr: 'élevée' },
  'explorer.confidence.medium': { en: 'medium', fr: 'moyenne' },
  'explorer.confidence.low': { en: 'low', fr: 'faible' },
  'explorer.comparables.caption': {
    en: 'Comparables the estimate rests on, most similar first: {n}',
    fr: 'Comparables de l’estimation, du plus semblable au moins semblable : {n}',
  },
  'explorer.comparables.title': { en: 'Advert', fr: 'Annonce' },
  'explorer.comparables.neighborhood': { en: 'Quarter', fr: 'Quartier' },
  'explorer.comparables.bedrooms': { en: 'Bedrooms', fr: 'Chambres' },
  'explorer.comparables.surface': { en: 'Surface', fr: 'Surface' },
  'explorer.comparables.price': { en: 'Asking price', fr: 'Prix demandé' },
  'explorer.comparables.adjusted': { en: 'Adjusted to the subject', fr: 'Ajusté au bien' },
  'explorer.comparables.similarity': { en: 'Similarity', fr: 'Similarité' },
  'explorer.comparables.distance': { en: 'Distance', fr: 'Distance' },
} satisfies Messages;

export type ClientMessageKey = keyof typeof marketClientMessages;

export const CLIENT_MESSAGE_KEYS = Object.keys(marketClientMessages) as ClientMessageKey[];
