/** The mail to an endpoint's owner once it is disabled (410, or 3 days of failures), in the account's language. */
import type pg from 'pg';
import type { AccountMail, Recipient } from '../mail/account-mail.js';

const WORDS = {
  en: {
    subject: 'Mboa webhooks: an endpoint was disabled',
    body: (url: string, reason: string) =>
      `Your webhook endpoint ${url} was disabled: ${reason}. No event is sent to it any more. Check the receiver, then add the endpoint again (the delivery log is at GET /api/v1/webhook-endpoints/{id}/deliveries).`,
  },
  fr: {
    subject: 'Webhooks Mboa : un point de réception a été désactivé',
    body: (url: string, reason: string) =>
      `Votre point de réception ${url} a été désactivé : ${reason}. Aucun événement ne lui est plus envoyé. Vérifiez le récepteur, puis ajoutez-le de nouveau (le journal des envois est à GET /api/v1/webhook-endpoints/{id}/deliveries).`,
  },
} as const;

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function disabledMail(pool: pg.Pool, mail: AccountMail) {
  return async (e: { accountId: string; url: string; reason: string }): Promise<void> => {
    const { rows } = await pool.query<Recipient>(
      'SELECT id, email, language, company_name AS "companyName", email_verified_at AS "emailVerifiedAt" FROM accounts WHERE id = $1',
      [e.accountId],
    );
    if (!rows[0]) return;
    const words = WORDS[rows[0].language === 'fr' ? 'fr' : 'en'];
    const text = words.body(e.url, e.reason);
    await mail.send(rows[0], 'webhook_disabled', { subject: words.subject, text, html: `<p>${escape(text)}</p>` });
  };
}
