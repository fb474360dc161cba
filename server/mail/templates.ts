/**
 * Every e-mail Mboa sends, put together from its sentences in the mail catalogue
 * (messages.ts), in the recipient's language. Values arrive formatted for the language;
 * links arrive absolute.
 */
import type { Lang } from '../platform/lang.js';
import { compose, type MailContent } from './compose.js';
import { type MailMessageKey, t } from './messages.js';

type Both<P> = (lang: Lang, p: P) => MailContent;

/** The catalogue in `lang`, with the mail's values as parameters. */
const say = (lang: Lang, params: Record<string, string | number>) => (key: MailMessageKey) => t(lang, key, params);

/**
 * Sent to an address nobody has confirmed yet: it carries no text the person who typed the
 * address chose (no company name), so it cannot carry someone else's message.
 */
export const verifyEmailMail: Both<{ url: string; hours: number }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('verifyEmail.subject'),
    paragraphs: [m('verifyEmail.text')],
    action: { label: m('verifyEmail.action'), url: p.url },
    note: m('verifyEmail.note'),
  });
};

/** To the address of an account someone tried to sign up again with (no text of theirs in it). */
export const signupAttemptMail: Both<{ closed: boolean; url: string }> = (lang, p) => {
  const m = say(lang, { url: p.url });
  return compose(lang, {
    subject: m('signupAttempt.subject'),
    paragraphs: [m(p.closed ? 'signupAttempt.text.closed' : 'signupAttempt.text')],
    ...(p.closed ? {} : { action: { label: m('signupAttempt.action'), url: p.url }, note: m('signupAttempt.note') }),
  });
};

export const passwordResetMail: Both<{ url: string; minutes: number }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('passwordReset.subject'),
    paragraphs: [m('passwordReset.text')],
    action: { label: m('passwordReset.action'), url: p.url },
    note: m('passwordReset.note'),
  });
};

export const passwordChangedMail: Both<{ when: string; url: string }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('passwordChanged.subject'),
    paragraphs: [m('passwordChanged.text')],
    action: { label: m('passwordChanged.action'), url: p.url },
    note: m('passwordChanged.note'),
  });
};

export const keyCreatedMail: Both<{ name: string; prefix: string; test: boolean; when: string; url: string }> = (lang, p) => {
  const { test, ...values } = p;
  const m = say(lang, values);
  return compose(lang, {
    subject: m('keyCreated.subject'),
    paragraphs: [m(test ? 'keyCreated.text.test' : 'keyCreated.text.live')],
    action: { label: m('action.keys'), url: p.url },
    note: m('keyCreated.note'),
  });
};

export const keyRotatedMail: Both<{ name: string; prefix: string; oldPrefix: string; until: string; url: string }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('keyRotated.subject'),
    paragraphs: [m('keyRotated.text')],
    action: { label: m('action.keys'), url: p.url },
    note: m('keyRotated.note'),
  });
};

export const keyRevokedMail: Both<{ name: string; prefix: string; when: string; url: string }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('keyRevoked.subject'),
    paragraphs: [m('keyRevoked.text')],
    action: { label: m('action.keys'), url: p.url },
  });
};

export const quotaLevelMail: Both<{ level: 80 | 100; used: string; limit: string; month: string; resets: string; url: string }> = (
  lang,
  p,
) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m(p.level === 100 ? 'quota100.subject' : 'quota80.subject'),
    paragraphs: [m(p.level === 100 ? 'quota100.text' : 'quota80.text'), m('quota.planChange')],
    action: { label: m('action.plans'), url: p.url },
  });
};

export const invoiceIssuedMail: Both<{ number: string; month: string; total: string; due: string; url: string }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('invoiceIssued.subject'),
    paragraphs: [m('invoiceIssued.text'), m('invoiceIssued.pay')],
    action: { label: m('action.invoices'), url: p.url },
  });
};

export const invoiceOverdueMail: Both<{ number: string; total: string; due: string; suspendOn: string; url: string }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('invoiceOverdue.subject'),
    paragraphs: [m('invoiceOverdue.text'), m('invoiceOverdue.warning')],
    action: { label: m('action.invoices'), url: p.url },
  });
};

export const accessSuspendedMail: Both<{ number: string; url: string }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('accessSuspended.subject'),
    paragraphs: [m('accessSuspended.text')],
    action: { label: m('action.invoices'), url: p.url },
  });
};

export const paymentRecordedMail: Both<{ number: string; total: string; restored: boolean; url: string }> = (lang, p) => {
  const { restored, ...values } = p;
  const m = say(lang, values);
  return compose(lang, {
    subject: m('paymentRecorded.subject'),
    paragraphs: [m('paymentRecorded.text'), ...(restored ? [m('paymentRecorded.restored')] : [])],
    action: { label: m('action.invoices'), url: p.url },
  });
};

export const accountClosedMail: Both<{ when: string; years: number }> = (lang, p) => {
  const m = say(lang, p);
  return compose(lang, {
    subject: m('accountClosed.subject'),
    paragraphs: [m('accountClosed.text'), m('accountClosed.kept')],
  });
};
