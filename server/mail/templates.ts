/**
 * Every e-mail Mboa sends, in French and English side by side (as the dashboard's
 * messages are). Values arrive formatted for the language; links arrive absolute.
 */
import type { Lang } from '../platform/lang.js';
import { compose, type MailContent } from './compose.js';

type Both<P> = (lang: Lang, p: P) => MailContent;
const pick = <T>(lang: Lang, o: { en: T; fr: T }): T => o[lang];

export const verifyEmailMail: Both<{ company: string; url: string; hours: number }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: 'Confirm your e-mail address for Mboa', fr: 'Confirmez votre adresse e-mail pour Mboa' }),
    paragraphs: [
      pick(lang, {
        en: `Welcome to Mboa, ${p.company}. Confirm this address to turn your API keys on: until then, the API refuses them.`,
        fr: `Bienvenue sur Mboa, ${p.company}. Confirmez cette adresse pour activer vos clés d’API : d’ici là, l’API les refuse.`,
      }),
    ],
    action: { label: pick(lang, { en: 'Confirm my address', fr: 'Confirmer mon adresse' }), url: p.url },
    note: pick(lang, {
      en: `This link works once, for ${p.hours} hours. If you did not open a Mboa account, ignore this message.`,
      fr: `Ce lien fonctionne une fois, pendant ${p.hours} heures. Si vous n’avez pas ouvert de compte Mboa, ignorez ce message.`,
    }),
  });

export const passwordResetMail: Both<{ url: string; minutes: number }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: 'Reset your Mboa password', fr: 'Réinitialisez votre mot de passe Mboa' }),
    paragraphs: [
      pick(lang, {
        en: 'Someone, probably you, asked to reset the password of the Mboa account of this address.',
        fr: 'Quelqu’un, probablement vous, a demandé à réinitialiser le mot de passe du compte Mboa de cette adresse.',
      }),
    ],
    action: { label: pick(lang, { en: 'Choose a new password', fr: 'Choisir un nouveau mot de passe' }), url: p.url },
    note: pick(lang, {
      en: `This link works once, for ${p.minutes} minutes. If you did not ask for it, ignore this message: your password stays as it is.`,
      fr: `Ce lien fonctionne une fois, pendant ${p.minutes} minutes. Si vous ne l’avez pas demandé, ignorez ce message : votre mot de passe reste inchangé.`,
    }),
  });

export const passwordChangedMail: Both<{ when: string; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: 'Your Mboa password was changed', fr: 'Votre mot de passe Mboa a été modifié' }),
    paragraphs: [
      pick(lang, {
        en: `The password of your Mboa account was changed on ${p.when}, and every other session was logged out.`,
        fr: `Le mot de passe de votre compte Mboa a été modifié le ${p.when}, et toutes les autres sessions ont été fermées.`,
      }),
    ],
    action: { label: pick(lang, { en: 'It was not me: reset it', fr: 'Ce n’était pas moi : le réinitialiser' }), url: p.url },
    note: pick(lang, {
      en: 'If it was not you, reset your password now and write to support@mboa.cm.',
      fr: 'Si ce n’était pas vous, réinitialisez votre mot de passe maintenant et écrivez à support@mboa.cm.',
    }),
  });

export const keyCreatedMail: Both<{ name: string; prefix: string; test: boolean; when: string; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, {
      en: `New API key “${p.name}” on your Mboa account`,
      fr: `Nouvelle clé d’API « ${p.name} » sur votre compte Mboa`,
    }),
    paragraphs: [
      pick(lang, {
        en: `A ${p.test ? 'test' : 'live'} key ${p.prefix}… named “${p.name}” was created on ${p.when}.`,
        fr: `Une clé ${p.test ? 'de test' : 'de production'} ${p.prefix}… nommée « ${p.name} » a été créée le ${p.when}.`,
      }),
    ],
    action: { label: pick(lang, { en: 'See my keys', fr: 'Voir mes clés' }), url: p.url },
    note: pick(lang, {
      en: 'If you did not create it, revoke it from the dashboard and change your password.',
      fr: 'Si vous ne l’avez pas créée, révoquez-la depuis l’espace client et changez votre mot de passe.',
    }),
  });

