/**
 * The text of a feed file, decoded chunk by chunk with bounded memory: UTF-8, or the
 * Windows-1252 that Excel writes when it saves a CSV in French. `auto` (the default)
 * decides on the first bytes that are not ASCII (ASCII reads the same in both): UTF-8 if
 * they are valid UTF-8, Windows-1252 otherwise; a UTF-8 byte order mark settles it at
 * once. So `Yaoundé` written as the single byte E9 is read as `Yaoundé`, never `Yaound�`.
 *
 * A file that turns out invalid after UTF-8 was chosen (a file of two encodings) keeps
 * being read as UTF-8: its undecodable bytes become U+FFFD, and the row that holds one is
 * rejected naming its field (partner-row.ts), rather than stored with a wrong letter.
 */
import { isUtf8 } from 'node:buffer';

export const FEED_ENCODINGS = ['auto', 'utf-8', 'windows-1252'] as const;
export type FeedEncoding = (typeof FEED_ENCODINGS)[number];
export type DecidedEncoding = Exclude<FeedEncoding, 'auto'>;

const BOM = [0xef, 0xbb, 0xbf];

/** Bytes at the end of `buf` that begin a UTF-8 sequence still to be completed. */
function incompleteTail(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

function firstNonAscii(buf: Buffer, end: number): number {
  for (let i = 0; i < end; i++) if (buf[i] > 0x7f) return i;
  return -1;
}

export class FeedDecoder {
  private decided: DecidedEncoding | null;
  private decoder: TextDecoder | null = null;
  /** Undecided: the start of a multi-byte sequence cut by the end of the last chunk. */
  private carry: Buffer = Buffer.alloc(0);
  private atStart = true;

  constructor(encoding: FeedEncoding = 'auto') {
    this.decided = null;
    if (encoding !== 'auto') this.decide(encoding);
  }

  /** The encoding in use; `utf-8` for a file with no byte beyond ASCII. */
  get encoding(): DecidedEncoding {
    return this.decided ?? 'utf-8';
  }

  write(chunk: Buffer): string {
    if (this.decoder) return this.decoder.decode(chunk, { stream: true });
    const buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = Buffer.alloc(0);
    if (this.atStart && buf.length > 0) {
      const bomBytes = BOM.slice(0, buf.length);
      if (bomBytes.every((b, i) => buf[i] === b)) {
        if (buf.length >= 3) return this.decide('utf-8').decode(buf, { stream: true });
        this.carry = buf; // maybe the start of a byte order mark
        return '';
      }
      this.atStart = false;
    }
    const complete = buf.length - incompleteTail(buf);
    const at = firstNonAscii(buf, complete);
    if (at === -1) {
      this.carry = Buffer.from(buf.subarray(complete));
      return buf.toString('latin1', 0, complete);
    }
    const chosen = isUtf8(buf.subarray(at, complete)) ? 'utf-8' : 'windows-1252';
    return this.decide(chosen).decode(buf, { stream: true });
  }

  end(): string {
    if (this.decoder) return this.decoder.decode();
    if (this.carry.length === 0) return '';
    // The file ends inside what would be a UTF-8 sequence: it is not UTF-8.
    return this.decide('windows-1252').decode(this.carry);
  }

  private decide(encoding: DecidedEncoding): TextDecoder {
    this.decided = encoding;
    this.decoder = new TextDecoder(encoding);
    return this.decoder;
  }
}

/** `--encoding` as given, or null when it is not one of FEED_ENCODINGS. */
export function feedEncoding(value: string): FeedEncoding | null {
  const v = value.trim().toLowerCase();
  if (v === 'utf8') return 'utf-8';
  if (v === 'cp1252' || v === 'windows1252') return 'windows-1252';
  return (FEED_ENCODINGS as readonly string[]).includes(v) ? (v as FeedEncoding) : null;
}
