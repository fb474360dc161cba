/**
 * An advert's terms on import: furnished, months of advance and deposit (rents only) and
 * the land title. A furnished rent is stored as `furnished_rent`, a `furnished_rent` is
 * furnished, a sale that does not state its title is `unknown`; rent terms on a sale, a
 * `furnished_rent` said unfurnished and out-of-range values are refused with their reason.
 * CSV cells say yes and no as feeds do (oui/non, yes/no, 1/0, true/false).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import type { Database } from '../../server/platform/db.js';
import { removeSource, testDatabase, testSource, toJsonLines, workdir } from './helpers.js';

let db: Database;
beforeAll(() => {
  db = testDatabase();
});
afterAll(() => db.close());

interface Terms {
  source_ref: string;
  purpose: string;
  furnished: boolean | null;
  advance_months: number | null;
  deposit_months: number | null;
  land_title: string | null;
  updated_at: Date;
}

async function termsOf(source: string): Promise<Map<string, Terms>> {
  const { rows } = await db.pool.query<Terms>(
    `SELECT source_ref, purpose::text, furnished, advance_months, deposit_months, land_title::text, updated_at
     FROM listings WHERE source = $1 ORDER BY source_ref`,
    [source],
  );
  return new Map(rows.map((r) => [r.source_ref, r]));
}

/** Each row its own advert (a price of its own): rows alike in all but their terms would be folded as repeats. */
let adverts = 0;
const base = (ref: string, purpose: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  source_ref: ref,
  price: (purpose === 'sale' ? 45_000_000 : 150_000) + 5_000 * ++adverts,
  city: 'Yaoundé',
  neighborhood: 'Bastos',
  type: purpose === 'sale' ? 'land' : 'apartment',
  purpose,
  ...extra,
});

describe('advert terms in an NDJSON feed', () => {
  it('stores what is given, settles furnishing and land title, refuses what cannot be', async () => {
    const work = workdir();
    const src = testSource();
    try {
      const rows: Record<string, unknown>[] = [
        base('a-rent-furnished', 'rent', { furnished: true, advance_months: 6, deposit_months: 2 }),
        base('b-rent-bare', 'rent', { furnished: false, advance_months: 12, deposit_months: 0, land_title: 'titled' }),
        base('c-furnished-rent', 'furnished_rent', { advance_months: 3 }),
        base('d-rent-silent', 'rent'),
        base('e-sale-silent', 'sale'),
        base('f-sale-titled', 'sale', { land_title: 'titled', furnished: true }),
        base('g-sale-in-progress', 'sale', { land_title: 'in_progress', furnished: null, advance_months: null }),
        // Refused, each with its reason.
        base('r1-furnished-rent-unfurnished', 'furnished_rent', { furnished: false }),
        base('r2-sale-advance', 'sale', { advance_months: 6 }),
        base('r3-sale-deposit', 'sale', { deposit_months: 1 }),
        base('r4-advance-too-long', 'rent', { advance_months: 25 }),
        base('r5-deposit-too-long', 'rent', { deposit_months: 13 }),
        base('r6-advance-fraction', 'rent', { advance_months: 1.5 }),
        base('r7-land-title', 'sale', { land_title: 'freehold' }),
        base('r8-furnished-text', 'rent', { furnished: 'oui' }),
      ];
      const file = work.write('terms.ndjson', toJsonLines(rows));
      const now = new Date('2026-11-25T06:00:00.000Z');
      const result = await importFile(db.pool, { file, format: 'ndjson', source: src, now });
      expect(result.counts).toMatchObject({ rows: 15, accepted: 7, rejected: 8, inserted: 7 });
      expect(Object.fromEntries(result.rejected_sample.map((r) => [r.source_ref, r.reason]))).toEqual({
        'r1-furnished-rent-unfurnished': 'furnished: must not be false when purpose is furnished_rent',
        'r2-sale-advance': 'advance_months: is for rents only (purpose rent or furnished_rent), not sale',
        'r3-sale-deposit': 'deposit_months: is for rents only (purpose rent or furnished_rent), not sale',
        'r4-advance-too-long': 'advance_months: must be at most 24 months',
        'r5-deposit-too-long': 'deposit_months: must be at most 12 months',
        'r6-advance-fraction': 'advance_months: must be a whole number of months',
        'r7-land-title': 'land_title: must be one of titled, untitled, in_progress, unknown',
        'r8-furnished-text': 'furnished: must be true or false',
      });

      const stored = await termsOf(src);
      const pick = (ref: string) => {
        const { source_ref: _ref, updated_at: _at, ...terms } = stored.get(ref)!;
        return terms;
      };
      expect(pick('a-rent-furnished')).toEqual({
        purpose: 'furnished_rent',
        furnished: true,
        advance_months: 6,
        deposit_months: 2,
        land_title: null,
      });
      expect(pick('b-rent-bare')).toEqual({
        purpose: 'rent',
        furnished: false,
        advance_months: 12,
        deposit_months: 0,
        land_title: 'titled',
      });
      expect(pick('c-furnished-rent')).toEqual({
        purpose: 'furnished_rent',
        furnished: true,
        advance_months: 3,
        deposit_months: null,
        land_title: null,
      });
      expect(pick('d-rent-silent')).toEqual({
        purpose: 'rent',
        furnished: null,
        advance_months: null,
        deposit_months: null,
        land_title: null,
      });
      expect(pick('e-sale-silent')).toEqual({
        purpose: 'sale',
        furnished: null,
        advance_months: null,
        deposit_months: null,
        land_title: 'unknown',
      });
      expect(pick('f-sale-titled')).toEqual({
        purpose: 'sale',
        furnished: true,
        advance_months: null,
        deposit_months: null,
        land_title: 'titled',
      });
      expect(pick('g-sale-in-progress')).toMatchObject({ furnished: null, land_title: 'in_progress' });

      // The same feed again: nothing changes. A new advance is a public change.
      const again = await importFile(db.pool, { file, format: 'ndjson', source: src, now: new Date('2026-11-25T07:00:00.000Z') });
      expect(again.counts).toMatchObject({ accepted: 7, inserted: 0, updated: 0, unchanged: 7 });
      rows[1] = { ...rows[1], advance_months: 10 };
      rows[4] = { ...rows[4], land_title: 'untitled' };
      const later = new Date('2026-11-25T08:00:00.000Z');
      const changed = await importFile(db.pool, {
        file: work.write('terms-2.ndjson', toJsonLines(rows)),
        format: 'ndjson',
        source: src,
        now: later,
      });
      expect(changed.counts).toMatchObject({ accepted: 7, inserted: 0, updated: 2, unchanged: 5 });
      const after = await termsOf(src);
      expect(after.get('b-rent-bare')).toMatchObject({ advance_months: 10, updated_at: later });
      expect(after.get('e-sale-silent')).toMatchObject({ land_title: 'untitled', updated_at: later });
      expect(after.get('a-rent-furnished')!.updated_at).toEqual(now);
    } finally {
      await removeSource(db, src);
      work.remove();
    }
  });
});

