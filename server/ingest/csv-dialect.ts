/**
 * The separator of a CSV file, from its header line: a comma, or the semicolon that Excel
 * writes in French (where the comma is the decimal mark), or a tab. Reads the first 64 KiB
 * at most.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const SEPARATORS = [',', ';', '\t'] as const;
export type CsvSeparator = (typeof SEPARATORS)[number];

export function csvSeparator(path: string): CsvSeparator {
  const buf = Buffer.alloc(64 * 1024);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, buf, 0, buf.length, 0);
  } finally {
    closeSync(fd);
  }
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const c of buf.toString('latin1', 0, n)) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best: CsvSeparator = ',';
  for (const s of SEPARATORS) if (counts.get(s)! > counts.get(best)!) best = s;
  return best;
}
