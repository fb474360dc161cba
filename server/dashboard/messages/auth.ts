/** Sign-up, log-in, the welcome page and the e-mail address confirmation, with their form fields and errors. */
import type { Messages } from '../../platform/i18n.js';

export const authMessages = {
  'field.company': { en: 'Company name', fr: 'Nom de l’entreprise' },
  'field.email': { en: 'Work e-mail', fr: 'E-mail professionnel' },
  'field.password': { en: 'Password', fr: 'Mot de passe' },
  'field.password.rule': {
    en: 'At least {min} characters (a few words make a good one), and not your e-mail address.',
    fr: 'Au moins {min} caractères (quelques mots font un bon mot de passe), et pas votre adresse e-mail.',
  },
  'field.plan': { en: 'Plan', fr: 'Offre' },

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
  'error.company': {
    en: 'Enter your company name (up to 120 characters).',
    fr: 'Indiquez le nom de votre entreprise (120 caractères au plus).',
  },
  'error.email.invalid': {
    en: 'Enter a valid e-mail address, like name@company.cm.',
    fr: 'Indiquez une adresse e-mail valide, comme nom@entreprise.cm.',
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
  'error.login.wrong': {
    en: 'Wrong e-mail or password, or an address not confirmed yet. Check both and try again; a new account opens with the link we mailed it (a new link is on its way if it was lost).',
    fr: 'E-mail ou mot de passe incorrect, ou adresse pas encore confirmée. Vérifiez les deux et réessayez ; un nouveau compte s’ouvre avec le lien que nous lui avons envoyé (un nouveau lien part s’il s’est perdu).',
  },
  'error.login.limited': {
    en: 'Too many failed log-in attempts. For your security, try again in {minutes} min.',
    fr: 'Trop de tentatives de connexion échouées. Par sécurité, réessayez dans {minutes} min.',
  },
  'error.signup.limited': {
    en: 'Too many accounts opened from your network or your e-mail domain. Try again in {minutes} min, or write to support@mboa.cm.',
    fr: 'Trop de comptes ouverts depuis votre réseau ou votre domaine e-mail. Réessayez dans {minutes} min, ou écrivez à support@mboa.cm.',
  },

  'welcome.title': { en: 'Welcome to Mboa, {company}', fr: 'Bienvenue sur Mboa, {company}' },
  'welcome.lead': {
    en: 'Your account is open on the {plan} plan. Here is your first API key.',
    fr: 'Votre compte est ouvert avec l’offre {plan}. Voici votre première clé d’API.',
  },
  'welcome.continue': { en: 'Log in', fr: 'Se connecter' },
  'welcome.verify': {
    en: 'One more step: confirm your address with the link we sent to {email}. The link opens your dashboard, and your key works on the API as soon as the address is confirmed (the link is valid 48 hours).',
    fr: 'Dernière étape : confirmez votre adresse avec le lien envoyé à {email}. Le lien ouvre votre espace client, et votre clé fonctionne sur l’API dès que l’adresse est confirmée (le lien est valable 48 heures).',
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
    en: 'This confirmation link has expired (links work for 48 hours). Log in with your e-mail and password: a new link is mailed to you.',
    fr: 'Ce lien de confirmation a expiré (les liens sont valables 48 heures). Connectez-vous avec votre e-mail et votre mot de passe : un nouveau lien vous est envoyé.',
  },
  'link.invalid.title': { en: 'Link not valid', fr: 'Lien non valable' },
  'verify.invalid.text': {
    en: 'This confirmation link is not valid or was already used (only the newest link works). Log in with your e-mail and password: a new link is mailed to you if the address is still to confirm.',
    fr: 'Ce lien de confirmation n’est pas valable ou a déjà servi (seul le plus récent fonctionne). Connectez-vous avec votre e-mail et votre mot de passe : un nouveau lien vous est envoyé si l’adresse reste à confirmer.',
  },
} satisfies Messages;
