/**
 * Every sentence of Mboa's e-mails, in French and English side by side, through the one
 * catalogue mechanism (platform/i18n.ts), as the dashboard's pages. Keys are
 * `<mail>.<part>`; templates.ts puts the parts of each mail together.
 */
import { catalogue, type Messages } from '../platform/i18n.js';

const frame = {
  'mail.greeting': { en: 'Hello,', fr: 'Bonjour,' },
  'mail.signature': { en: 'The Mboa team · support@mboa.cm', fr: 'L’équipe Mboa · support@mboa.cm' },
  'action.keys': { en: 'See my keys', fr: 'Voir mes clés' },
  'action.invoices': { en: 'See my invoices', fr: 'Voir mes factures' },
  'action.plans': { en: 'See the plans', fr: 'Voir les offres' },
} satisfies Messages;

const account = {
  'verifyEmail.subject': { en: 'Confirm your e-mail address for Mboa', fr: 'Confirmez votre adresse e-mail pour Mboa' },
  'verifyEmail.text': {
    en: 'Someone, probably you, opened a Mboa account with this address. Confirm it to turn your API keys on: until then, the API refuses them.',
    fr: 'Quelqu’un, probablement vous, a ouvert un compte Mboa avec cette adresse. Confirmez-la pour activer vos clés d’API : d’ici là, l’API les refuse.',
  },
  'verifyEmail.action': { en: 'Confirm my address', fr: 'Confirmer mon adresse' },
  'verifyEmail.note': {
    en: 'This link works once, for {hours} hours. If you did not open a Mboa account, ignore this message.',
    fr: 'Ce lien fonctionne une fois, pendant {hours} heures. Si vous n’avez pas ouvert de compte Mboa, ignorez ce message.',
  },

  'signupAttempt.subject': { en: 'A sign-up with your Mboa address', fr: 'Une inscription avec votre adresse Mboa' },
  'signupAttempt.text': {
    en: 'Someone tried to open a new Mboa account with this address, which already has one. No account was opened and nothing was changed.',
    fr: 'Quelqu’un a tenté d’ouvrir un nouveau compte Mboa avec cette adresse, qui en a déjà un. Aucun compte n’a été ouvert et rien n’a été modifié.',
  },
  'signupAttempt.text.closed': {
    en: 'Someone tried to open a new Mboa account with this address, whose account was closed. No account was opened: write to support@mboa.cm to reopen it.',
    fr: 'Quelqu’un a tenté d’ouvrir un nouveau compte Mboa avec cette adresse, dont le compte a été clôturé. Aucun compte n’a été ouvert : écrivez à support@mboa.cm pour le rouvrir.',
  },
  'signupAttempt.action': { en: 'Log in', fr: 'Me connecter' },
  'signupAttempt.note': {
    en: 'If it was you, log in, or reset your password if you forgot it. If not, ignore this message.',
    fr: 'Si c’était vous, connectez-vous, ou réinitialisez votre mot de passe si vous l’avez oublié. Sinon, ignorez ce message.',
  },

  'passwordReset.subject': { en: 'Reset your Mboa password', fr: 'Réinitialisez votre mot de passe Mboa' },
  'passwordReset.text': {
    en: 'Someone, probably you, asked to reset the password of the Mboa account of this address.',
    fr: 'Quelqu’un, probablement vous, a demandé à réinitialiser le mot de passe du compte Mboa de cette adresse.',
  },
  'passwordReset.action': { en: 'Choose a new password', fr: 'Choisir un nouveau mot de passe' },
  'passwordReset.note': {
    en: 'This link works once, for {minutes} minutes. If you did not ask for it, ignore this message: your password stays as it is.',
    fr: 'Ce lien fonctionne une fois, pendant {minutes} minutes. Si vous ne l’avez pas demandé, ignorez ce message : votre mot de passe reste inchangé.',
  },

  'passwordChanged.subject': { en: 'Your Mboa password was changed', fr: 'Votre mot de passe Mboa a été modifié' },
  'passwordChanged.text': {
    en: 'The password of your Mboa account was changed on {when}, and every other session was logged out.',
    fr: 'Le mot de passe de votre compte Mboa a été modifié le {when}, et toutes les autres sessions ont été fermées.',
  },
  'passwordChanged.action': { en: 'It was not me: reset it', fr: 'Ce n’était pas moi : le réinitialiser' },
  'passwordChanged.note': {
    en: 'If it was not you, reset your password now and write to support@mboa.cm.',
    fr: 'Si ce n’était pas vous, réinitialisez votre mot de passe maintenant et écrivez à support@mboa.cm.',
  },

  'keyCreated.subject': {
    en: 'New API key “{name}” on your Mboa account',
    fr: 'Nouvelle clé d’API « {name} » sur votre compte Mboa',
  },
  'keyCreated.text.live': {
    en: 'A live key {prefix}… named “{name}” was created on {when}.',
    fr: 'Une clé de production {prefix}… nommée « {name} » a été créée le {when}.',
  },
  'keyCreated.text.test': {
    en: 'A test key {prefix}… named “{name}” was created on {when}.',
    fr: 'Une clé de test {prefix}… nommée « {name} » a été créée le {when}.',
  },
  'keyCreated.note': {
    en: 'If you did not create it, revoke it from the dashboard and change your password.',
    fr: 'Si vous ne l’avez pas créée, révoquez-la depuis l’espace client et changez votre mot de passe.',
  },

  'keyRotated.subject': { en: 'API key “{name}” replaced', fr: 'Clé d’API « {name} » remplacée' },
  'keyRotated.text': {
    en: 'A replacement {prefix}… was created for “{name}”. The old key {oldPrefix}… keeps working until {until}; then the API refuses it.',
    fr: 'Une clé de remplacement {prefix}… a été créée pour « {name} ». L’ancienne clé {oldPrefix}… reste valable jusqu’au {until} ; ensuite l’API la refuse.',
  },
  'keyRotated.note': {
    en: 'If you did not do this, revoke the new key from the dashboard and change your password.',
    fr: 'Si vous n’êtes pas à l’origine de ce remplacement, révoquez la nouvelle clé depuis l’espace client et changez votre mot de passe.',
  },

  'keyRevoked.subject': { en: 'API key “{name}” revoked', fr: 'Clé d’API « {name} » révoquée' },
  'keyRevoked.text': {
    en: 'Key {prefix}… (“{name}”) was revoked on {when}: the API now refuses it.',
    fr: 'La clé {prefix}… (« {name} ») a été révoquée le {when} : l’API la refuse désormais.',
  },

  'quota100.subject': { en: 'Your Mboa monthly quota is used up', fr: 'Votre quota mensuel Mboa est épuisé' },
  'quota100.text': {
    en: 'Your account has used all {limit} calls of {month}: the API answers 429 quota_exceeded until {resets}.',
    fr: 'Votre compte a utilisé les {limit} appels de {month} : l’API répond 429 quota_exceeded jusqu’au {resets}.',
  },
  'quota80.subject': { en: '80% of your Mboa monthly quota used', fr: '80 % de votre quota mensuel Mboa utilisés' },
  'quota80.text': {
    en: 'Your account has used {used} of its {limit} calls of {month}. At the limit, calls are refused until {resets}.',
    fr: 'Votre compte a utilisé {used} de ses {limit} appels de {month}. À la limite, les appels sont refusés jusqu’au {resets}.',
  },
  'quota.planChange': {
    en: 'A plan change takes effect at once and keeps the calls already counted.',
    fr: 'Un changement d’offre prend effet immédiatement et conserve les appels déjà comptés.',
  },

  'accountClosed.subject': { en: 'Your Mboa account is closed', fr: 'Votre compte Mboa est clôturé' },
  'accountClosed.text': {
    en: 'Your account was closed on {when}: its API keys are revoked and logging in is no longer possible.',
    fr: 'Votre compte a été clôturé le {when} : ses clés d’API sont révoquées et la connexion n’est plus possible.',
  },
  'accountClosed.kept': {
    en: "We keep your invoices and what they state (company, address, plans and amounts) for {years} years, as accounting law requires; everything else was deleted. Days used this month appear on the month's invoice.",
    fr: 'Nous conservons vos factures et ce qu’elles mentionnent (société, adresse, offres et montants) pendant {years} ans, comme l’exige le droit comptable ; tout le reste a été supprimé. Les jours utilisés ce mois-ci figureront sur la facture du mois.',
  },
} satisfies Messages;