export const keyRotatedMail: Both<{ name: string; prefix: string; oldPrefix: string; until: string; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: `API key “${p.name}” replaced`, fr: `Clé d’API « ${p.name} » remplacée` }),
    paragraphs: [
      pick(lang, {
        en: `A replacement ${p.prefix}… was created for “${p.name}”. The old key ${p.oldPrefix}… keeps working until ${p.until}; then the API refuses it.`,
        fr: `Une clé de remplacement ${p.prefix}… a été créée pour « ${p.name} ». L’ancienne clé ${p.oldPrefix}… reste valable jusqu’au ${p.until} ; ensuite l’API la refuse.`,
      }),
    ],
    action: { label: pick(lang, { en: 'See my keys', fr: 'Voir mes clés' }), url: p.url },
    note: pick(lang, {
      en: 'If you did not do this, revoke the new key from the dashboard and change your password.',
      fr: 'Si vous n’êtes pas à l’origine de ce remplacement, révoquez la nouvelle clé depuis l’espace client et changez votre mot de passe.',
    }),
  });

export const keyRevokedMail: Both<{ name: string; prefix: string; when: string; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: `API key “${p.name}” revoked`, fr: `Clé d’API « ${p.name} » révoquée` }),
    paragraphs: [
      pick(lang, {
        en: `Key ${p.prefix}… (“${p.name}”) was revoked on ${p.when}: the API now refuses it.`,
        fr: `La clé ${p.prefix}… (« ${p.name} ») a été révoquée le ${p.when} : l’API la refuse désormais.`,
      }),
    ],
    action: { label: pick(lang, { en: 'See my keys', fr: 'Voir mes clés' }), url: p.url },
  });

export const quotaLevelMail: Both<{ level: 80 | 100; used: string; limit: string; month: string; resets: string; url: string }> = (
  lang,
  p,
) =>
  compose(lang, {
    subject:
      p.level === 100
        ? pick(lang, { en: 'Your Mboa monthly quota is used up', fr: 'Votre quota mensuel Mboa est épuisé' })
        : pick(lang, { en: '80% of your Mboa monthly quota used', fr: '80 % de votre quota mensuel Mboa utilisés' }),
    paragraphs: [
      p.level === 100
        ? pick(lang, {
            en: `Your account has used all ${p.limit} calls of ${p.month}: the API answers 429 quota_exceeded until ${p.resets}.`,
            fr: `Votre compte a utilisé les ${p.limit} appels de ${p.month} : l’API répond 429 quota_exceeded jusqu’au ${p.resets}.`,
          })
        : pick(lang, {
            en: `Your account has used ${p.used} of its ${p.limit} calls of ${p.month}. At the limit, calls are refused until ${p.resets}.`,
            fr: `Votre compte a utilisé ${p.used} de ses ${p.limit} appels de ${p.month}. À la limite, les appels sont refusés jusqu’au ${p.resets}.`,
          }),
      pick(lang, {
        en: 'A plan change takes effect at once and keeps the calls already counted.',
        fr: 'Un changement d’offre prend effet immédiatement et conserve les appels déjà comptés.',
      }),
    ],
    action: { label: pick(lang, { en: 'See the plans', fr: 'Voir les offres' }), url: p.url },
  });

export const invoiceIssuedMail: Both<{ number: string; month: string; total: string; due: string; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: `Mboa invoice ${p.number} for ${p.month}`, fr: `Facture Mboa ${p.number} pour ${p.month}` }),
    paragraphs: [
      pick(lang, {
        en: `Your invoice ${p.number} for ${p.month} is attached: ${p.total} including VAT, due on ${p.due}.`,
        fr: `Votre facture ${p.number} pour ${p.month} est jointe : ${p.total} TTC, à régler au plus tard le ${p.due}.`,
      }),
      pick(lang, {
        en: 'Pay by bank transfer or mobile money, quoting the invoice number; the details are on the invoice.',
        fr: 'Réglez par virement bancaire ou mobile money en indiquant le numéro de facture ; les coordonnées figurent sur la facture.',
      }),
    ],
    action: { label: pick(lang, { en: 'See my invoices', fr: 'Voir mes factures' }), url: p.url },
  });

