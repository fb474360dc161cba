import type pg from 'pg';
import type { TListingDetail } from '../../contract/schemas.js';
import { PUBLIC_COLUMNS, type PublicRow, toListing } from './public-row.js';

/** One listing with its price history, oldest first; null when there is no such id. */
export async function getListing(pool: pg.Pool, id: string): Promise<TListingDetail | null> {
  const [listing, history] = await Promise.all([
    pool.query<PublicRow>(`SELECT ${PUBLIC_COLUMNS} FROM listings l WHERE l.id = $1`, [id]),
    pool.query<{ changed_at: Date; price: string }>(
      'SELECT changed_at, price FROM price_history WHERE listing_id = $1 ORDER BY changed_at, id',
      [id],
    ),
  ]);
  const row = listing.rows[0];
  if (!row) return null;
  const base = toListing(row);
  const priceHistory = history.rows.map((h) => ({ date: h.changed_at.toISOString(), price: Number(h.price) }));
  // A listing loaded without history still shows its one known price.
  if (priceHistory.length === 0) priceHistory.push({ date: base.listed_at, price: base.price });
  return { ...base, price_history: priceHistory };
}
