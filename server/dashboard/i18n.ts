/**
 * Every visible string of the dashboard, in French and English side by side (Cameroon is
 * bilingual: a string cannot exist in one language only; the type checker holds both).
 * Messages take `{name}` parameters, or are functions where grammar needs a count.
 */
import type { Request } from 'express';

export const LANGS = ['fr', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const LANG_COOKIE = 'mboa_lang';

export type Params = Record<string, string | number>;
type Msg = string | ((p: Params) => string);

const n = (p: Params, k = 'n') => Number(String(p[k]).replace(/\D/g, ''));
const s = (count: number) => (count === 1 ? '' : 's');
/** French keeps the singular for 0 and 1. */
const sf = (count: number) => (count <= 1 ? '' : 's');

const MESSAGES = {
  'app.tagline': { en: 'Real estate data API for Cameroon', fr: 'API de données immobilières du Cameroun' },
  'app.skip': { en: 'Skip to content', fr: 'Aller au contenu' },
  'nav.label': { en: 'Dashboard sections', fr: 'Sections de l’espace client' },
  'nav.home': { en: 'Home', fr: 'Accueil' },
  'nav.keys': { en: 'API keys', fr: 'Clés d’API' },
  'nav.usage': { en: 'Usage', fr: 'Consommation' },
  'nav.plans': { en: 'Plans', fr: 'Offres' },
  'nav.billing': { en: 'Billing', fr: 'Facturation' },
  'nav.docs': { en: 'API docs', fr: 'Documentation API' },
  'nav.logout': { en: 'Log out', fr: 'Se déconnecter' },
  'nav.login': { en: 'Log in', fr: 'Se connecter' },
  'nav.signup': { en: 'Create an account', fr: 'Créer un compte' },
  'lang.label': { en: 'Language', fr: 'Langue' },
  'footer.text': {
    en: 'Prices excl. tax, in FCFA (XAF). Monthly billing, no commitment. Support: support@mboa.cm',
    fr: 'Prix hors taxes, en FCFA (XAF). Facturation mensuelle, sans engagement. Support : support@mboa.cm',
  },
  'unlimited': { en: 'unlimited', fr: 'illimité' },
  'unlimited.calls': { en: 'Unlimited', fr: 'Illimité' },
  'copy': { en: 'Copy', fr: 'Copier' },
  'copied': { en: 'Copied', fr: 'Copié' },

  'field.company': { en: 'Company name', fr: 'Nom de l’entreprise' },
  'field.email': { en: 'Work e-mail', fr: 'E-mail professionnel' },
  'field.password': { en: 'Password', fr: 'Mot de passe' },
  'field.password.rule': {
    en: 'At least {min} characters (a few words make a good one), and not your e-mail address.',
    fr: 'Au moins {min} caractères (quelques mots font un bon mot de passe), et pas votre adresse e-mail.',
  },
  'field.plan': { en: 'Plan', fr: 'Offre' },
  'field.keyName': { en: 'Key name', fr: 'Nom de la clé' },
  'field.keyName.hint': {
    en: 'For example “Production server” or “Data team notebook”.',
    fr: 'Par exemple « Serveur de production » ou « Notebook équipe data ».',
  },

  'signup.title': { en: 'Create your Mboa account', fr: 'Créez votre compte Mboa' },
  'signup.lead': {
    en: 'Choose a plan and get your first API key at once. Monthly billing, no commitment: change plan at any time.',
    fr: 'Choisissez une offre et obtenez aussitôt votre première clé d’API. Facturation mensuelle, sans engagement : changez d’offre à tout moment.',
  },
  'signup.planNote': {
    en: 'Billed by day from today. You can change plan at any time from the dashboard.',
    fr: 'Facturé au jour à partir d’aujourd’hui. Vous pouvez changer d’offre à tout moment depuis l’espace client.',
  },
  'signup.submit': { en: 'Create my account', fr: 'Créer mon compte' },
  'signup.haveAccount': { en: 'Already have an account?', fr: 'Déjà un compte ?' },
  'signup.firstKeyName': { en: 'Main key', fr: 'Clé principale' },

  'login.title': { en: 'Log in to your dashboard', fr: 'Connexion à votre espace client' },
  'login.submit': { en: 'Log in', fr: 'Se connecter' },
  'login.noAccount': { en: 'No account yet?', fr: 'Pas encore de compte ?' },
  'login.forgot': {
    en: 'Forgot your password? Write to support@mboa.cm from your account’s address.',
    fr: 'Mot de passe oublié ? Écrivez à support@mboa.cm depuis l’adresse de votre compte.',
  },
  'notice.loggedOut': { en: 'You are logged out.', fr: 'Vous êtes déconnecté.' },
  'login.needed': { en: 'Log in to continue.', fr: 'Connectez-vous pour continuer.' },

  'form.fix': { en: 'Please correct the following:', fr: 'Merci de corriger ce qui suit :' },
  'error.company': {
    en: 'Enter your company name (up to 120 characters).',
    fr: 'Indiquez le nom de votre entreprise (120 caractères au plus).',
  },
  'error.email.invalid': {
    en: 'Enter a valid e-mail address, like name@company.cm.',
    fr: 'Indiquez une adresse e-mail valide, comme nom@entreprise.cm.',
  },
  'error.email.taken': {
    en: 'An account already exists with this e-mail address. Log in, or use another address.',
    fr: 'Un compte existe déjà avec cette adresse e-mail. Connectez-vous, ou utilisez une autre adresse.',
  },
  'error.password.too_short': {
    en: 'This password is too short: use at least {min} characters.',
    fr: 'Ce mot de passe est trop court : utilisez au moins {min} caractères.',
  },
  'error.password.too_long': {
    en: 'This password is too long: use at most {max} characters.',
    fr: 'Ce mot de passe est trop long : utilisez au plus {max} caractères.',
  },
  'error.password.same_as_email': {
    en: 'The password must not be your e-mail address.',
    fr: 'Le mot de passe ne doit pas être votre adresse e-mail.',
  },
  'error.password.missing': { en: 'Enter your password.', fr: 'Indiquez votre mot de passe.' },
  'error.plan': { en: 'Choose one of the three plans.', fr: 'Choisissez l’une des trois offres.' },
  'error.login.wrong': {
    en: 'Wrong e-mail or password. Check both and try again.',
    fr: 'E-mail ou mot de passe incorrect. Vérifiez les deux et réessayez.',
  },
  'error.login.limited': {
    en: 'Too many failed log-in attempts. For your security, try again in {minutes} min.',
    fr: 'Trop de tentatives de connexion échouées. Par sécurité, réessayez dans {minutes} min.',
  },
  'error.csrf': {
    en: 'This form has expired or did not come from this page, so nothing was done. Reload the page and submit it again.',
    fr: 'Ce formulaire a expiré ou ne vient pas de cette page : rien n’a été fait. Rechargez la page et envoyez-le à nouveau.',
  },
  'error.csrf.refreshed': {
    en: 'This form had expired, so nothing was done. It has been refreshed: submit it again.',
    fr: 'Ce formulaire avait expiré : rien n’a été fait. Il a été renouvelé : envoyez-le à nouveau.',
  },

  'welcome.title': { en: 'Welcome to Mboa, {company}', fr: 'Bienvenue sur Mboa, {company}' },
  'welcome.lead': {
    en: 'Your account is open on the {plan} plan. Here is your first API key.',
    fr: 'Votre compte est ouvert avec l’offre {plan}. Voici votre première clé d’API.',
  },
  'welcome.continue': { en: 'Go to my dashboard', fr: 'Aller à mon tableau de bord' },
  'key.once': {
    en: 'Copy this key now: for your security it will not be shown again (only its prefix is kept).',
    fr: 'Copiez cette clé maintenant : par sécurité, elle ne sera plus affichée (seul son préfixe est conservé).',
  },
  'quickstart.title': { en: 'Your first call', fr: 'Votre premier appel' },
  'quickstart.lead': { en: 'From a terminal:', fr: 'Depuis un terminal :' },
  'quickstart.docs': { en: 'Every endpoint and parameter:', fr: 'Tous les endpoints et paramètres :' },

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
  'suspended': {
    en: 'This account is suspended: the API refuses its calls. Contact support@mboa.cm to restore access.',
    fr: 'Ce compte est suspendu : l’API refuse ses appels. Contactez support@mboa.cm pour rétablir l’accès.',
  },

  'keys.title': { en: 'API keys', fr: 'Clés d’API' },
  'keys.lead': {
    en: 'Send a key in the X-API-Key header of every call. All keys share the account’s quota and rate limit.',
    fr: 'Envoyez une clé dans l’en-tête X-API-Key de chaque appel. Toutes les clés partagent le quota et la limite de débit du compte.',
  },
  'keys.allowance': {
    en: (p) => `Your ${p.plan} plan allows ${p.max} active key${s(n(p, 'max'))}; you have ${p.active}.`,
    fr: (p) => `Votre offre ${p.plan} autorise ${p.max} clé${sf(n(p, 'max'))} active${sf(n(p, 'max'))} ; vous en avez ${p.active}.`,
  },
  'keys.allowanceUnlimited': {
    en: (p) => `Your ${p.plan} plan allows any number of keys; you have ${p.active} active.`,
    fr: (p) => `Votre offre ${p.plan} autorise un nombre illimité de clés ; vous en avez ${p.active} active${sf(n(p, 'active'))}.`,
  },
  'keys.create.title': { en: 'Create a key', fr: 'Créer une clé' },
  'keys.create.submit': { en: 'Create the key', fr: 'Créer la clé' },
  'keys.list.title': { en: 'Your keys', fr: 'Vos clés' },
  'keys.none': { en: 'No keys yet: create one above.', fr: 'Aucune clé pour l’instant : créez-en une ci-dessus.' },
  'keys.col.name': { en: 'Name', fr: 'Nom' },
  'keys.col.key': { en: 'Key', fr: 'Clé' },
  'keys.col.created': { en: 'Created', fr: 'Créée le' },
  'keys.col.lastUsed': { en: 'Last used', fr: 'Dernière utilisation' },
  'keys.col.status': { en: 'Status', fr: 'État' },
  'keys.col.actions': { en: 'Actions', fr: 'Actions' },
  'keys.never': { en: 'never', fr: 'jamais' },
  'keys.status.active': { en: 'Active', fr: 'Active' },
  'keys.status.revoked': { en: 'Revoked on {date}', fr: 'Révoquée le {date}' },
  'keys.status.expiring': { en: 'Replaced: works until {date}', fr: 'Remplacée : valable jusqu’au {date}' },
  'keys.status.expired': { en: 'Expired on {date}', fr: 'Expirée le {date}' },
  'keys.revoke': { en: 'Revoke', fr: 'Révoquer' },
  'keys.revoke.confirm': {
    en: 'Revoke key {prefix}…? Calls using it will be refused at once.',
    fr: 'Révoquer la clé {prefix}… ? Les appels qui l’utilisent seront refusés immédiatement.',
  },
  'keys.rotate': { en: 'Rotate', fr: 'Renouveler' },
  'keys.rotate.confirm': {
    en: 'Create a replacement for {prefix}…? The old key keeps working for 24 hours.',
    fr: 'Créer une clé de remplacement pour {prefix}… ? L’ancienne reste valable 24 heures.',
  },
  'keys.rotate.help': {
    en: 'Rotate gives a new key with the same name; the old one keeps working for 24 hours, then is refused, so you can switch without downtime.',
    fr: 'Renouveler donne une nouvelle clé du même nom ; l’ancienne reste valable 24 heures puis est refusée, pour basculer sans interruption.',
  },
  'keys.created': { en: 'Key “{name}” created', fr: 'Clé « {name} » créée' },
  'keys.rotated': { en: 'Replacement for “{name}” created', fr: 'Clé de remplacement pour « {name} » créée' },
  'keys.rotated.old': {
    en: 'The old key {prefix}… keeps working until {date}; then the API refuses it.',
    fr: 'L’ancienne clé {prefix}… reste valable jusqu’au {date} ; ensuite l’API la refuse.',
  },
  'keys.more': { en: 'Need more keys? Pro allows {max}.', fr: 'Besoin de plus de clés ? Pro en autorise {max}.' },
  'notice.revoked': {
    en: 'Key {prefix}… revoked: the API now refuses it.',
    fr: 'Clé {prefix}… révoquée : l’API la refuse désormais.',
  },
  'error.key.limit': {
    en: (p) => `Your ${p.plan} plan allows ${p.max} active key${s(n(p, 'max'))} and you have ${p.active}. Revoke a key, or change plan for more.`,
    fr: (p) => `Votre offre ${p.plan} autorise ${p.max} clé${sf(n(p, 'max'))} active${sf(n(p, 'max'))} et vous en avez ${p.active}. Révoquez une clé, ou changez d’offre pour en avoir plus.`,
  },
  'error.key.name': {
    en: 'Give the key a name of 1 to 80 characters.',
    fr: 'Donnez à la clé un nom de 1 à 80 caractères.',
  },
  'error.key.notFound': {
    en: 'This key does not exist or is no longer active.',
    fr: 'Cette clé n’existe pas ou n’est plus active.',
  },
  'error.rotate.already': {
    en: 'Key {prefix}… is already being replaced (it works until {date}). Rotate its replacement instead.',
    fr: 'La clé {prefix}… est déjà en cours de remplacement (valable jusqu’au {date}). Renouvelez plutôt sa remplaçante.',
  },
  'error.rotate.limit': {
    en: (p) => `Your ${p.plan} plan allows ${p.max} key${s(n(p, 'max'))} being replaced at a time. Revoke ${p.prefix}… now, or wait until ${p.date}.`,
    fr: (p) => `Votre offre ${p.plan} autorise ${p.max} clé${sf(n(p, 'max'))} en cours de remplacement à la fois. Révoquez ${p.prefix}… maintenant, ou attendez le ${p.date}.`,
  },

  'plans.title': { en: 'Plans', fr: 'Offres' },
  'plans.lead': {
    en: 'Prices excl. tax, in FCFA per month. Monthly billing, no commitment: change plan at any time, with immediate effect; the calls already used this month are kept.',
    fr: 'Prix hors taxes, en FCFA par mois. Facturation mensuelle, sans engagement : changez d’offre à tout moment, avec effet immédiat ; les appels déjà utilisés ce mois-ci sont conservés.',
  },
  'plans.row.price': { en: 'Price per month', fr: 'Prix par mois' },
  'plans.row.quota': { en: 'Monthly quota (calls)', fr: 'Quota mensuel (appels)' },
  'plans.row.rate': { en: 'Rate limit', fr: 'Limite de débit' },
  'plans.row.keys': { en: 'API keys', fr: 'Clés d’API' },
  'plans.row.endpoints': { en: 'Endpoints', fr: 'Endpoints' },
  'plans.row.support': { en: 'Support', fr: 'Support' },
  'plans.row.analytics': { en: 'Usage analytics', fr: 'Analyse de consommation' },
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
    en: (p) => `The ${p.plan} plan allows ${p.max} active key${s(n(p, 'max'))} and you have ${p.active}. Revoke ${p.excess} of these key${s(n(p, 'excess'))} first, then switch:`,
    fr: (p) => `L’offre ${p.plan} autorise ${p.max} clé${sf(n(p, 'max'))} active${sf(n(p, 'max'))} et vous en avez ${p.active}. Révoquez d’abord ${p.excess} de ces clés, puis changez d’offre :`,
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
  'error.month': {
    en: 'Choose a month between {from} and {to}, written YYYY-MM.',
    fr: 'Choisissez un mois entre {from} et {to}, au format AAAA-MM.',
  },

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

  'notFound.title': { en: 'Page not found', fr: 'Page introuvable' },
  'notFound.text': { en: 'There is nothing at this address.', fr: 'Il n’y a rien à cette adresse.' },
  'back.home': { en: 'Back to the dashboard', fr: 'Retour au tableau de bord' },
  'badRequest.title': { en: 'The request could not be read', fr: 'La requête n’a pas pu être lue' },
  'badRequest.text': {
    en: 'The form sent was incomplete or too large. Go back, check it and send it again.',
    fr: 'Le formulaire envoyé était incomplet ou trop volumineux. Revenez en arrière, vérifiez-le et envoyez-le à nouveau.',
  },
  'refused.title': { en: 'Action refused', fr: 'Action refusée' },
  'csrf.title': { en: 'Form expired', fr: 'Formulaire expiré' },
  'serverError.title': { en: 'Something went wrong', fr: 'Une erreur est survenue' },
  'serverError.text': {
    en: 'Nothing is lost, and our team has been told. Try again in a moment; if it persists, write to support@mboa.cm quoting {id}.',
    fr: 'Rien n’est perdu et notre équipe est prévenue. Réessayez dans un instant ; si cela persiste, écrivez à support@mboa.cm en citant {id}.',
  },
  'unavailable.text': {
    en: 'The service is briefly unavailable. Try again in a few seconds.',
    fr: 'Le service est brièvement indisponible. Réessayez dans quelques secondes.',
  },
} satisfies Record<string, { en: Msg; fr: Msg }>;

export type MessageKey = keyof typeof MESSAGES;

export function t(lang: Lang, key: MessageKey, params: Params = {}): string {
  const msg: Msg = MESSAGES[key][lang];
  if (typeof msg === 'function') return msg(params);
  return msg.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Every message key, for the completeness test. */
export function messageKeys(): MessageKey[] {
  return Object.keys(MESSAGES) as MessageKey[];
}

export function isLang(value: unknown): value is Lang {
  return value === 'fr' || value === 'en';
}

/** The cookie's choice, else the first of French or English the browser asks for, else French. */
export function pickLang(req: Request, cookie: string | undefined): Lang {
  if (isLang(cookie)) return cookie;
  const header = req.get('accept-language') ?? '';
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...rest] = part.trim().toLowerCase().split(';');
      const q = rest.map((r) => /^q=([\d.]+)$/.exec(r.trim())?.[1]).find(Boolean);
      return { tag: tag.split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => isLang(x.tag) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.length ? (ranked[0].tag as Lang) : 'fr';
}

/** Labels of the endpoints as the plans table names them. */
export const ENDPOINT_LABELS: Record<string, string> = {
  ping: 'ping',
  'listings.search': 'listings',
  'listings.get': 'listings/{id}',
  'market.stats': 'market/stats',
  'market.trends': 'market/trends',
};

/** French for the plans' support terms (contract/plans.ts states them in English). */
const SUPPORT_FR: Record<string, string> = {
  'e-mail': 'e-mail',
  'priority, response under 24 h': 'prioritaire, réponse sous 24 h',
  'dedicated, response under 4 h; 99.9% SLA with on-call': 'dédié, réponse sous 4 h ; SLA de 99,9 % avec astreinte',
};

export function supportText(lang: Lang, support: string): string {
  return lang === 'fr' ? (SUPPORT_FR[support] ?? support) : support;
}
