/** Contact sales: the Enterprise request form. */
import type { Messages } from '../../platform/i18n.js';

export const salesMessages = {
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
} satisfies Messages;
