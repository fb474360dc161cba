/**
 * E-mail addresses: one mailbox, written one way. What the dashboard, the CLI and the
 * contact form accept, and the form in which accounts are stored and compared.
 */
import { describe, expect, it } from 'vitest';
import { normalizeEmail } from '../../server/accounts/accounts.js';
import { escapeForTerminal, hasControlCharacter } from '../../server/platform/text.js';

describe('normalizeEmail', () => {
  it('lower-cases the whole address and drops surrounding spaces, nothing else', () => {
    expect(normalizeEmail('Awa.Ndongo@Assur.CM')).toBe('awa.ndongo@assur.cm');
    expect(normalizeEmail('  a@x.cm  ')).toBe('a@x.cm');
    // Dots and tags are distinct mailboxes at many providers: kept.
    expect(normalizeEmail('a.b+tag@x.cm')).toBe('a.b+tag@x.cm');
    for (const ok of ["o'brien@x.cm", 'a_b-c@sub.x.co.cm', 'x@xn--bcher-kva.cm', '1@2.io', `${'a'.repeat(64)}@x.cm`])
      expect(normalizeEmail(ok), ok).toBe(ok);
  });

  it('refuses anything but one mailbox: lists, display names, quotes, stray dots, spaces, control characters', () => {
    const refused = [
      'a@x.cm,',
      'a@x.cm;',
      'a@x.cm,,',
      'a@x.cm.',
      'a@x.cm>',
      '<a@x.cm>',
      'n<a@x.cm>',
      '"x"a@x.cm',
      '"a"@x.cm',
      'a@x.cm, b@x.cm',
      'a b@x.cm',
      'a@x .cm',
      'a@@x.cm',
      'a@b@x.cm',
      '.a@x.cm',
      'a.@x.cm',
      'a..b@x.cm',
      'a@x..cm',
      'a@.x.cm',
      'a@-x.cm',
      'a@x-.cm',
      'a@x',
      'a@x.c',
      'a@x.123',
      'a@[127.0.0.1]',
      'a(comment)@x.cm',
      'a\\b@x.cm',
      'a@x.cm\u0000',
      '\u0000a@x.cm',
      'a\u0001@x.cm',
      'a@x.cm\n',
      'a@x.cm\r\nBcc: b@x.cm',
      '\ta@x.cm',
      'a@x.cm\u00a0',
      'anaïs@x.cm',
      'a@exämple.cm',
      '',
      '@x.cm',
      'a@',
      `${'a'.repeat(65)}@x.cm`,
      `a@${'b'.repeat(250)}.cm`,
    ];
    for (const address of refused) expect(() => normalizeEmail(address), JSON.stringify(address)).toThrow(/not an e-mail address/);
  });
});

describe('control characters and terminal text', () => {
  it('finds C0 bytes and DEL, letting a text area’s line breaks and tabs through', () => {
    for (const c of ['\u0000', '\u0001', '\u001b', '\u007f', '\n', '\r', '\t'])
      expect(hasControlCharacter(`a${c}`), JSON.stringify(c)).toBe(true);
    for (const c of ['\n', '\r', '\t']) expect(hasControlCharacter(`a${c}b`, true)).toBe(false);
    for (const c of ['\u0000', '\u000b', '\u001b', '\u007f']) expect(hasControlCharacter(`a${c}b`, true)).toBe(true);
    expect(hasControlCharacter('Yaoundé 🏠 \u202e')).toBe(false);
  });

  it('escapes line breaks, control characters, separators and direction overrides into one printable line', () => {
    expect(escapeForTerminal('a\nb\r\tc')).toBe('a\\nb\\r\\tc');
    expect(escapeForTerminal('\u001b[2J\u0000\u0085\u2028\u2029\u202e\u2066')).toBe(
      '\\u{001b}[2J\\u{0000}\\u{0085}\\u{2028}\\u{2029}\\u{202e}\\u{2066}',
    );
    expect(escapeForTerminal('back\\slash')).toBe('back\\\\slash');
    expect(escapeForTerminal('Société Générale — ok')).toBe('Société Générale — ok');
  });
});
