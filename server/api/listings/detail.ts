import { type Dataset, table } from '../../domain/listing/dataset.js';
import { type Currency, fromXaf } from '../../../contract/currency.js';
import type { TListingDetail } from '../../../contract/schemas.js';
import { PUBLIC_COLUMNS, type PublicRow, toListing } from '../../domain/listing/public-row.js';

/** One listing with its price history, oldest first, amounts in `currency`; null when there is no such id. */
export async function getListing(data: Dataset, id: string, currency: Currency): Promise<TListingDetail | null> {
  const [listing, history] = await Promise.all([
    data.pool.query<PublicRow>(`SELECT ${PUBLIC_COLUMNS} FROM ${table(data, 'listings')} l WHERE l.id = $1`, [id]),
    data.pool.query<{ changed_at: Date; price: string }>(
      `SELECT changed_at, price FROM ${table(data, 'price_history')} WHERE listing_id = $1 ORDER BY changed_at, id`,
      [id],
    ),
  ]);
  const row = listing.rows[0];
  if (!row) return null;
  const base = toListing(row, currency);
  const priceHistory = history.rows.map((h) => ({ date: h.changed_at.toISOString(), price: fromXaf(h.price, currency) }));
  // A listing loaded without history still shows its one known price.
  if (priceHistory.length === 0) priceHistory.push({ date: base.listed_at, price: base.price });
  return { ...base, price_history: priceHistory };
}
