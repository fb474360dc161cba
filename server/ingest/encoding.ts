/**
 * The text of a feed file, decoded chunk by chunk with bounded memory: UTF-8, or the
 * Windows-1252 that Excel writes when it saves a CSV in French. An import decides the
 * encoding for the whole file before reading any row (`decideEncoding`, below), so that
 * no valid UTF-8 row is ever read in an encoding chosen because of another row; in a file
 * read as UTF-8, undecodable bytes become U+FFFD and the row that holds one is rejected
 * naming its field (partner-row.ts), never stored with a wrong letter.
 *
 * `FeedDecoder` given `auto` decides on its own on the first bytes that are not ASCII
 * (valid UTF-8 or not), for text read without a file to look through first.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';

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

/** How much of one line is looked at to tell its encoding (a longer line is rejected anyway). */
const JUDGED_LINE_BYTES = 1 << 20;

/**
 * The encoding a whole file is read in, decided before any row is read, so that no row
 * is ever read in an encoding chosen from another row. `auto` looks at every line holding
 * bytes beyond ASCII: a file with a UTF-8 byte order mark, or with any such line that is
 * valid UTF-8, is UTF-8 (a line that is not is then rejected, naming its field, never
 * reinterpreted); only a file none of whose lines beyond ASCII is valid UTF-8 (Excel's
 * French Windows-1252, `é` the single byte E9) is Windows-1252. Reads the file once more,
 * a chunk at a time; stops at the first valid UTF-8 line.
 */
export async function decideEncoding(path: string, requested: FeedEncoding = 'auto'): Promise<DecidedEncoding> {
  if (requested !== 'auto') return requested;
  let carry: Buffer = Buffer.alloc(0);
  let carryFull = false;
  let invalidLine = false;
  let first = true;
  /** A whole line (or its first MiB): true when it proves the file is UTF-8. */
  const judge = (line: Buffer): boolean => {
    if (isAscii(line)) return false;
    const cut = line.length >= JUDGED_LINE_BYTES ? line.subarray(0, line.length - incompleteTail(line)) : line;
    if (isUtf8(cut)) return true;
    invalidLine = true;
    return false;
  };
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (first && chunk.length >= 3 && BOM.every((b, i) => chunk[i] === b)) return 'utf-8';
      first = false;
      let start = 0;
      const lastBreak = chunk.lastIndexOf(10);
      if (lastBreak !== -1) {
        // Complete lines: judged together when they are all ASCII or all valid UTF-8.
        const head = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, lastBreak + 1)]) : chunk.subarray(0, lastBreak + 1);
        if (!isAscii(head)) {
          if (isUtf8(head)) return 'utf-8';
          for (let s = 0, nl = head.indexOf(10); nl !== -1; s = nl + 1, nl = head.indexOf(10, s)) {
            if (judge(head.subarray(s, Math.min(nl, s + JUDGED_LINE_BYTES)))) return 'utf-8';
          }
        }
        carry = Buffer.alloc(0);
        carryFull = false;
        start = lastBreak + 1;
      }
      if (!carryFull) {
        const room = JUDGED_LINE_BYTES - carry.length;
        carry = Buffer.concat([carry, chunk.subarray(start, start + room)]);
        carryFull = carry.length >= JUDGED_LINE_BYTES;
      }
    }
  } finally {
    stream.destroy();
  }
  if (carry.length > 0 && judge(carry)) return 'utf-8';
  return invalidLine ? 'windows-1252' : 'utf-8';
}
