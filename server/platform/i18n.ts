/**
 * The one mechanism of Mboa's text for people: catalogues of messages in French and
 * English side by side (Cameroon is bilingual: a message cannot exist in one language
 * only; the type checker holds both). Messages take `{name}` parameters, or are functions
 * where grammar needs a count. The dashboard, the e-mails and the invoices each keep their
 * catalogue, written in parts (one per page or subject) and read through `catalogue`.
 */
import type { Lang } from './lang.js';

export type Params = Record<string, string | number>;
export type Message = string | ((p: Params) => string);
/** Messages by key, each in both languages. */
export type Messages = Record<string, Record<Lang, Message>>;

export interface Catalogue<K extends string> {
  /** The message `key` in `lang`, its `{name}` parameters filled from `params` (an unknown one is left as written). */
  t(lang: Lang, key: K, params?: Params): string;
  /** Every key, for completeness tests. */
  keys(): K[];
}

type KeysOf<P extends Messages[]> = { [I in keyof P]: keyof P[I] & string }[number];

/** One catalogue from its parts; a key given by two parts is a mistake, refused at start. */
export function catalogue<P extends Messages[]>(...parts: P): Catalogue<KeysOf<P>> {
  const messages: Messages = {};
  for (const part of parts) {
    for (const [key, message] of Object.entries(part)) {
      if (key in messages) throw new Error(`message ${key} is defined twice`);
      messages[key] = message;
    }
  }
  return {
    t(lang, key, params = {}) {
      const msg = messages[key][lang];
      if (typeof msg === 'function') return msg(params);
      return msg.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
    },
    keys: () => Object.keys(messages) as KeysOf<P>[],
  };
}

/** For messages that count: the number in parameter `k` (formatted numbers included: `1 234`). */
export const n = (p: Params, k = 'n') => Number(String(p[k]).replace(/\D/g, ''));
/** English plural ending: none for 1. */
export const s = (count: number) => (count === 1 ? '' : 's');
/** French plural ending: French keeps the singular for 0 and 1. */
export const sf = (count: number) => (count <= 1 ? '' : 's');
