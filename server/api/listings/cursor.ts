/**
 * Keyset cursors: opaque base64url of the last row's (sort value, id), the exact total
 * counted on page 1, and a fingerprint of the filters and sort they were made for, all
 * signed so that a cursor edited or reused with other filters is refused (400).
 *
 * Signed with the first of `secrets`; the others (a value rotated out) are still accepted,
 * so a rotation does not break the cursors customers hold. Even a validly signed payload
 * is checked field by field: a signature proves who made a cursor, not that its format
 * is the one this version reads.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../platform/errors.js';

export interface CursorPosition {
  /** Sort column's value of the last row returned (ISO timestamp or price). */
  value: string | number;
  id: string;
  total: number;
}

interface Payload {
  v: 1;
  f: string;
  k: [string | number, string];
  t: number;
}

const LISTING_ID = /^lst_[a-z0-9]{20}$/;

function wellFormed(p: Partial<Payload>): p is Payload {
  return (
    p.v === 1 &&
    typeof p.f === 'string' &&
    Array.isArray(p.k) &&
    p.k.length === 2 &&
    (typeof p.k[0] === 'string' || (typeof p.k[0] === 'number' && Number.isSafeInteger(p.k[0]) && p.k[0] >= 0)) &&
    typeof p.k[1] === 'string' &&
    LISTING_ID.test(p.k[1]) &&
    typeof p.t === 'number' &&
    Number.isSafeInteger(p.t) &&
    p.t >= 0
  );
}

export class CursorCodec {
  private readonly secrets: readonly string[];

  constructor(secrets: string | readonly string[]) {
    this.secrets = typeof secrets === 'string' ? [secrets] : secrets;
    if (this.secrets.length === 0) throw new Error('CursorCodec needs a secret');
  }

  fingerprint(bound: Record<string, unknown>, secret = this.secrets[0]): string {
    const canonical = JSON.stringify(
      Object.keys(bound)
        .sort()
        .map((k) => [k, bound[k] ?? null]),
    );
    return createHmac('sha256', secret).update(canonical).digest('base64url').slice(0, 16);
  }

  encode(bound: Record<string, unknown>, position: CursorPosition): string {
    const payload: Payload = { v: 1, f: this.fingerprint(bound), k: [position.value, position.id], t: position.total };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${sign(this.secrets[0], body)}`;
  }

  decode(cursor: string, bound: Record<string, unknown>): CursorPosition {
    const invalid = (why: string) => new ApiError('invalid_cursor', `${why} Start again without \`cursor\`.`);
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid('The cursor is not one this API issued.');
    const secret = this.secrets.find((s) => sameSignature(sign(s, body), signature));
    if (secret === undefined) throw invalid('The cursor is not one this API issued, or it was altered.');
    let payload: Partial<Payload>;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Payload>;
    } catch {
      throw invalid('The cursor is not one this API issued.');
    }
    if (!payload || typeof payload !== 'object' || !wellFormed(payload)) throw invalid('The cursor is from another version of the API.');
    if (payload.f !== this.fingerprint(bound, secret)) {
      throw invalid('The cursor was issued for other filters or another sort: send the same ones as on the first page.');
    }
    return { value: payload.k[0], id: payload.k[1], total: payload.t };
  }
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(`cursor:${body}`).digest('base64url').slice(0, 22);
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
