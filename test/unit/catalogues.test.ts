/**
 * The one catalogue mechanism of text for people (platform/i18n.ts), and the e-mails'
 * catalogue through it: every message in both languages with the same parameters. (The
 * dashboard's is checked the same way in test/dashboard/pages.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { mailMessageKeys, t as mailText } from '../../server/mail/messages.js';
import { catalogue } from '../../server/platform/i18n.js';

describe('catalogue', () => {
  const { t, keys } = catalogue(
    { greet: { en: 'Hello {name}, {name}', fr: 'Bonjour {name}, {name}' } },
    { count: { en: (p) => `${p.n} call${p.n === 1 ? '' : 's'}`, fr: (p) => `${p.n} appel${Number(p.n) > 1 ? 's' : ''}` } },
  );

  it('fills every {parameter}, leaves an unknown one as written, and never reads one inside a value', () => {
    expect(t('en', 'greet', { name: 'Ada' })).toBe('Hello Ada, Ada');
    expect(t('fr', 'greet')).toBe('Bonjour {name}, {name}');
    expect(t('en', 'greet', { name: '{name} $& $1' })).toBe('Hello {name} $& $1, {name} $& $1');
  });

  it('lets grammar count, and lists its keys in order', () => {
    expect(t('en', 'count', { n: 1 })).toBe('1 call');
    expect(t('fr', 'count', { n: 2 })).toBe('2 appels');
    expect(keys()).toEqual(['greet', 'count']);
  });

  it('refuses a key written in two parts', () => {
    expect(() => catalogue({ a: { en: 'A', fr: 'A' } }, { a: { en: 'B', fr: 'B' } })).toThrow('message a is defined twice');
  });
});

describe("the e-mails' catalogue", () => {
  it('has every message in French and English, with the same parameters', () => {
    const names = ['company', 'url', 'when', 'name', 'prefix', 'oldPrefix', 'until', 'used', 'limit', 'month', 'resets', 'number'];
    const sample = {
      ...Object.fromEntries(names.map((k) => [k, k.toUpperCase()])),
      ...Object.fromEntries(['total', 'due', 'suspendOn'].map((k) => [k, k.toUpperCase()])),
      ...Object.fromEntries(['hours', 'minutes', 'years'].map((k) => [k, 2])),
    };
    expect(mailMessageKeys().length).toBeGreaterThan(40);
    for (const key of mailMessageKeys()) {
      const fr = mailText('fr', key, sample);
      const en = mailText('en', key, sample);
      expect(fr.trim(), key).not.toBe('');
      expect(en.trim(), key).not.toBe('');
      expect(fr, `${key} left a {parameter}`).not.toMatch(/\{\w+\}/);
      expect(en, `${key} left a {parameter}`).not.toMatch(/\{\w+\}/);
      const params = (lang: 'fr' | 'en') => [...mailText(lang, key).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(params('fr'), key).toEqual(params('en'));
    }
  });
});
