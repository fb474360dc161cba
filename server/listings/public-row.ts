/**
 * The public columns of a listing, and their mapping to the contract's Listing. Private
 * columns (contacts, street address, source) are never selected for the API.
 */
import type { TListing } from '../../contract/schemas.js';

export const PUBLIC_COLUMNS = `l.id, l.title, l.price, l.currency, l.city, l.neighborhood, l.surface, l.bedrooms,
  l.bathrooms, l.type, l.purpose, l.price_per_m2, l.status, l.listed_at, l.updated_at, l.removed_at,
  floor(extract(epoch FROM (coalesce(l.removed_at, now()) - l.listed_at)) / 86400)::int AS days_on_market`;

export interface PublicRow {
  id: string;
  title: string;
  price: string | number;
  currency: string;
  city: string;
  neighborhood: string;
  surface: number;
  bedrooms: number;
  bathrooms: number;
  type: TListing['type'];
  purpose: TListing['purpose'];
  price_per_m2: number | null;
  status: TListing['status'];
  listed_at: Date;
  updated_at: Date;
  removed_at: Date | null;
  days_on_market: number;
}

export function toListing(r: PublicRow): TListing {
  return {
    id: r.id,
    title: r.title,
    price: Number(r.price),
    currency: 'XAF',
    city: r.city,
    neighborhood: r.neighborhood,
    surface: r.surface,
    bedrooms: r.bedrooms,
    bathrooms: r.bathrooms,
    type: r.type,
    purpose: r.purpose,
    price_per_m2: r.price_per_m2,
    status: r.status,
    listed_at: r.listed_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    removed_at: r.removed_at?.toISOString() ?? null,
    days_on_market: Math.max(0, r.days_on_market),
  };
}
