/** The account page: details, password change, closing the account. */
import type { Messages } from '../../platform/i18n.js';

export const accountMessages = {
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
} satisfies Messages;
