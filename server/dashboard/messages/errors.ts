/** Error pages: not found, unreadable request, expired form, server error, database unavailable. */
import type { Messages } from '../../platform/i18n.js';

export const errorsMessages = {
  'error.csrf': {
    en: 'This form has expired or did not come from this page, so nothing was done. Reload the page and submit it again.',
    fr: 'Ce formulaire a expiré ou ne vient pas de cette page : rien n’a été fait. Rechargez la page et envoyez-le à nouveau.',
  },
  'error.csrf.refreshed': {
    en: 'This form had expired, so nothing was done. It has been refreshed: submit it again.',
    fr: 'Ce formulaire avait expiré : rien n’a été fait. Il a été renouvelé : envoyez-le à nouveau.',
  },

  'notFound.title': { en: 'Page not found', fr: 'Page introuvable' },
  'notFound.text': { en: 'There is nothing at this address.', fr: 'Il n’y a rien à cette adresse.' },
  'back.home': { en: 'Back to the dashboard', fr: 'Retour au tableau de bord' },
  'badRequest.title': { en: 'The request could not be read', fr: 'La requête n’a pas pu être lue' },
  'badRequest.text': {
    en: 'The form sent was incomplete or too large. Go back, check it and send it again.',
    fr: 'Le formulaire envoyé était incomplet ou trop volumineux. Revenez en arrière, vérifiez-le et envoyez-le à nouveau.',
  },
  'badRequest.control': {
    en: 'A field or the address held a control character (such as a NUL byte or a line break where one line is expected), so nothing was done. Go back, remove it and send the form again.',
    fr: 'Un champ ou l’adresse contenait un caractère de contrôle (un octet NUL, un saut de ligne là où une seule ligne est attendue...) : rien n’a été fait. Revenez en arrière, retirez-le et envoyez à nouveau le formulaire.',
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
} satisfies Messages;
