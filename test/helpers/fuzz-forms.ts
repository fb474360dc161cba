/**
 * The dashboard's forms and query parameters for fuzzing: every form a visitor or a
 * logged-in customer can send, with the fields its route reads, and values of every kind
 * (valid ones, unicode, and the control bytes no form field may carry: NUL, the other C0
 * bytes, DEL, line breaks where one line is expected).
 */
import fc from 'fast-check';
import { hasControlCharacter } from '../../server/platform/text.js';

export interface DashboardForm {
  /** The page whose form token the form carries, and where it is posted. */
  page: string;
  action: string;
  /** Sent from a logged-in session (its CSRF token), or by a visitor (the form cookie's). */
  session: boolean;
  /** The fields the route reads, each with a value it accepts. */
  fields: Record<string, string>;
  /** The text areas: their line breaks and tabs are the customer's. */
  multiline?: string[];
}

export const DASHBOARD_FORMS: DashboardForm[] = [
  {
    page: '/dashboard/signup',
    action: '/dashboard/signup',
    session: false,
    fields: { company: 'Fuzz SARL', email: 'fuzz@fuzz.mboa.cm', password: 'a long passphrase', plan: 'starter' },
  },
  {
    page: '/dashboard/login',
    action: '/dashboard/login',
    session: false,
    fields: { email: 'fuzz@fuzz.mboa.cm', password: 'x', next: '/keys' },
  },
  { page: '/dashboard/password/forgot', action: '/dashboard/password/forgot', session: false, fields: { email: 'fuzz@fuzz.mboa.cm' } },
  {
    page: '/dashboard/password/forgot',
    action: '/dashboard/password/reset',
    session: false,
    fields: { token: 'A'.repeat(43), password: 'a long passphrase' },
  },
  {
    page: '/dashboard/contact-sales',
    action: '/dashboard/contact-sales',
    session: false,
    fields: { company: 'Fuzz SA', contactName: 'Awa', email: 'awa@fuzz.mboa.cm', phone: '+237 699 00 11 22', message: 'Hello' },
    multiline: ['message'],
  },
  {
    page: '/dashboard/account',
    action: '/dashboard/account/password',
    session: true,
    fields: { current: 'not it', next: 'another passphrase' },
  },
  { page: '/dashboard/account', action: '/dashboard/account/close', session: true, fields: { closePassword: 'not it' } },
  { page: '/dashboard/keys', action: '/dashboard/keys', session: true, fields: { name: 'Fuzz key', kind: 'test' } },
  { page: '/dashboard/keys', action: '/dashboard/keys/key_doesnotexist/revoke', session: true, fields: { back: '/keys' } },
  { page: '/dashboard/keys', action: '/dashboard/keys/key_doesnotexist/rotate', session: true, fields: {} },
  { page: '/dashboard/plans', action: '/dashboard/plans', session: true, fields: { plan: 'starter' } },
  { page: '/dashboard/', action: '/dashboard/verify/resend', session: true, fields: {} },
];

/** GET targets whose query or path a route reads. */
export const DASHBOARD_QUERIES: Array<{ path: (value: string) => string }> = [
  { path: (v) => `/dashboard/verify?token=${v}` },
  { path: (v) => `/dashboard/password/reset?token=${v}` },
  { path: (v) => `/dashboard/login?next=${v}` },
  { path: (v) => `/dashboard/signup?plan=${v}` },
  { path: (v) => `/dashboard/usage?month=${v}` },
  { path: (v) => `/dashboard/billing/invoices/${v}` },
  { path: (v) => `/dashboard/lang/${v}?next=/` },
  { path: (v) => `/dashboard/lang/en?next=${v}` },
  { path: (v) => `/dashboard/assets/${v}` },
];

/** The control characters a one-line field refuses, and a text area too (all but tab, CR, LF). */
export const CONTROL_BYTES = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f'];
export const LINE_BREAKS = ['\n', '\r', '\r\n', '\t'];

/** Whether the dashboard must refuse `value` in a field (multi-line or not). */
export const refusable = (value: string, multiline: boolean) => hasControlCharacter(value, multiline);

const fieldValue = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...CONTROL_BYTES, ...LINE_BREAKS, 'a', '@', '.', ' '), maxLength: 12 }) },
  fc.constantFrom(
    '',
    'a@b.cm',
    'a@b.cm,',
    'a@b.cm;',
    '"x"a@b.cm',
    'n<a@b.cm>',
    'a@b.cm\u0000',
    '\u0000',
    'x'.repeat(5000),
    '%00',
    "' OR '1'='1",
    '\uD800',
    '\u202E',
    '../../etc/passwd',
  ),
);

/** A dashboard form with some of its fields replaced (or added) with fuzzed values. */
export const fuzzedForm = fc.record({
  form: fc.constantFrom(...DASHBOARD_FORMS),
  replace: fc.dictionary(
    fc.constantFrom(
      'company',
      'email',
      'password',
      'plan',
      'next',
      'token',
      'contactName',
      'phone',
      'message',
      'current',
      'closePassword',
      'name',
      'kind',
      'back',
      'extra',
    ),
    fieldValue,
    { maxKeys: 4 },
  ),
});

/** A GET target with a fuzzed value, percent-encoded as a browser would. */
export const fuzzedQuery = fc.record({ target: fc.constantFrom(...DASHBOARD_QUERIES), value: fieldValue });
