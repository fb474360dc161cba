/**
 * Repeats: the same advert met twice is stored once. Crawled portals repeat adverts (the
 * same advert crawled again under a new reference, an agent's identical units posted one
 * by one), and every repeat would otherwise count again in each volume and median.
 *
 * "The same advert" is the same source and the same content fingerprint: an MD5 digest of
 * what the advert says (see `AdvertContent`), never its reference or its dates, which a
 * re-crawl changes. The digest is stored in `listings.fingerprint`; migration
 * 20261125060100_listing_fingerprints defines `listing_fingerprint()`, the same digest in
 * SQL, byte for byte (test/ingest/repeats.test.ts checks both on every stored listing).
 *
 * The canonical bytes, field after field: a null is 0x00; a number 0x01 and its IEEE 754
 * double, big-endian (PostgreSQL's `float8send`; -0 as 0); a text 0x02, its UTF-8 length
 * as a big-endian int32 (`int4send`) and its UTF-8 bytes. A title is folded first: ASCII
 * letters in lower case, runs of spaces, tabs and line breaks as one space, trimmed (ASCII
 * only, so that PostgreSQL gives the same bytes whatever its locale).
 */
import { hash } from 'node:crypto';

/** What makes two adverts of one source the same (keys as stored, see columns.ts). */
export interface AdvertContent {
  cityKey: string;
  neighborhoodKey: string | null;
  /** The quarter as resolved (a sub-quarter keeps its own name), or null. */
  neighborhood: string | null;
  /** The feed's quarter name when it did not resolve. */
  rawNeighborhood: string | null;
  type: string;
  purpose: string;
  price: number;
  surface: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  title: string;
  lat: number | null;
  lng: number | null;
  /** Private: only its digits enter the digest, which never leaves the database. */
  contactPhone: string | null;
}

const ASCII_UPPER = /[A-Z]+/g;
const BLANKS = /[ \t\n\v\f\r]+/g;

export function foldTitle(title: string): string {
  return title
    .replace(ASCII_UPPER, (s) => s.toLowerCase())
    .replace(BLANKS, ' ')
    .replace(/^ | $/g, '');
}

/** Canonical bytes of one advert, built in a buffer reused from call to call. */
class Canonical {
  private buf = Buffer.allocUnsafe(1024);
  len = 0;

  private reserve(bytes: number): void {
    if (this.len + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + bytes));
    this.buf.copy(grown, 0, 0, this.len);
    this.buf = grown;
  }

  text(v: string | null): void {
    if (v === null) return this.nil();
    this.reserve(5 + v.length * 3);
    this.buf[this.len] = 0x02;
    const n = this.buf.write(v, this.len + 5, 'utf8');
    this.buf.writeInt32BE(n, this.len + 1);
    this.len += 5 + n;
  }

  number(v: number | null): void {
    if (v === null) return this.nil();
    this.reserve(9);
    this.buf[this.len] = 0x01;
    this.buf.writeDoubleBE(v + 0, this.len + 1);
    this.len += 9;
  }

  private nil(): void {
    this.reserve(1);
    this.buf[this.len++] = 0x00;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

const canonical = new Canonical();

/** The advert's 16-byte MD5 digest, as a string of 16 Latin-1 characters. */
export function advertFingerprint(a: AdvertContent): string {
  const c = canonical;
  c.len = 0;
  c.text(a.cityKey);
  c.text(a.neighborhoodKey);
  c.text(a.neighborhood);
  c.text(a.rawNeighborhood);
  c.text(a.type);
  c.text(a.purpose);
  c.number(a.price);
  c.number(a.surface);
  c.number(a.bedrooms);
  c.number(a.bathrooms);
  c.text(foldTitle(a.title));
  c.number(a.lat);
  c.number(a.lng);
  const digits = a.contactPhone === null ? '' : a.contactPhone.replace(/[^0-9]/g, '');
  c.text(digits === '' ? null : digits);
  return hash('md5', c.bytes(), 'binary');
}

/** The digest as the hex text the database decodes into `listings.fingerprint`. */
export function fingerprintHex(fingerprint: string): string {
  return Buffer.from(fingerprint, 'latin1').toString('hex');
}

/**
 * The active adverts met so far in one file, by fingerprint, with the reference of the row
 * that brought each. Bounded by the file's distinct adverts: about 140 MB per million (a
 * 16-character key and the reference per entry; bench/README.md), the only part of an
 * import's memory that grows with the file.
 */
export class AdvertsSeen {
  private readonly firstRef = new Map<string, string>();

  /**
   * The reference of an earlier row with the same fingerprint under another reference:
   * this row repeats it. Else undefined, and the row is remembered if it is the first.
   */
  repeated(fingerprint: string, sourceRef: string): string | undefined {
    const first = this.firstRef.get(fingerprint);
    if (first === undefined) this.firstRef.set(fingerprint, sourceRef);
    return first === sourceRef ? undefined : first;
  }
}

/**
 * The references of the valid rows met so far in one file, with the line of each. A
 * reference met again in the same file is held (not stored): one file is one moment of
 * the feed, so its second row is no price change but a duplicate to report. Bounded by
 * the file's distinct references (at most 200 characters each).
 */
export class ReferencesInFile {
  private readonly lineOf = new Map<string, number>();

  /** The line of the earlier row with this reference, or undefined (and this row is remembered). */
  earlier(sourceRef: string, line: number): number | undefined {
    const first = this.lineOf.get(sourceRef);
    if (first === undefined) this.lineOf.set(sourceRef, line);
    return first;
  }
}
