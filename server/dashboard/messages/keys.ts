/** The API keys page: creating, rotating and revoking keys. */
import { n, s, sf, type Messages } from '../../platform/i18n.js';

export const keysMessages = {
  'field.keyName': { en: 'Key name', fr: 'Nom de la clé' },
  'field.keyName.hint': {
    en: 'For example “Production server” or “Data team notebook”.',
    fr: 'Par exemple « Serveur de production » ou « Notebook équipe data ».',
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
} satisfies Messages;
