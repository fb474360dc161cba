/**
 * What every example needs: a client for the local server, command-line flags, and a
 * `run()` that prints a failure clearly and exits non-zero.
 *
 * The key comes from MBOA_API_KEY, or else from the demo keys the server writes on its
 * first start (`${MBOA_DATA_DIR:-.mboa-data}/demo-keys.json`), so the examples work on a
 * fresh clone after `npm start`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConnectionError, Mboa, MboaError, type ClientOptions, type PlanName } from '@mboa/sdk';

export const BASE_URL = process.env.MBOA_BASE_URL || 'http://localhost:3000';
export const DATA_DIR = resolve(process.env.MBOA_DATA_DIR || '.mboa-data');
/** Where examples keep their output and state by default (git-ignored with the data dir). */
export const OUTPUT_DIR = join(DATA_DIR, 'examples');

/** The API key: MBOA_API_KEY, else the server's demo key of `plan`. */
export function apiKey(plan: PlanName): string {
  if (process.env.MBOA_API_KEY) return process.env.MBOA_API_KEY;
  const file = join(DATA_DIR, 'demo-keys.json');
  if (!existsSync(file)) {
    throw new Error(`No API key: set MBOA_API_KEY, or start the server once (npm start) so it writes ${file}.`);
  }
  const keys = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<PlanName, string>>;
  const key = keys[plan];
  if (!key) throw new Error(`${file} has no "${plan}" key; set MBOA_API_KEY.`);
  return key;
}

/** A client of the local server, with the key of `plan` unless MBOA_API_KEY is set. */
export function client(plan: PlanName, options: ClientOptions = {}): Mboa {
  return new Mboa({ apiKey: apiKey(plan), baseUrl: BASE_URL, ...options });
}

/** Parses `--flags` (unknown ones are an error); `--help` prints `usage` and exits. */
export function flags<T extends NonNullable<ParseArgsConfig['options']>>(usage: string, options: T) {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(usage.trim());
    process.exit(0);
  }
  try {
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    console.error(`${(err as Error).message}. See --help.`);
    process.exit(2);
  }
}

/** Runs an example: on failure, says what happened (and the request id) on stderr and exits 1. */
export function run(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`\nFailed: ${err instanceof Error ? err.message : String(err)}`);
      if (err instanceof ConnectionError && err.code === 'connection_error') {
        console.error(`Is the API running at ${BASE_URL}? Start it with \`npm start\`, or set MBOA_BASE_URL.`);
      }
      if (err instanceof MboaError && err.requestId) console.error(`Request id: ${err.requestId}`);
      process.exit(1);
    },
  );
}

/** `450000000` as `450 000 000` (the grouping used in Cameroon), `null` as `-`. */
export function xaf(amount: number | null): string {
  return amount === null ? '-' : Math.round(amount).toLocaleString('fr-FR').replace(/\s/g, ' ');
}

/** Right- or left-aligned text table, for the terminal. */
export function table(headers: string[], rows: string[][], alignLeft = new Set([0])): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (alignLeft.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
