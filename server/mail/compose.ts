/**
 * The shape every e-mail shares: a greeting, a few paragraphs, at most one button, a note
 * and the signature, as plain text and as simple HTML (escaped, inline-free of scripts).
 */
import { escapeHtml } from '../platform/html.js';
import type { Lang } from '../platform/lang.js';
import { t } from './messages.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface MailBody {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Small print under the button (expiry, "if it was not you"…). */
  note?: string;
}

export function compose(lang: Lang, body: MailBody): MailContent {
  const greeting = t(lang, 'mail.greeting');
  const signature = t(lang, 'mail.signature');
  const text = [
    greeting,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`, ''] : []),
    ...(body.note ? [body.note, ''] : []),
    `-- `,
    signature,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:Arial,sans-serif;color:#1c2421;line-height:1.5;max-width:560px">
<p>${e(greeting)}</p>
${body.paragraphs.map((p) => `<p>${e(p)}</p>`).join('\n')}
${body.action ? `<p><a href="${e(body.action.url)}" style="display:inline-block;background:#007a5e;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:bold">${e(body.action.label)}</a></p><p style="font-size:13px;color:#5b6762">${e(body.action.url)}</p>` : ''}
${body.note ? `<p style="font-size:13px;color:#5b6762">${e(body.note)}</p>` : ''}
<p style="font-size:13px;color:#5b6762">${e(signature)}</p>
</body></html>`;
  return { subject: body.subject, text, html };
}
