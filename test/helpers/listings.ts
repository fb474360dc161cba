/**
 * Listings planted by a test under a source of its own (other files share the seeded
 * database), and removed after: for figures that need a known sample (trends with enough
 * listings in both periods, places no catalog knows).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { listingId } from '../../server/platform/ids.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { matchKey } from '../../server/platform/text.js';

export interface PlantedListing {
  city: string;
  neighborhood: string;
  type: string;
  purpose: string;
  price: number;
  surface: number;
  listedAt: Date;
  status?: 'active' | 'withdrawn';
  /** 2 unless given; null for an advert that gives no count. */
  bedrooms?: number | null;
}

export function plantSource(): string {
  return `test-plant-${randomBytes(4).toString('hex')}`;
}

export async function plantListings(pool: pg.Pool, source: string, listings: PlantedListing[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, l] of listings.entries()) {
    const id = listingId(source, `ref-${i}`);
    ids.push(id);
    await pool.query(
      `INSERT INTO listings (id, title, price, city, city_key, neighborhood, neighborhood_key, surface, bedrooms, bathrooms,
                             type, purpose, price_per_m2, status, listed_at, updated_at, removed_at, source, source_ref)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $16, 1, $9::"PropertyType", $10::"Purpose", $11, $12::"ListingStatus", $13, $13,
               CASE WHEN $12::text = 'active' THEN NULL ELSE $13::timestamptz END, $14, $15)`,
      [
        id,
        `Planted ${l.type} ${i}`,
        l.price,
        l.city,
        matchKey(l.city),
        l.neighborhood,
        matchKey(l.neighborhood),
        l.surface,
        l.type,
        l.purpose,
        Math.round(l.price / l.surface),
        l.status ?? 'active',
        l.listedAt,
        source,
        `ref-${i}`,
        l.bedrooms === undefined ? 2 : l.bedrooms,
      ],
    );
  }
  return ids;
}

/** Removes a source's listings and rebuilds the figures, leaving the database as the seed made it. */
export async function removePlanted(pool: pg.Pool, source: string): Promise<void> {
  await pool.query('DELETE FROM listings WHERE source = $1', [source]);
  await refreshMarketFigures(pool);
}

export const DAY_MS = 86_400_000;
