/**
 * One row of a listings feed, as `admin import` reads it and `admin generate` writes it:
 * the contract's public Listing fields minus the ones Mboa computes (`id`,
 * `price_per_m2`, `days_on_market`), plus the feed's own reference and the private
 * fields the API never exposes. Field names are snake_case, as in the API.
 */
import { z } from 'zod';
import { LAND_TITLES, MAX_ADVANCE_MONTHS, MAX_DEPOSIT_MONTHS, STANDINGS } from '../../contract/advert-terms.js';
import { LISTING_STATUSES, MAX_PRICE, MAX_ROOMS, MAX_SURFACE, PROPERTY_TYPES, PURPOSES } from '../../contract/schemas.js';
import { FEED_FIELDS } from '../domain/listing/fields.js';

/**
 * The contract's `z.string().datetime({ offset: true })`, with the pattern compiled once:
 * zod 3 builds that regular expression anew on every call, the importer's main cost at a
 * million rows. Same grammar: a valid calendar date, `T`, time, `Z` or an offset.
 */
const ISO_TIMESTAMP = new RegExp(
  '^((\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-((0[13578]|1[02])-(0[1-9]|[12]\\d|3[01])|(0[469]|11)-(0[1-9]|[12]\\d|30)|(02)-(0[1-9]|1\\d|2[0-8])))' +
    'T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d+)?)?(Z|([+-]\\d{2}:?\\d{2}))$',
);
const isoTimestamp = z
  .string({ required_error: 'is required', invalid_type_error: 'must be an ISO 8601 timestamp string' })
  .regex(ISO_TIMESTAMP, 'must be an ISO 8601 timestamp with a time zone (2026-11-02T17:05:00Z)');

const text = (max: number) =>
  z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

const count = z
  .number({ required_error: 'is required', invalid_type_error: 'must be a number' })
  .int('must be an integer')
  .min(0, 'must be 0 or more')
  // The API's own bound (far above any real property: a larger value is a shifted column).
  .max(MAX_ROOMS, `must be at most ${MAX_ROOMS}`);

const xaf = z
  .number({ required_error: 'is required', invalid_type_error: 'must be a number' })
  .int('must be an integer number of XAF (no minor unit)')
  .positive('must be greater than 0')
  .max(MAX_PRICE, `must be at most ${MAX_PRICE} (10^15 XAF)`);

const months = (max: number) =>
  z
    .number({ invalid_type_error: 'must be a number' })
    .int('must be a whole number of months')
    .min(0, 'must be 0 or more')
    .max(max, `must be at most ${max} months`);

const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) });

export const ZPriceHistoryEntry = z.object({ date: isoTimestamp, price: xaf }).strict();

