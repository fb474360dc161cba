/**
 * Revalues a bank's collateral: every row of a CSV (city, neighborhood, type, purpose, rooms,
 * surface) valued with `valuations.batch()` (1,000 rows per request, in order), and the CSV
 * written back with the estimate, its 80 % range, FSD, confidence, method and sample size
 * beside each row. A row Mboa cannot value honestly (too few comparables, an unknown place)
 * gets its reason instead of a number, and is not charged. Valuations are Enterprise: the
 * demo Enterprise key by default.
 *
 *   npx tsx examples/07-revalue-collateral.ts [--in examples/collateral.csv] [--out .mboa-data/examples/collateral-valued.csv]
 *   npx tsx examples/07-revalue-collateral.ts --generate 10000   # a 10,000-line loan book first, then valued
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PropertyType, Purpose } from '@mboa/sdk';
import { client, flags, OUTPUT_DIR, run } from './shared.js';

const args = flags(
  `
Values every row of a collateral CSV and writes estimate, range and confidence beside it.

  --in FILE    CSV with columns ref, city, neighborhood, type, purpose, bedrooms, surface (default examples/collateral.csv)
  --out FILE   where to write the valued CSV (default ${join(OUTPUT_DIR, 'collateral-valued.csv')})
  --generate N first write a loan book of N rows to ${join(OUTPUT_DIR, 'collateral-N.csv')} (rows drawn from --in) and value that
`,
  {
    in: { type: 'string', default: 'examples/collateral.csv' },
    out: { type: 'string', default: join(OUTPUT_DIR, 'collateral-valued.csv') },
    generate: { type: 'string' },
  },
);

/** A simple CSV line: fields without commas or quotes, as a collateral register exports them. */
const split = (line: string) => line.split(',').map((f) => f.trim());
/** A cell written back: quoted where needed, and a text that begins like a formula behind an apostrophe (OWASP). */
const quote = (v: string | number) => {
  const s = typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');

/** A loan book of `n` rows: the rows of `template` again and again, each with its own ref and a bedroom more or less. */
function generate(template: string, n: number): string {
  const [header, ...rows] = readLines(template);
  const columns = split(header);
  const lines = [header];
  for (let i = 0; i < n; i++) {
    const cells = split(rows[i % rows.length]);
    const row = Object.fromEntries(columns.map((c, j) => [c, cells[j] ?? '']));
    row.ref = `LOAN-${String(i + 1).padStart(6, '0')}`;
    if (row.bedrooms !== '' && row.bedrooms !== undefined) row.bedrooms = String(Math.max(0, Number(row.bedrooms) + ((i % 3) - 1)));
    lines.push(columns.map((c) => row[c]).join(','));
  }
  const file = join(OUTPUT_DIR, `collateral-${n}.csv`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${lines.join('\n')}\n`);
  console.log(`${n.toLocaleString('en-US')} rows written to ${file}`);
  return file;
}

run(async () => {
  const mboa = client('enterprise');
  const input = args.generate === undefined ? args.in : generate(args.in, Number(args.generate));
  const [header, ...lines] = readLines(input);
  const columns = split(header);
  const rows = lines.map((line) => split(line));
  const number = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
  const subjects = rows.map((cells) => {
    const row = Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
    return {
      city: row.city,
      ...(row.neighborhood ? { neighborhood: row.neighborhood } : {}),
      type: row.type as PropertyType,
      purpose: (row.purpose || 'sale') as Purpose,
      bedrooms: number(row.bedrooms),
      surface: number(row.surface),
    };
  });
  const started = Date.now();
  const { data, valued, requests } = await mboa.valuations.batch(subjects);
  const seconds = (Date.now() - started) / 1000;
  const out = [[...columns, 'estimate_xaf', 'low_xaf', 'high_xaf', 'fsd', 'confidence', 'method', 'sample_size', 'note'].join(',')];
  const chatty = rows.length <= 20;
  for (const item of data) {
    const cells = rows[item.index];
    const ref = cells[columns.indexOf('ref')];
    if ('data' in item) {
      const e = item.data.estimate;
      out.push(
        [...cells, e.price, e.low, e.high, e.fsd, e.confidence, item.data.method, item.data.sample_size, 'asking prices']
          .map(quote)
          .join(','),
      );
      if (chatty)
        console.log(
          `${ref}: ${e.price.toLocaleString('fr-FR')} XAF [${e.low.toLocaleString('fr-FR')} – ${e.high.toLocaleString('fr-FR')}], ${e.confidence}`,
        );
    } else {
      out.push([...cells, '', '', '', '', '', '', '', `not valued: ${item.error.message}`].map(quote).join(','));
      if (chatty) console.log(`${ref}: not valued (${item.error.message})`);
    }
  }
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${out.join('\n')}\n`);
  console.log(
    `\n${rows.length.toLocaleString('en-US')} rows (${valued.toLocaleString('en-US')} valued, charged as many calls) in ${requests} batch request(s), ${seconds.toFixed(1)} s; written to ${args.out}`,
  );
});