const billing = {
  'invoiceIssued.subject': { en: 'Mboa invoice {number} for {month}', fr: 'Facture Mboa {number} pour {month}' },
  'invoiceIssued.text': {
    en: 'Your invoice {number} for {month} is attached: {total} including VAT, due on {due}.',
    fr: 'Votre facture {number} pour {month} est jointe : {total} TTC, à régler au plus tard le {due}.',
  },
  'invoiceIssued.pay': {
    en: 'Pay by bank transfer or mobile money, quoting the invoice number; the details are on the invoice.',
    fr: 'Réglez par virement bancaire ou mobile money en indiquant le numéro de facture ; les coordonnées figurent sur la facture.',
  },

  'invoiceOverdue.subject': { en: 'Mboa invoice {number} is overdue', fr: 'Facture Mboa {number} en retard de paiement' },
  'invoiceOverdue.text': {
    en: 'Invoice {number} ({total} including VAT) was due on {due} and we have not received its payment.',
    fr: 'La facture {number} ({total} TTC) était à régler le {due} et nous n’en avons pas reçu le paiement.',
  },
  'invoiceOverdue.warning': {
    en: 'Without payment, API access will be suspended on {suspendOn}. If you have already paid, reply with your payment reference.',
    fr: 'Sans paiement, l’accès à l’API sera suspendu le {suspendOn}. Si vous avez déjà payé, répondez-nous avec la référence du paiement.',
  },

  'accessSuspended.subject': {
    en: 'Mboa API access suspended: invoice {number} unpaid',
    fr: 'Accès à l’API Mboa suspendu : facture {number} impayée',
  },
  'accessSuspended.text': {
    en: "Invoice {number} is still unpaid, so the API now refuses your account's calls. Access comes back as soon as the payment is recorded.",
    fr: 'La facture {number} reste impayée : l’API refuse désormais les appels de votre compte. L’accès revient dès que le paiement est enregistré.',
  },

  'paymentRecorded.subject': { en: 'Payment received for Mboa invoice {number}', fr: 'Paiement reçu pour la facture Mboa {number}' },
  'paymentRecorded.text': {
    en: 'We recorded your payment of {total} for invoice {number}. Thank you.',
    fr: 'Nous avons enregistré votre paiement de {total} pour la facture {number}. Merci.',
  },
  'paymentRecorded.restored': { en: 'API access is restored.', fr: 'L’accès à l’API est rétabli.' },
} satisfies Messages;

const MAIL = catalogue(frame, account, billing);

export type MailMessageKey = ReturnType<typeof MAIL.keys>[number];

export const t = MAIL.t;

/** Every message key, for the completeness test. */
export const mailMessageKeys = MAIL.keys;
