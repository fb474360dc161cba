/**
 * `valuations evaluate --feed FILE --columns MAP --folds K`: a feed imported into a scratch
 * schema (the live tables untouched, the schema gone afterwards), repeats folded so each
 * distinct advert is valued exactly once from the other folds, and the three simple rules
 * re-done here from the rows themselves. On the shared real crawl (when present: it is
 * never committed) the figures are printed and held to what the README publishes.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALUATION_CONFIDENCE_LEVEL, VALUATION_FSD_BANDS, VALUATION_LABEL_PE10 } from '../../contract/valuations.js';
import { Z80 } from '../../server/domain/valuations/calibration.js';
import { crossValidate, type EvalRow, figures, foldOf } from '../../server/domain/valuations/evaluate.js';
import { loadFeedRows } from '../../server/cli/eval-feed.js';
import { ColumnMap } from '../../server/ingest/column-map.js';
import { admin } from '../helpers/admin.js';
import pg from 'pg';
import { itOnServer } from '../helpers/requires.js';

const REAL = join(__dirname, '../../../shared/realdata/koutchoumi-rents.csv');
const MAP = join(__dirname, '../../examples/feeds/portal-crawl.columns.json');
const dir = mkdtempSync(join(tmpdir(), 'mboa-feed-test-'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A small partner feed in its own columns: 3 quarters of Douala, bedrooms driving price, every row repeated twice. */
function syntheticFeed(): { file: string; map: string; distinct: number } {
  const lines = ['Ref;Ville;Quartier;Chambres;Douches;Prix;Meuble'];
  const neighborhoods = [
    ['Makepe', 100_000],
    ['Bonapriso', 250_000],
    ['Logpom', 80_000],
  ] as const;
  let n = 0;
  for (const [q, base] of neighborhoods) {
    for (let i = 0; i < 24; i++) {
      const bedrooms = 1 + (i % 3);
      const price = Math.round((base * (1 + 0.45 * (bedrooms - 1)) * (0.8 + ((i * 37) % 41) / 100)) / 1000) * 1000;
      const row = `${q}-${i};Douala;${q};${bedrooms} chambres;${1 + (i % 2)};${price.toLocaleString('fr-FR').replace(/\u202f/g, ' ')} FCFA;${i % 7 === 0 ? 'oui' : 'non'}`;
      lines.push(row, row.replace(`${q}-${i};`, `${q}-${i}-bis;`));
      n++;
    }
  }
  const file = join(dir, 'partner.csv');
  writeFileSync(file, lines.join('\n') + '\n');
  const map = join(dir, 'partner.columns.json');
  writeFileSync(
    map,
    JSON.stringify({
      columns: {
        Ref: 'source_ref',
        Ville: 'city',
        Quartier: 'neighborhood',
        Chambres: 'bedrooms',
        Douches: 'bathrooms',
        Prix: 'price',
        Meuble: null,
      },
      constants: { type: 'apartment', purpose: 'rent' },
    }),
  );
  return { file, map, distinct: n };
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
let liveBefore: number;
beforeAll(async () => {
  liveBefore = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings')).rows[0].n;
});
afterAll(() => pool.end());
const onServer = itOnServer('the scratch schema is loaded over several connections');
const realCrawl = existsSync(REAL);

describe('valuations evaluate --feed', () => {
  onServer(
    'imports into a scratch schema, folds repeats, values each distinct advert once, and re-does the rules',
    async () => {
      const feed = syntheticFeed();
      const res = await admin(['valuations', 'evaluate', '--feed', feed.file, '--columns', feed.map, '--folds', '4', '--json']);
      expect(res.stderr).not.toMatch(/Error/);
      const out = res.json;
      expect(out.import.rows).toBe(2 * feed.distinct);
      expect(out.import.repeats_folded).toBe(feed.distinct);
      expect(out.adverts).toBe(feed.distinct);
      expect(out.folds).toBe(4);
      expect(out.overall.rows).toBe(feed.distinct);
      // The live data is untouched and the scratch schema is gone.
      expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings')).rows[0].n).toBe(liveBefore);
      const { rowCount } = await pool.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'valuation_eval'`);
      expect(rowCount).toBe(0);
      // Per quarter: three quarters of 24 adverts.
      const neighborhoods = out.sections['by quarter (≥ 5 adverts)'] as Array<[string, { rows: number }]>;
      expect(neighborhoods.map(([q, f]) => [q, f.rows]).sort()).toEqual([
        ['Douala, Bonapriso', 24],
        ['Douala, Logpom', 24],
        ['Douala, Makepe', 24],
      ]);
      expect(out.overall.valued).toBe(feed.distinct);
      expect(out.overall.mdape).toBeLessThan(out.overall.cityMdape);
    },
    120_000,
  );

  it('values each row once from the other folds, and its rules are the medians of the other folds', () => {
    const rows: EvalRow[] = Array.from({ length: 60 }, (_, i) => ({
      id: `r${i}`,
      source: 't',
      city: 'Douala',
      cityKey: 'douala',
      neighborhood: i % 2 ? 'Makepe' : 'Bonapriso',
      neighborhoodKey: i % 2 ? 'makepe' : 'bonapriso',
      purpose: 'rent',
      type: 'apartment',
      price: (i % 2 ? 100_000 : 250_000) * (1 + (i % 3) * 0.4) + i * 100,
      surface: null,
      bedrooms: 1 + (i % 3),
      bathrooms: 1,
      furnished: i % 5 === 0,
      landTitle: null,
      listedAt: Date.parse('2026-11-01T00:00:00Z'),
      point: null,
    }));
    const preds = crossValidate(rows, { folds: 5, seed: 3, asOf: new Date('2026-11-20T00:00:00Z') });
    expect(preds.map((p) => p.row.id).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const p of preds) {
      const train = rows.filter((r) => foldOf(r.id, 3, 5) !== foldOf(p.row.id, 3, 5));
      expect(p.cityMedian).toBe(median(train.map((r) => r.price)));
      expect(p.neighborhoodMedian).toBe(median(train.filter((r) => r.neighborhoodKey === p.row.neighborhoodKey).map((r) => r.price)));
      const cell = train.filter(
        (r) => r.neighborhoodKey === p.row.neighborhoodKey && r.bedrooms === p.row.bedrooms && r.furnished === p.row.furnished,
      );
      const expected = cell.length ? median(cell.map((r) => r.price)) : p.neighborhoodMedian;
      expect(p.termsMedian).toBe(expected);
    }
    const f = figures(preds);
    const valued = preds.filter((p) => p.estimate !== null);
    expect(f.cityMdape).toBeCloseTo(median(valued.map((p) => Math.abs(p.cityMedian - p.row.price) / p.row.price)), 12);
  });

  (realCrawl ? onServer : it.skip)(
    `on the shared real crawl: valued ≥ 95 %, beats every simple rule, coverage near 80 %${realCrawl ? '' : ' (skipped: ../shared/realdata/koutchoumi-rents.csv is absent; it is never committed)'}`,
    async () => {
      // The crawl's `Area` is `City/Quarter`, it has no advert id, and `furnished` is a word of its title:
      // written here in the columns the importer reads (never into the repository).
      const text = readFileSync(REAL, 'utf8').trim().split('\n');
      const out = ['source_ref,city,neighborhood,bathrooms,bedrooms,price,title,type,purpose'];
      text.slice(1).forEach((line, i) => {
        const [area, bath, bed, price, title] = line.split(',');
        const [city, neighborhood] = area.split('/');
        const strip = (c: string) => c.replace(/^> /, '');
        const furnished = /furnished/i.test(title);
        out.push(
          [
            `line-${i + 2}`,
            city,
            JSON.stringify(neighborhood),
            strip(bath),
            strip(bed),
            JSON.stringify(strip(price)),
            title,
            'apartment',
            furnished ? 'furnished_rent' : 'rent',
          ].join(','),
        );
      });
      const file = join(dir, 'koutchoumi-rents.split.csv');
      writeFileSync(file, out.join('\n') + '\n');
      const res = await admin(['valuations', 'evaluate', '--feed', file, '--folds', '5', '--json']);
      const o = res.json;
      console.log(
        `shared crawl: ${o.adverts} adverts, MdAPE ${(o.overall.mdape * 100).toFixed(1)} %, rules ${[o.overall.cityMdape, o.overall.neighborhoodMdape, o.overall.termsMdape].map((x: number) => (x * 100).toFixed(1)).join(' / ')} %, coverage ${(o.overall.coverage * 100).toFixed(1)} %`,
      );
      expect(o.adverts).toBeGreaterThan(700);
      expect(o.targets.valued).toBe(true);
      expect(o.overall.mdape).toBeLessThan(Math.min(o.overall.cityMdape, o.overall.neighborhoodMdape, o.overall.termsMdape));
      expect(Math.abs(o.overall.coverage - 0.8)).toBeLessThanOrEqual(0.03);
      expect(o.outliers).toBeGreaterThan(0);
    },
    120_000,
  );

  (realCrawl ? onServer : it.skip)(
    `on the shared real crawl: coverage within 3 points of ${VALUATION_CONFIDENCE_LEVEL * 100} % in each city with ≥ 30 adverts, labels ordered by realised PE10${realCrawl ? '' : ' (skipped: ../shared/realdata/koutchoumi-rents.csv is absent; it is never committed)'}`,
    async () => {
      const asOf = new Date();
      const { rows } = await loadFeedRows(process.env.DATABASE_URL!, { file: REAL, format: 'csv', columns: ColumnMap.load(MAP), asOf });
      const preds = crossValidate(rows, { folds: 5, seed: 1, asOf }).filter((p) => p.estimate !== null);
      expect(preds.length).toBeGreaterThan(700);
      const byCity = new Map<string, { n: number; inside: number }>();
      for (const p of preds) {
        // The range is the estimate × exp(±z·fsd), and the label the fsd's band.
        expect(Math.log(p.high! / p.estimate!)).toBeCloseTo(Z80 * p.fsd!, 9);
        expect(Math.log(p.estimate! / p.low!)).toBeCloseTo(Z80 * p.fsd!, 9);
        expect(p.confidence).toBe(p.fsd! <= VALUATION_FSD_BANDS.high ? 'high' : p.fsd! <= VALUATION_FSD_BANDS.medium ? 'medium' : 'low');
        const c = byCity.get(p.row.cityKey) ?? { n: 0, inside: 0 };
        c.n++;
        if (p.row.price >= p.low! && p.row.price <= p.high!) c.inside++;
        byCity.set(p.row.cityKey, c);
      }
      const cities = [...byCity].filter(([, c]) => c.n >= 30);
      expect(cities.length).toBe(2);
      for (const [city, c] of cities) {
        console.log(`${city}: ${c.inside} of ${c.n} prices inside the range (${((100 * c.inside) / c.n).toFixed(1)} %)`);
        expect(Math.abs(c.inside / c.n - VALUATION_CONFIDENCE_LEVEL), city).toBeLessThanOrEqual(0.03);
      }
      const pe10 = (label: string) => {
        const ps = preds.filter((p) => p.confidence === label);
        return { n: ps.length, pe10: ps.filter((p) => Math.abs(p.estimate! - p.row.price) <= 0.1 * p.row.price).length / ps.length };
      };
      const high = pe10('high');
      const medium = pe10('medium');
      const low = pe10('low');
      console.log(`realised PE10: high ${high.pe10} (${high.n}), medium ${medium.pe10} (${medium.n}), low ${low.pe10} (${low.n})`);
      for (const l of [high, medium, low]) expect(l.n).toBeGreaterThanOrEqual(30);
      expect(high.pe10).toBeGreaterThan(medium.pe10);
      expect(medium.pe10).toBeGreaterThan(low.pe10);
      // What the contract publishes is what is measured.
      expect(VALUATION_LABEL_PE10.high).toBeCloseTo(high.pe10, 3);
      expect(VALUATION_LABEL_PE10.medium).toBeCloseTo(medium.pe10, 3);
      expect(VALUATION_LABEL_PE10.low).toBeCloseTo(low.pe10, 3);
    },
    120_000,
  );
});
