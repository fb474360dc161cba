/**
 * Dashboard passwords: scrypt with a random 16-byte salt, stored as a PHC-style string
 * that carries its own parameters (`$scrypt$ln=15,r=8,p=1$<salt>$<hash>`), so the cost
 * can be raised later without breaking existing hashes (see `needsRehash`).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** The rule shown to customers: at least 10 characters, at most 200, not their e-mail. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

export type PasswordProblem = 'too_short' | 'too_long' | 'same_as_email';

/** log2(N) = 15: 32 MiB and a few tens of milliseconds per hash. */
const CURRENT = { ln: 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Bounds on stored parameters: a tampered row must not make a login eat the server. */
const MAX = { ln: 20, r: 16, p: 4 };

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

interface Parsed {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** NFKC, so the same password typed on two keyboards gives the same bytes. */
function normalize(password: string): string {
  return password.normalize('NFKC');
}

export function passwordProblem(password: string, context: { email?: string } = {}): PasswordProblem | null {
  const length = [...normalize(password)].length;
  if (length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (length > PASSWORD_MAX_LENGTH) return 'too_long';
  if (context.email && normalize(password).trim().toLowerCase() === context.email.trim().toLowerCase()) return 'same_as_email';
  return null;
}

function derive(password: string, salt: Buffer, params: { ln: number; r: number; p: number }, keyLength: number): Promise<Buffer> {
  const N = 2 ** params.ln;
  return new Promise((resolve, reject) => {
    scrypt(normalize(password), salt, keyLength, { N, r: params.r, p: params.p, maxmem: 256 * N * params.r }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, CURRENT, KEY_LENGTH);
  return `$scrypt$ln=${CURRENT.ln},r=${CURRENT.r},p=${CURRENT.p}$${b64(salt)}$${b64(hash)}`;
}

function parse(stored: string): Parsed | null {
  const m = PHC.exec(stored);
  if (!m) return null;
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (ln < 10 || ln > MAX.ln || r < 1 || r > MAX.r || p < 1 || p > MAX.p) return null;
  const salt = Buffer.from(m[4], 'base64');
  const hash = Buffer.from(m[5], 'base64');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return null;
  return { ln, r, p, salt, hash };
}

/** Constant-time comparison; false for any stored value it cannot read. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed) {
    // Same work as a real check, so a missing hash does not answer faster.
    await derive(password, DUMMY_SALT, CURRENT, KEY_LENGTH);
    return false;
  }
  const candidate = await derive(password, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

const DUMMY_SALT = randomBytes(SALT_LENGTH);

/** True when a hash was made with weaker parameters than today's: rehash it at login. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.ln < CURRENT.ln || parsed.r < CURRENT.r || parsed.hash.length !== KEY_LENGTH;
}
