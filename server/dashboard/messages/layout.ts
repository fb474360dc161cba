/** The page shell and the pieces several pages share: top bar, footer, copy buttons, the shown-once key. */
import type { Messages } from '../../platform/i18n.js';

export const layoutMessages = {
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

  'form.fix': { en: 'Please correct the following:', fr: 'Merci de corriger ce qui suit :' },
  'key.once': {
    en: 'Copy this key now: for your security it will not be shown again (only its prefix is kept).',
    fr: 'Copiez cette clé maintenant : par sécurité, elle ne sera plus affichée (seul son préfixe est conservé).',
  },
  'quickstart.title': { en: 'Your first call', fr: 'Votre premier appel' },
  'quickstart.lead': { en: 'From a terminal:', fr: 'Depuis un terminal :' },
  'quickstart.docs': { en: 'Every endpoint and parameter:', fr: 'Tous les endpoints et paramètres :' },
} satisfies Messages;
