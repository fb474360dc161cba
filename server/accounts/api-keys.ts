/**
 * API keys: `mboa_live_` or `mboa_test_` + 32 random base62 characters. Live keys read the
 * data and count against the quota; test keys read a fixed public sample and are never
 * counted (the request chain reads `api_keys.kind`). Only the SHA-256 of a key and a display
 * prefix are stored; the key itself is shown once, at creation.
 */
import { hash, randomInt } from 'node:crypto';

export type KeyKind = 'live' | 'test';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIXES: Record<KeyKind, string> = { live: 'mboa_live_', test: 'mboa_test_' };
/** Kept for callers that only know live keys. */
export const KEY_PREFIX = KEY_PREFIXES.live;
const KEY_PATTERN = /^mboa_(live|test)_[0-9A-Za-z]{32}$/;
/** `mboa_live_` and 6 characters: enough to tell an account's keys apart. */
const DISPLAY_LENGTH = KEY_PREFIX.length + 6;

export function generateApiKey(kind: KeyKind = 'live'): { key: string; hash: string; prefix: string } {
  let body = '';
  for (let i = 0; i < 32; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  const key = KEY_PREFIXES[kind] + body;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, DISPLAY_LENGTH) };
}

/** Run on every API call: the one-shot `hash` costs half of a `createHash` object's round trip. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Shape check before any lookup: malformed keys never reach the database. Live and test keys pass. */
export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The kind a well-formed key announces by its prefix. */
export function kindOfKey(key: string): KeyKind {
  return key.startsWith(KEY_PREFIXES.test) ? 'test' : 'live';
}
