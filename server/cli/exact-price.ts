/**
 * The generator's own price of an advert before its noise (server/generate/price-model.ts):
 * on generated data, the best any model could do, so the evaluation shows how near the
 * valuations come to it. Only for the generator's rows (`source` = its feed name).
 */
import { DEFAULT_SOURCE } from '../generate/generator.js';
import type { PropertyType, Purpose } from '../generate/kinds.js';
import { type LandTitle, noiseFreePrice } from '../generate/price-model.js';
import type { EvalRow } from '../domain/valuations/evaluate.js';

/** The noise-free price of a generated row at its listing date; null for an imported one. */
export function exactPrice(row: EvalRow): number | null {
  if (row.source !== DEFAULT_SOURCE) return null;
  return noiseFreePrice({
    city: row.city,
    neighborhood: row.neighborhood,
    type: row.type as PropertyType,
    purpose: row.purpose as Purpose,
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    surface: row.surface,
    listed_at: new Date(row.listedAt),
    furnished: row.furnished,
    land_title: row.landTitle as LandTitle | null,
  });
}