export const invoiceOverdueMail: Both<{ number: string; total: string; due: string; suspendOn: string; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: `Mboa invoice ${p.number} is overdue`, fr: `Facture Mboa ${p.number} en retard de paiement` }),
    paragraphs: [
      pick(lang, {
        en: `Invoice ${p.number} (${p.total} including VAT) was due on ${p.due} and we have not received its payment.`,
        fr: `La facture ${p.number} (${p.total} TTC) était à régler le ${p.due} et nous n’en avons pas reçu le paiement.`,
      }),
      pick(lang, {
        en: `Without payment, API access will be suspended on ${p.suspendOn}. If you have already paid, reply with your payment reference.`,
        fr: `Sans paiement, l’accès à l’API sera suspendu le ${p.suspendOn}. Si vous avez déjà payé, répondez-nous avec la référence du paiement.`,
      }),
    ],
    action: { label: pick(lang, { en: 'See my invoices', fr: 'Voir mes factures' }), url: p.url },
  });

export const accessSuspendedMail: Both<{ number: string; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, {
      en: `Mboa API access suspended: invoice ${p.number} unpaid`,
      fr: `Accès à l’API Mboa suspendu : facture ${p.number} impayée`,
    }),
    paragraphs: [
      pick(lang, {
        en: `Invoice ${p.number} is still unpaid, so the API now refuses your account's calls. Access comes back as soon as the payment is recorded.`,
        fr: `La facture ${p.number} reste impayée : l’API refuse désormais les appels de votre compte. L’accès revient dès que le paiement est enregistré.`,
      }),
    ],
    action: { label: pick(lang, { en: 'See my invoices', fr: 'Voir mes factures' }), url: p.url },
  });

export const paymentRecordedMail: Both<{ number: string; total: string; restored: boolean; url: string }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: `Payment received for Mboa invoice ${p.number}`, fr: `Paiement reçu pour la facture Mboa ${p.number}` }),
    paragraphs: [
      pick(lang, {
        en: `We recorded your payment of ${p.total} for invoice ${p.number}. Thank you.`,
        fr: `Nous avons enregistré votre paiement de ${p.total} pour la facture ${p.number}. Merci.`,
      }),
      ...(p.restored ? [pick(lang, { en: 'API access is restored.', fr: 'L’accès à l’API est rétabli.' })] : []),
    ],
    action: { label: pick(lang, { en: 'See my invoices', fr: 'Voir mes factures' }), url: p.url },
  });

export const accountClosedMail: Both<{ when: string; years: number }> = (lang, p) =>
  compose(lang, {
    subject: pick(lang, { en: 'Your Mboa account is closed', fr: 'Votre compte Mboa est clôturé' }),
    paragraphs: [
      pick(lang, {
        en: `Your account was closed on ${p.when}: its API keys are revoked and logging in is no longer possible.`,
        fr: `Votre compte a été clôturé le ${p.when} : ses clés d’API sont révoquées et la connexion n’est plus possible.`,
      }),
      pick(lang, {
        en: `We keep your invoices and what they state (company, address, plans and amounts) for ${p.years} years, as accounting law requires; everything else was deleted. Days used this month appear on the month's invoice.`,
        fr: `Nous conservons vos factures et ce qu’elles mentionnent (société, adresse, offres et montants) pendant ${p.years} ans, comme l’exige le droit comptable ; tout le reste a été supprimé. Les jours utilisés ce mois-ci figureront sur la facture du mois.`,
      }),
    ],
  });
