/**
 * Keyset cursors: opaque base64url of the last row's (sort value, id), the exact total
 * counted on page 1, and a fingerprint of the filters and sort they were made for, all
 * signed so that a cursor edited or reused with other filters is refused (400).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';

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

export class CursorCodec {
  constructor(private readonly secret: string) {}

  fingerprint(bound: Record<string, unknown>): string {
    const canonical = JSON.stringify(Object.keys(bound).sort().map((k) => [k, bound[k] ?? null]));
    return createHmac('sha256', this.secret).update(canonical).digest('base64url').slice(0, 16);
  }

  encode(bound: Record<string, unknown>, position: CursorPosition): string {
    const payload: Payload = { v: 1, f: this.fingerprint(bound), k: [position.value, position.id], t: position.total };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(cursor: string, bound: Record<string, unknown>): CursorPosition {
    const invalid = (why: string) => new ApiError('invalid_cursor', `${why} Start again without \`cursor\`.`);
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid('The cursor is not one this API issued.');
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw invalid('The cursor is not one this API issued, or it was altered.');
    }
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    } catch {
      throw invalid('The cursor is not one this API issued.');
    }
    if (payload.v !== 1 || !Array.isArray(payload.k)) throw invalid('The cursor is from another version.');
    if (payload.f !== this.fingerprint(bound)) {
      throw invalid('The cursor was issued for other filters or another sort: send the same ones as on the first page.');
    }
    return { value: payload.k[0], id: payload.k[1], total: payload.t };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(`cursor:${body}`).digest('base64url').slice(0, 22);
  }
}