export const ZListingRecord = z
  .object({
    source_ref: text(200),
    // Portals often publish no title: one is then written from the fields (title.ts).
    title: text(300).nullish(),
    price: xaf,
    currency: z.literal('XAF', { errorMap: () => ({ message: 'must be XAF' }) }).default('XAF'),
    city: text(100),
    // A quarter, or the advert's own point (`lat` and `lng`, WGS84), or both.
    neighborhood: text(100).nullish(),
    lat: z.number({ invalid_type_error: 'must be a number' }).min(-90, 'must be a latitude').max(90, 'must be a latitude').nullish(),
    lng: z.number({ invalid_type_error: 'must be a number' }).min(-180, 'must be a longitude').max(180, 'must be a longitude').nullish(),
    // What a Cameroonian portal often leaves out is optional (absent or null): the row is
    // still a listing, and each market figure uses the rows that have what it needs.
    surface: z
      .number({ invalid_type_error: 'must be a number' })
      .positive('must be greater than 0')
      .max(MAX_SURFACE, `must be at most ${MAX_SURFACE} square metres`)
      .nullish(),
    bedrooms: count.nullish(),
    bathrooms: count.nullish(),
    type: enumOf(PROPERTY_TYPES),
    purpose: enumOf(PURPOSES),
    status: enumOf(LISTING_STATUSES).default('active'),
    // Absent: the first time Mboa saw the row (the import that inserted it).
    listed_at: isoTimestamp.nullish(),
    // Accepted for completeness of the feed; Mboa stamps its own change time on import.
    updated_at: isoTimestamp.optional(),
    removed_at: isoTimestamp.nullable().optional(),
    // Private and optional: agents give a WhatsApp number, and few streets have a name.
    contact_name: text(200).nullish(),
    contact_phone: z
      .string({ invalid_type_error: 'must be a string' })
      .trim()
      .regex(/^\+?[0-9][0-9 ().-]{5,24}$/, 'must be a phone number (+237 6xx xx xx xx)')
      .nullish(),
    contact_email: z.string({ invalid_type_error: 'must be a string' }).trim().email('must be an e-mail address').nullish(),
    street_address: text(300).nullish(),
    price_history: z.array(ZPriceHistoryEntry).max(100, 'must have at most 100 entries').optional(),
    // The advert's terms (contract/advert-terms.ts): null or absent when it does not say.
    furnished: z.boolean({ invalid_type_error: 'must be true or false' }).nullish(),
    advance_months: months(MAX_ADVANCE_MONTHS).nullish(),
    deposit_months: months(MAX_DEPOSIT_MONTHS).nullish(),
    land_title: enumOf(LAND_TITLES).nullish(),
    // As the feed states it (any case); else read from the title and description (validate.ts).
    standing: enumOf(STANDINGS).nullish(),
    // Read for the standing only: never stored nor published.
    description: text(10_000).nullish(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if ((r.lat == null) !== (r.lng == null)) {
      ctx.addIssue({
        code: 'custom',
        path: [r.lat == null ? 'lat' : 'lng'],
        message: 'is required with ' + (r.lat == null ? 'lng' : 'lat'),
      });
    }
    if (!r.neighborhood && r.lat == null) {
      ctx.addIssue({ code: 'custom', path: ['neighborhood'], message: 'is required (or lat and lng)' });
    }
    const listed = r.listed_at ? Date.parse(r.listed_at) : -Infinity;
    if (r.status === 'active' && r.removed_at) {
      ctx.addIssue({ code: 'custom', path: ['removed_at'], message: 'must be empty while status is active' });
    }
    if (r.status !== 'active' && !r.removed_at) {
      ctx.addIssue({ code: 'custom', path: ['removed_at'], message: `is required when status is ${r.status}` });
    }
    if (r.removed_at && Date.parse(r.removed_at) < listed) {
      ctx.addIssue({ code: 'custom', path: ['removed_at'], message: 'must not be before listed_at' });
    }
    if (r.updated_at && Date.parse(r.updated_at) < listed) {
      ctx.addIssue({ code: 'custom', path: ['updated_at'], message: 'must not be before listed_at' });
    }
    if (r.purpose === 'furnished_rent' && r.furnished === false) {
      ctx.addIssue({ code: 'custom', path: ['furnished'], message: 'must not be false when purpose is furnished_rent' });
    }
    for (const field of ['advance_months', 'deposit_months'] as const) {
      if (r.purpose === 'sale' && r[field] != null) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'is for rents only (purpose rent or furnished_rent), not sale' });
      }
    }
    const history = r.price_history;
    if (history && history.length > 0) {
      for (let i = 1; i < history.length; i++) {
        if (Date.parse(history[i].date) < Date.parse(history[i - 1].date)) {
          ctx.addIssue({ code: 'custom', path: ['price_history', i, 'date'], message: 'entries must be oldest first' });
          break;
        }
      }
      if (history[history.length - 1].price !== r.price) {
        ctx.addIssue({ code: 'custom', path: ['price_history'], message: 'must end with the current price' });
      }
    }
  });

/** A validated feed row. */
export type ListingRecord = z.output<typeof ZListingRecord>;
/**
 * A row ready to store: its title given by the feed or written from its fields (title.ts),
 * its quarter as the gazetteer resolved it: `neighborhood` the known name (null when a
 * gazetteer city's quarter could not be resolved: the row is then filed under its city
 * alone, the feed's name kept aside in `raw_neighborhood`), `neighborhood_key` the key of
 * the quarter it is filed under (a sub-quarter's parent).
 */
export type StoredRecord = Omit<ListingRecord, 'neighborhood'> & {
  title: string;
  neighborhood: string | null;
  neighborhood_key?: string | null;
  raw_neighborhood?: string | null;
};

/**
 * Feed columns in the order `admin generate` writes them (CSV header order): the feed names
 * of the listing's field table (server/domain/listing/fields.ts), which a test holds equal
 * to the fields above.
 */
export const RECORD_FIELDS = FEED_FIELDS as readonly (keyof ListingRecord & string)[];
