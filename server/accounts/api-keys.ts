/**
 * API keys: `mboa_live_` + 32 random base62 characters. Only the SHA-256 of a key and a
 * display prefix are stored; the key itself is shown once, at creation.
 */
import { createHash, randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'mboa_live_';
const KEY_PATTERN = /^mboa_live_[0-9A-Za-z]{32}$/;
/** `mboa_live_` and 6 characters: enough to tell an account's keys apart. */
const DISPLAY_LENGTH = KEY_PREFIX.length + 6;

export function generateApiKey(): { key: string; hash: string; prefix: string } {
  let body = '';
  for (let i = 0; i < 32; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  const key = KEY_PREFIX + body;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, DISPLAY_LENGTH) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Shape check before any lookup: malformed keys never reach the database. */
export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
