/**
 * Every visible string of the dashboard, in French and English side by side (Cameroon is
 * bilingual: a string cannot exist in one language only; the type checker holds both).
 * Messages take `{name}` parameters, or are functions where grammar needs a count.
 */
import type { Lang } from '../platform/lang.js';

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
  'nav.account': { en: 'Account', fr: 'Compte' },
  'nav.docs': { en: 'API docs', fr: 'Documentation API' },
  'nav.logout': { en: 'Log out', fr: 'Se déconnecter' },
  'nav.login': { en: 'Log in', fr: 'Se connecter' },
  'nav.signup': { en: 'Create an account', fr: 'Créer un compte' },
  'lang.label': { en: 'Language', fr: 'Langue' },
  'footer.text': {
    en: 'Prices excl. tax, in FCFA (XAF). Starter and Pro: monthly billing, no commitment; Enterprise: annual contract. Support: support@mboa.cm',
    fr: 'Prix hors taxes, en FCFA (XAF). Starter et Pro : facturation mensuelle, sans engagement ; Enterprise : contrat annuel. Support : support@mboa.cm',
  },
  unlimited: { en: 'unlimited', fr: 'illimité' },
  'unlimited.calls': { en: 'Unlimited', fr: 'Illimité' },
  copy: { en: 'Copy', fr: 'Copier' },
  copied: { en: 'Copied', fr: 'Copié' },

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
  'signup.enterpriseNote': {
    en: 'Sold by annual contract, with your own quota and a dedicated contact: tell us your needs.',
    fr: 'Vendue par contrat annuel, avec votre propre quota et un interlocuteur dédié : parlez-nous de vos besoins.',
  },
  'signup.haveAccount': { en: 'Already have an account?', fr: 'Déjà un compte ?' },
  'signup.firstKeyName': { en: 'Main key', fr: 'Clé principale' },

  'login.title': { en: 'Log in to your dashboard', fr: 'Connexion à votre espace client' },
  'login.submit': { en: 'Log in', fr: 'Se connecter' },
  'login.noAccount': { en: 'No account yet?', fr: 'Pas encore de compte ?' },
  'login.forgot': { en: 'Forgot your password?', fr: 'Mot de passe oublié ?' },
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
  'error.email.closed': {
    en: 'This address belonged to an account that was closed. Write to support@mboa.cm to reopen it, or use another address.',
    fr: 'Cette adresse appartenait à un compte clôturé. Écrivez à support@mboa.cm pour le rouvrir, ou utilisez une autre adresse.',
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
  'error.plan': { en: 'Choose Starter or Pro.', fr: 'Choisissez Starter ou Pro.' },
  'error.plan.contract': {
    en: 'Enterprise is sold by annual contract, so it cannot be chosen here: contact sales and we will answer within one business day.',
    fr: 'Enterprise est vendue par contrat annuel et ne peut donc pas être choisie ici : contactez le service commercial, nous répondons sous un jour ouvré.',
  },
  'error.plan.inForce': {
    en: 'Your Enterprise contract is still running: plan changes before its end go through your account manager (sales@mboa.cm).',
    fr: 'Votre contrat Enterprise est en cours : avant son terme, les changements d’offre passent par votre interlocuteur commercial (sales@mboa.cm).',
  },
  'error.login.wrong': {
    en: 'Wrong e-mail or password. Check both and try again.',
    fr: 'E-mail ou mot de passe incorrect. Vérifiez les deux et réessayez.',
  },
  'error.login.limited': {
    en: 'Too many failed log-in attempts. For your security, try again in {minutes} min.',
    fr: 'Trop de tentatives de connexion échouées. Par sécurité, réessayez dans {minutes} min.',
  },
  'error.signup.limited': {
    en: 'Too many accounts opened from your network or your e-mail domain. Try again in {minutes} min, or write to support@mboa.cm.',
    fr: 'Trop de comptes ouverts depuis votre réseau ou votre domaine e-mail. Réessayez dans {minutes} min, ou écrivez à support@mboa.cm.',
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
  'welcome.verify': {
    en: 'One more step: confirm your address with the link we sent to {email}. Your key works on the API as soon as the address is confirmed (the link is valid 48 hours).',
    fr: 'Dernière étape : confirmez votre adresse avec le lien envoyé à {email}. Votre clé fonctionne sur l’API dès que l’adresse est confirmée (le lien est valable 48 heures).',
  },
  'verify.pending': {
    en: 'Your address {email} is not confirmed yet: the API refuses your keys until it is. Open the link we sent, or send a new one.',
    fr: 'Votre adresse {email} n’est pas encore confirmée : l’API refuse vos clés d’ici là. Ouvrez le lien envoyé, ou demandez-en un nouveau.',
  },
  'verify.resend': { en: 'Send a new link', fr: 'Envoyer un nouveau lien' },
  'notice.verificationSent': {
    en: 'A new confirmation link was sent to {email}.',
    fr: 'Un nouveau lien de confirmation a été envoyé à {email}.',
  },
  'notice.alreadyVerified': { en: 'Your address is already confirmed.', fr: 'Votre adresse est déjà confirmée.' },
  'error.verify.limited': {
    en: 'Several links were sent already. Try again in {minutes} min, and check your spam folder.',
    fr: 'Plusieurs liens ont déjà été envoyés. Réessayez dans {minutes} min, et vérifiez vos courriers indésirables.',
  },
  'verify.done.title': { en: 'Address confirmed', fr: 'Adresse confirmée' },
  'verify.done.text': {
    en: 'Thank you: your address is confirmed and your API keys work now.',
    fr: 'Merci : votre adresse est confirmée et vos clés d’API fonctionnent désormais.',
  },
  'verify.already.text': {
    en: 'This address was already confirmed: your API keys work.',
    fr: 'Cette adresse était déjà confirmée : vos clés d’API fonctionnent.',
  },
  'verify.expired.title': { en: 'Link expired', fr: 'Lien expiré' },
  'verify.expired.text': {
    en: 'This confirmation link has expired (links work for 48 hours). Log in and send a new one from your dashboard’s home page.',
    fr: 'Ce lien de confirmation a expiré (les liens sont valables 48 heures). Connectez-vous et demandez-en un nouveau depuis l’accueil de votre espace client.',
  },
  'link.invalid.title': { en: 'Link not valid', fr: 'Lien non valable' },
  'verify.invalid.text': {
    en: 'This confirmation link is not valid or was already used (only the newest link works). Log in to send a new one.',
    fr: 'Ce lien de confirmation n’est pas valable ou a déjà servi (seul le plus récent fonctionne). Connectez-vous pour en demander un nouveau.',
  },

  'forgot.title': { en: 'Reset your password', fr: 'Réinitialiser votre mot de passe' },
  'forgot.lead': {
    en: 'Enter the e-mail address of your account: we send it a link to choose a new password.',
    fr: 'Indiquez l’adresse e-mail de votre compte : nous lui envoyons un lien pour choisir un nouveau mot de passe.',
  },
  'forgot.submit': { en: 'Send the link', fr: 'Envoyer le lien' },
  'forgot.sent': {
    en: 'If an account exists for {email}, a link to choose a new password is on its way. It works once, for one hour; check your spam folder if nothing arrives within a few minutes.',
    fr: 'Si un compte existe pour {email}, un lien pour choisir un nouveau mot de passe est en route. Il fonctionne une fois, pendant une heure ; vérifiez vos courriers indésirables si rien n’arrive d’ici quelques minutes.',
  },
  'error.forgot.limited': {
    en: 'Too many requests. Try again in {minutes} min.',
    fr: 'Trop de demandes. Réessayez dans {minutes} min.',
  },
  'reset.title': { en: 'Choose a new password', fr: 'Choisissez un nouveau mot de passe' },
  'reset.lead': {
    en: 'For the account of {email}. Every session of this account will be logged out.',
    fr: 'Pour le compte de {email}. Toutes les sessions de ce compte seront fermées.',
  },
  'field.newPassword': { en: 'New password', fr: 'Nouveau mot de passe' },
  'reset.submit': { en: 'Save my new password', fr: 'Enregistrer mon nouveau mot de passe' },
  'reset.expired.text': {
    en: 'This link has expired (reset links work for one hour). Ask for a new one.',
    fr: 'Ce lien a expiré (les liens de réinitialisation sont valables une heure). Demandez-en un nouveau.',
  },
  'reset.invalid.text': {
    en: 'This link is not valid or was already used. Ask for a new one.',
    fr: 'Ce lien n’est pas valable ou a déjà servi. Demandez-en un nouveau.',
  },
  'reset.again': { en: 'Ask for a new link', fr: 'Demander un nouveau lien' },
  'notice.passwordReset': {
    en: 'Your new password is saved, and every other session was logged out.',
    fr: 'Votre nouveau mot de passe est enregistré, et toutes les autres sessions ont été fermées.',
  },

  'account.title': { en: 'Your account', fr: 'Votre compte' },
  'account.company': { en: 'Company', fr: 'Entreprise' },
  'account.email': { en: 'E-mail', fr: 'E-mail' },
  'account.opened': { en: 'Opened on', fr: 'Ouvert le' },
  'account.verified': { en: 'confirmed', fr: 'confirmée' },
  'account.unverified': { en: 'not confirmed', fr: 'non confirmée' },
  'account.password.title': { en: 'Change your password', fr: 'Changer votre mot de passe' },
  'field.currentPassword': { en: 'Current password', fr: 'Mot de passe actuel' },
  'account.password.submit': { en: 'Change my password', fr: 'Changer mon mot de passe' },
  'account.password.note': {
    en: 'Every other session of your account is logged out when the password changes.',
    fr: 'Toutes les autres sessions de votre compte sont fermées au changement de mot de passe.',
  },
  'notice.passwordChanged': {
    en: 'Your password is changed, and every other session was logged out.',
    fr: 'Votre mot de passe est changé, et toutes les autres sessions ont été fermées.',
  },
  'error.password.current': { en: 'The current password is wrong.', fr: 'Le mot de passe actuel est incorrect.' },
  'account.close.title': { en: 'Close your account', fr: 'Clôturer votre compte' },
  'account.close.text': {
    en: 'Closing is immediate and final: every API key is revoked at once, and logging in is no longer possible. We keep your invoices and what they state (company, e-mail, plans and amounts) for {years} years, as accounting law (OHADA) requires, and delete everything else at once: keys, sessions, usage figures. The days used this month appear on the month’s last invoice; unpaid invoices remain due.',
    fr: 'La clôture est immédiate et définitive : toutes les clés d’API sont révoquées aussitôt, et la connexion n’est plus possible. Nous conservons vos factures et ce qu’elles mentionnent (entreprise, e-mail, offres et montants) pendant {years} ans, comme l’exige le droit comptable (OHADA), et supprimons aussitôt tout le reste : clés, sessions, chiffres de consommation. Les jours utilisés ce mois-ci figurent sur la dernière facture du mois ; les factures impayées restent dues.',
  },
  'account.close.password': { en: 'Your password, to confirm', fr: 'Votre mot de passe, pour confirmer' },
  'account.close.submit': { en: 'Close my account', fr: 'Clôturer mon compte' },
  'account.close.confirm': {
    en: 'Close your account now? Every key stops working at once; this cannot be undone.',
    fr: 'Clôturer votre compte maintenant ? Toutes les clés cessent de fonctionner aussitôt ; c’est irréversible.',
  },
  'account.close.contract': {
    en: 'An Enterprise account under contract is closed through your account manager (sales@mboa.cm).',
    fr: 'Un compte Enterprise sous contrat se clôture par votre interlocuteur commercial (sales@mboa.cm).',
  },
  'error.close.password': { en: 'Wrong password: the account is not closed.', fr: 'Mot de passe incorrect : le compte n’est pas clôturé.' },
  'closed.title': { en: 'Your account is closed', fr: 'Votre compte est clôturé' },
  'closed.text': {
    en: 'Every API key was revoked and you are logged out. We keep your invoices for {years} years, as the law requires; everything else is deleted. A confirmation was sent to {email}.',
    fr: 'Toutes les clés d’API ont été révoquées et vous êtes déconnecté. Nous conservons vos factures pendant {years} ans, comme l’exige la loi ; tout le reste est supprimé. Une confirmation a été envoyée à {email}.',
  },
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
  suspended: {
    en: 'This account is suspended: the API refuses its calls, and plan changes and new keys wait until access is restored. You can still read your pages and pay your invoices. Contact support@mboa.cm to restore access.',
    fr: 'Ce compte est suspendu : l’API refuse ses appels, et changements d’offre et nouvelles clés attendent le rétablissement de l’accès. Vous pouvez toujours consulter vos pages et régler vos factures. Contactez support@mboa.cm pour rétablir l’accès.',
  },
  'suspended.title': { en: 'Account suspended', fr: 'Compte suspendu' },
  'suspended.nonPayment': {
    en: 'API access is suspended: an invoice is unpaid 15 days after its due date. Pay it (see Billing): access comes back as soon as the payment is recorded. Plan changes and new keys wait until then; you can still read your pages.',
    fr: 'L’accès à l’API est suspendu : une facture reste impayée 15 jours après son échéance. Réglez-la (voir Facturation) : l’accès revient dès que le paiement est enregistré. Changements d’offre et nouvelles clés attendent jusque-là ; vous pouvez toujours consulter vos pages.',
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
  'field.keyKind': { en: 'Kind of key', fr: 'Type de clé' },
  'keys.kind.live': {
    en: 'Live: the real data, counted in your quota',
    fr: 'Production : les vraies données, comptées dans votre quota',
  },
  'keys.kind.test': {
    en: 'Test (mboa_test_…): a fixed public sample, never counted; for development and CI',
    fr: 'Test (mboa_test_…) : un échantillon public fixe, jamais compté ; pour le développement et l’intégration continue',
  },
  'keys.testBadge': { en: 'Test', fr: 'Test' },
  'keys.testAllowance': {
    en: 'Test keys do not count towards your plan’s limit: up to {max} active at a time.',
    fr: 'Les clés de test ne comptent pas dans la limite de votre offre : jusqu’à {max} actives à la fois.',
  },
  'error.key.testLimit': {
    en: 'You already have {max} active test keys. Revoke one first.',
    fr: 'Vous avez déjà {max} clés de test actives. Révoquez-en une d’abord.',
  },
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
    en: (p) =>
      `Your ${p.plan} plan allows ${p.max} active key${s(n(p, 'max'))} and you have ${p.active}. Revoke a key, or change plan for more.`,
    fr: (p) =>
      `Votre offre ${p.plan} autorise ${p.max} clé${sf(n(p, 'max'))} active${sf(n(p, 'max'))} et vous en avez ${p.active}. Révoquez une clé, ou changez d’offre pour en avoir plus.`,
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
    en: (p) =>
      `Your ${p.plan} plan allows ${p.max} key${s(n(p, 'max'))} being replaced at a time. Revoke ${p.prefix}… now, or wait until ${p.date}.`,
    fr: (p) =>
      `Votre offre ${p.plan} autorise ${p.max} clé${sf(n(p, 'max'))} en cours de remplacement à la fois. Révoquez ${p.prefix}… maintenant, ou attendez le ${p.date}.`,
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

  'sales.title': { en: 'Contact sales', fr: 'Contacter le service commercial' },
  'sales.lead': {
    en: 'Enterprise is sold by annual contract: unlimited calls or your own quota, every endpoint including custom ones, dedicated support with a response under 4 hours and a 99.9% SLA. Tell us what you need: we answer within one business day.',
    fr: 'Enterprise est vendue par contrat annuel : appels illimités ou votre propre quota, tous les endpoints y compris sur mesure, support dédié avec réponse sous 4 heures et SLA de 99,9 %. Dites-nous ce dont vous avez besoin : nous répondons sous un jour ouvré.',
  },
  'field.contactName': { en: 'Your name', fr: 'Votre nom' },
  'field.phone': { en: 'Phone (optional)', fr: 'Téléphone (facultatif)' },
  'field.message': { en: 'Your needs', fr: 'Vos besoins' },
  'field.message.hint': {
    en: 'Data and endpoints you need, expected calls per month, start date… (up to {max} characters)',
    fr: 'Données et endpoints utiles, volume d’appels mensuel attendu, date de démarrage… ({max} caractères au plus)',
  },
  'sales.submit': { en: 'Send my request', fr: 'Envoyer ma demande' },
  'sales.sent.title': { en: 'Thank you: your request is recorded', fr: 'Merci : votre demande est enregistrée' },
  'sales.sent.text': {
    en: 'Our sales team will answer you at {email} within one business day.',
    fr: 'Notre équipe commerciale vous répondra à {email} sous un jour ouvré.',
  },
  'sales.back': { en: 'Back to the plans', fr: 'Retour aux offres' },
  'error.contactName': { en: 'Enter your name (up to 120 characters).', fr: 'Indiquez votre nom (120 caractères au plus).' },
  'error.phone': {
    en: 'Enter a phone number (digits, spaces, +), or leave it empty.',
    fr: 'Indiquez un numéro de téléphone (chiffres, espaces, +), ou laissez le champ vide.',
  },
  'error.message': {
    en: 'Tell us your needs in 1 to 2,000 characters.',
    fr: 'Décrivez vos besoins en 1 à 2 000 caractères.',
  },
  'error.sales.limited': {
    en: 'Too many requests from your network. Try again in {minutes} min, or write to sales@mboa.cm.',
    fr: 'Trop de demandes depuis votre réseau. Réessayez dans {minutes} min, ou écrivez à sales@mboa.cm.',
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
  'unavailable.title': { en: 'Service temporarily unavailable', fr: 'Service momentanément indisponible' },
  'unavailable.text': {
    en: 'Our database cannot be reached at the moment; nothing you did is lost. Try again in {seconds} seconds; if it lasts more than a few minutes, write to support@mboa.cm.',
    fr: 'Notre base de données est injoignable pour le moment ; rien de ce que vous avez fait n’est perdu. Réessayez dans {seconds} secondes ; si cela dure plus de quelques minutes, écrivez à support@mboa.cm.',
  },
  'unavailable.retry': { en: 'Try again', fr: 'Réessayer' },
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
