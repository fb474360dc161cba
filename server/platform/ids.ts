import { createHash, randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += BASE32[bytes[i % bytes.length] & 31];
  return out;
}

/**
 * A listing's public id: derived from its feed identity, so a re-import keeps it, but
 * unguessable without the feed's own references. `lst_` + 20 base32 characters.
 */
export function listingId(source: string, sourceRef: string): string {
  const digest = createHash('sha256').update(`mboa-listing\0${source}\0${sourceRef}`).digest();
  return `lst_${base32(digest, 20)}`;
}

/**
 * Random bytes drawn from a 4 KB buffer of the system CSPRNG, refilled when used up: a
 * request id per call must not cost a system call per call.
 */
let buffer = Buffer.alloc(0);
let offset = 0;
function pooledRandomBytes(n: number): Buffer {
  if (offset + n > buffer.length) {
    buffer = randomBytes(4096);
    offset = 0;
  }
  const bytes = buffer.subarray(offset, offset + n);
  offset += n;
  return bytes;
}

/** A random id with a prefix, e.g. `acc_…`, `key_…`, `req_…`. */
export function randomId(prefix: string, length = 16): string {
  return `${prefix}_${base32(pooledRandomBytes(length), length)}`;
}
