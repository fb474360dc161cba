/** Cursors: signed, bound to their filters, rotation-tolerant, and refused when odd in any way. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/platform/errors.js';
import { CursorCodec } from '../../server/api/listings/cursor.js';

const bound = { city: 'douala', status: 'active', sort: 'price' };
const position = { value: 125_000_000, id: 'lst_aaaaaaaaaaaaaaaaaaaa', total: 4_321 };

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('invalid_cursor');
    return (err as ApiError).detail;
  }
  throw new Error('the cursor was accepted');
}

describe('CursorCodec', () => {
  const codec = new CursorCodec('a-cursor-secret-of-thirty-two-chars!');

  it('gives back the position it was given, for the same filters', () => {
    expect(codec.decode(codec.encode(bound, position), bound)).toEqual(position);
  });

  it('is opaque base64url with a signature', () => {
    expect(codec.encode(bound, position)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  });

  it('refuses it with other filters or another sort', () => {
    const cursor = codec.encode(bound, position);
    expect(refusal(() => codec.decode(cursor, { ...bound, city: 'yaounde' }))).toMatch(/other filters/);
    expect(refusal(() => codec.decode(cursor, { ...bound, sort: '-price' }))).toMatch(/other filters/);
  });

  it('refuses an altered, truncated or foreign cursor', () => {
    const cursor = codec.encode(bound, position);
    const [body, signature] = cursor.split('.');
    const flipped = `${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}.${signature}`;
    for (const bad of [
      flipped,
      body,
      `${cursor}.x`,
      '',
      'not-a-cursor',
      new CursorCodec('another-secret-of-thirty-two-chars!!').encode(bound, position),
    ]) {
      refusal(() => codec.decode(bad, bound));
    }
  });

  it('keeps accepting cursors of a rotated-out secret while it is listed, and signs with the first', () => {
    const old = new CursorCodec('the-old-secret-of-thirty-two-chars!!');
    const rotated = new CursorCodec(['the-new-secret-of-thirty-two-chars!!', 'the-old-secret-of-thirty-two-chars!!']);
    expect(rotated.decode(old.encode(bound, position), bound)).toEqual(position);
    expect(() => old.decode(rotated.encode(bound, position), bound)).toThrow(ApiError);
    const forgotten = new CursorCodec('the-new-secret-of-thirty-two-chars!!');
    refusal(() => forgotten.decode(old.encode(bound, position), bound));
  });

  it('refuses a validly signed payload that is not one this version writes', () => {
    const negative = codec.encode(bound, { ...position, total: -5 });
    refusal(() => codec.decode(negative, bound));
    const badId = codec.encode(bound, { ...position, id: "x'; DROP TABLE listings;--" });
    refusal(() => codec.decode(badId, bound));
  });
});
