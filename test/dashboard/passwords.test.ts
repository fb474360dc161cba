/** Password hashing: scrypt, random salt, parameters stored with the hash, constant-time check. */
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from '../../server/accounts/passwords.js';

describe('passwords', () => {
  it('stores scrypt with its parameters and a random salt', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
  });

  it('verifies the right password and refuses any other', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('refuses a missing, malformed or tampered hash without throwing', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', null)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plain-text')).toBe(false);
    expect(await verifyPassword('correct horse battery', stored.replace('ln=15', 'ln=30'))).toBe(false); // absurd cost
    const tampered = stored.slice(0, -2) + (stored.endsWith('AA') ? 'BB' : 'AA');
    expect(await verifyPassword('correct horse battery', tampered)).toBe(false);
  });

  it('reads older, weaker hashes and asks for a rehash', async () => {
    const salt = randomBytes(16);
    const hash = scryptSync('correct horse battery', salt, 32, { N: 2 ** 12, r: 8, p: 1 });
    const old = `$scrypt$ln=12,r=8,p=1$${salt.toString('base64').replace(/=+$/, '')}$${hash.toString('base64').replace(/=+$/, '')}`;
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('correct horse battery'))).toBe(false);
  });

  it('treats the same text typed two ways (composed or not) as the same password', async () => {
    const stored = await hashPassword('café au lait du matin');
    expect(await verifyPassword('cafe\u0301 au lait du matin', stored)).toBe(true);
  });

  it('states the rule: at least 10 characters, at most 200, not the e-mail', () => {
    expect(passwordProblem('short')).toBe('too_short');
    expect(passwordProblem('123456789')).toBe('too_short');
    expect(passwordProblem('1234567890')).toBeNull();
    expect(passwordProblem('x'.repeat(201))).toBe('too_long');
    expect(passwordProblem('Ana@Bank.cm', { email: 'ana@bank.cm' })).toBe('same_as_email');
    expect(passwordProblem('ééééééééé')).toBe('too_short'); // characters, not bytes
  });
});
