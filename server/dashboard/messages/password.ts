/** Forgotten password: the request for a link and the choice of a new password. */
import type { Messages } from '../../platform/i18n.js';

export const passwordMessages = {
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
} satisfies Messages;
