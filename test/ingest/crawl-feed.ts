/**
 * A feed written like the crawl of a Cameroonian rental portal: only the fields such a
 * portal publishes (city, quarter, bedrooms, bathrooms, price, furnished or not, as the
 * purpose), with the portal's own reference. No surface, title, date, contact or street
 * address. Deterministic: row `i` is always the same.
 */
const NEIGHBORHOODS: Record<string, string[]> = {
  Douala: ['Akwa', 'Bonapriso', 'Makepe', 'Kotto', 'Logpom', 'Bonamoussadi', 'Deido', 'bali', 'PK14', 'Ndokotti'],
  Yaounde: ['Bastos', 'Odza', 'Biyem-Assi', 'Mendong', 'Essos', 'Ngousso', 'Omnisport'],
};
const KINDS = ['apartment', 'apartment', 'apartment', 'studio', 'room', 'house'] as const;

export interface CrawlRow {
  source_ref: string;
  type: (typeof KINDS)[number];
  purpose: 'rent' | 'furnished_rent';
  city: string;
  neighborhood: string;
  price: number;
  bedrooms?: number;
  bathrooms?: number;
}

export function crawlRow(i: number, prefix = 'crawl'): CrawlRow {
  const city = i % 5 < 3 ? 'Douala' : 'Yaounde';
  const neighborhoods = NEIGHBORHOODS[city];
  const type = KINDS[i % KINDS.length];
  const bedrooms = type === 'studio' || type === 'room' ? 1 : 1 + (i % 4);
  const furnished = i % 7 === 0;
  const row: CrawlRow = {
    source_ref: `${prefix}-${String(i).padStart(5, '0')}`,
    type,
    purpose: furnished ? 'furnished_rent' : 'rent',
    city,
    neighborhood: neighborhoods[i % neighborhoods.length],
    price: (40 + ((i * 37) % 60)) * 5_000 * bedrooms * (furnished ? 2 : 1),
  };
  // The portal leaves bedrooms or bathrooms out of some adverts.
  if (i % 11 !== 0) row.bedrooms = bedrooms;
  if (i % 4 !== 0) row.bathrooms = Math.max(1, bedrooms - 1);
  return row;
}

export function crawlFeed(count: number, prefix?: string): CrawlRow[] {
  return Array.from({ length: count }, (_, i) => crawlRow(i, prefix));
}
