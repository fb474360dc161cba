/**
 * Revalues a bank's collateral: every row of a CSV (city, quarter, type, purpose, rooms,
 * surface) valued with `valuations.get()`, and the CSV written back with the estimate, its
 * 80 % range, FSD, confidence, method and sample size beside each row. A row Mboa cannot
 * value honestly (too few comparables, an unknown place) gets its reason instead of a
 * number. Valuations are Enterprise: the demo Enterprise key by default.
 *
 *   npx tsx examples/07-revalue-collateral.ts [--in examples/collateral.csv] [--out .mboa-data/examples/collateral-valued.csv]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { APIError, type PropertyType, type Purpose } from '@mboa/sdk';
import { client, flags, OUTPUT_DIR, run } from './shared.js';

const args = flags(
  `
Values every row of a collateral CSV and writes estimate, range and confidence beside it.

  --in FILE    CSV with columns ref, city, quarter, type, purpose, bedrooms, surface (default examples/collateral.csv)
  --out FILE   where to write the valued CSV (default ${join(OUTPUT_DIR, 'collateral-valued.csv')})
`,
  {
    in: { type: 'string', default: 'examples/collateral.csv' },
    out: { type: 'string', default: join(OUTPUT_DIR, 'collateral-valued.csv') },
  },
);

/** A simple CSV line: fields without commas or quotes, as a collateral register exports them. */
const split = (line: string) => line.split(',').map((f) => f.trim());
/** A cell written back: quoted where needed, and a text that begins like a formula behind an apostrophe (OWASP). */
const quote = (v: string | number) => {
  const s = typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

run(async () => {
  const mboa = client('enterprise');
  const [header, ...lines] = readFileSync(args.in, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const columns = split(header);
  const out = [[...columns, 'estimate_xaf', 'low_xaf', 'high_xaf', 'fsd', 'confidence', 'method', 'sample_size', 'note'].join(',')];
  for (const line of lines) {
    const cells = split(line);
    const row = Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
    const number = (v: string) => (v === '' ? undefined : Number(v));
    try {
      const { data } = await mboa.valuations.get({
        city: row.city,
        ...(row.quarter ? { neighborhood: row.quarter } : {}),
        type: row.type as PropertyType,
        purpose: (row.purpose || 'sale') as Purpose,
        bedrooms: number(row.bedrooms),
        surface: number(row.surface),
      });
      const e = data.estimate;
      out.push(
        [...cells, e.price, e.low, e.high, e.fsd, e.confidence, data.method, data.sample_size, 'asking prices'].map(quote).join(','),
      );
      console.log(
        `${row.ref}: ${e.price.toLocaleString('fr-FR')} XAF [${e.low.toLocaleString('fr-FR')} – ${e.high.toLocaleString('fr-FR')}], ${e.confidence}`,
      );
    } catch (err) {
      if (!(err instanceof APIError) || err.status >= 500) throw err;
      out.push([...cells, '', '', '', '', '', '', '', `not valued: ${err.message}`].map(quote).join(','));
      console.log(`${row.ref}: not valued (${err.message})`);
    }
  }
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${out.join('\n')}\n`);
  console.log(`\n${lines.length} rows written to ${args.out}`);
});