describe('advert terms in a CSV feed', () => {
  it('reads yes and no as feeds write them, and numbers of months', async () => {
    const work = workdir();
    const src = testSource();
    try {
      const yesNo = ['oui', 'NON', 'yes', 'No', '1', '0', 'true', 'False', ' Oui ', ''];
      const lines = yesNo.map((cell, i) => `${src}-${i},apartment,rent,Douala,Akwa,${200_000 + 5_000 * i},${cell},${i},${i % 3},`);
      lines.push(`${src}-bad,apartment,rent,Douala,Akwa,200000,peut-être,,,`);
      lines.push(`${src}-sale,land,sale,Douala,Akwa,30000000,,,,in_progress`);
      lines.push(`${src}-sale-advance,land,sale,Douala,Akwa,30000000,,6,,`);
      const csv = ['source_ref,type,purpose,city,neighborhood,price,furnished,advance_months,deposit_months,land_title', ...lines].join(
        '\n',
      );
      const result = await importFile(db.pool, { file: work.write('terms.csv', `${csv}\n`), format: 'csv', source: src });
      expect(result.counts).toMatchObject({ rows: 13, accepted: 11, rejected: 2 });
      expect(result.rejected_sample).toEqual([
        { line: 12, source_ref: `${src}-bad`, reason: 'furnished: must be true or false' },
        {
          line: 14,
          source_ref: `${src}-sale-advance`,
          reason: 'advance_months: is for rents only (purpose rent or furnished_rent), not sale',
        },
      ]);
      const stored = await termsOf(src);
      const expected = [true, false, true, false, true, false, true, false, true, null];
      yesNo.forEach((cell, i) => {
        expect(stored.get(`${src}-${i}`), `furnished cell ${JSON.stringify(cell)}`).toMatchObject({
          furnished: expected[i],
          purpose: expected[i] ? 'furnished_rent' : 'rent',
          advance_months: i,
          deposit_months: i % 3,
          land_title: null,
        });
      });
      expect(stored.get(`${src}-sale`)).toMatchObject({
        purpose: 'sale',
        furnished: null,
        advance_months: null,
        land_title: 'in_progress',
      });
    } finally {
      await removeSource(db, src);
      work.remove();
    }
  });
});
