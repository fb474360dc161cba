/**
 * Peak memory stays bounded on any input: a 50 MB line (in a CSV cell, in an open quote,
 * in NDJSON) is rejected as one unreadable record, the import's peak RSS stays near that
 * of any small import, and the report stays small. Measured in a child process of its own
 * (`process.resourceUsage().maxRSS`), a dry run, so the database plays no part.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workdir, type Workdir } from './helpers.js';

let work: Workdir;
beforeAll(() => {
  work = workdir();
});
afterAll(() => work.remove());

const MB50 = 50 * 1024 * 1024;
/** Peak RSS allowed: a small import measures about 170 MB here; before the fix a 50 MB line took 1.16 GB. */
const MAX_RSS_MB = 320;

function importInChild(file: string, format: 'csv' | 'ndjson'): { maxRssMB: number; counts: Record<string, number>; reasons: string[] } {
  const code = `
    import { importFile } from './server/ingest/import.ts';
    const r = await importFile(null, { file: ${JSON.stringify(file)}, format: '${format}', source: 'memory', dryRun: true });
    console.log(JSON.stringify({ maxRssMB: process.resourceUsage().maxRSS / 1024, counts: r.counts, reasons: r.rejected_sample.map((x) => x.reason) }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 120_000 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as { maxRssMB: number; counts: Record<string, number>; reasons: string[] };
}

const HEADER = 'source_ref,title,price,city,neighborhood,type,purpose\n';
const GOOD_CSV = 'G-1,Studio,60000,Douala,Akwa,studio,rent\n';
const GOOD_JSON = '{"source_ref":"G-1","price":60000,"city":"Douala","neighborhood":"Akwa","type":"studio","purpose":"rent"}\n';

describe('a 50 MB line', () => {
  it.each([
    ['in a CSV reference', 'cell.csv', 'csv', (x: string) => `${HEADER}${x},Studio,60000,Douala,Akwa,studio,rent\n${GOOD_CSV}`, 2],
    ['after an open quote', 'quote.csv', 'csv', (x: string) => `${HEADER}L-1,"${x},60000,Douala,Akwa,studio,rent\n${GOOD_CSV}`, 2],
    ['in NDJSON', 'line.ndjson', 'ndjson', (x: string) => `{"source_ref":"${x}"}\n${GOOD_JSON}`, 1],
  ] as const)('%s: one record rejected, the next read, peak RSS bounded, the report small', (_, name, format, text, line) => {
    const file = join(work.dir, name);
    writeFileSync(file, text('x'.repeat(MB50)));
    const r = importInChild(file, format);
    expect(r.counts).toMatchObject({ records: 2, accepted: 1, rejected: 1, unreadable: 1 });
    expect(r.reasons).toEqual([`line ${line} is longer than 1048576 bytes, the limit of one record: not read`]);
    expect(r.maxRssMB).toBeLessThan(MAX_RSS_MB);
    expect(statSync(`${file}.report.json`).size).toBeLessThan(2_000);
    expect(JSON.parse(readFileSync(`${file}.report.json`, 'utf8')).rejected).toHaveLength(1);
  });
});
