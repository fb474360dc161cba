/**
 * `GET /market/history`: one point per calendar month (UTC) for a city or one of its
 * quarters, a purpose, and optionally a type and a number of bedrooms. Read from figures
 * precomputed after every data load (server/ingest/market-history.ts).
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { areaParams, checkGeoParams } from './geo.js';
import { ZCollectionMeta } from './meta.js';
import { currencyParam, enumParam, oneOf, textParam, wholeNumberParam } from './params.js';
import { PROPERTY_TYPES, PURPOSES, TREND_MIN_SAMPLE, ZCurrency } from './schemas.js';

/**
 * Fewest listings a history figure may rest on: below it the figure is null, never a
 * median of two adverts. The same floor as the trends' changes.
 */
export const HISTORY_MIN_SAMPLE = TREND_MIN_SAMPLE;
export const HISTORY_MAX_MONTHS = 36;
export const HISTORY_DEFAULT_MONTHS = 24;
/** The area of a series around a point (`near`): computed on demand, so kept small. */
export const HISTORY_RADIUS_DEFAULT_M = 1_000;
export const HISTORY_RADIUS_MAX_M = 5_000;
/** The top bedrooms bucket: `bedrooms=5` is five bedrooms or more. */
import { BEDROOMS_TOP } from './bedrooms.js';
export { BEDROOMS_TOP };

const MIN = `null when it rests on fewer than ${HISTORY_MIN_SAMPLE} listings`;
const count = (description: string, example: number) => extendApi(z.number().int().min(0), { description, example });
const amount = (description: string, example: number | null) =>
  extendApi(z.number().min(0).nullable(), { description: `${description} In \`currency\`: whole XAF, or EUR to the cent.`, example });

export const ZHistoryQuery = z
  .object({
    city: textParam('The city (required), matched regardless of case and accents.', 'Douala'),
    neighborhood: textParam('Only this quarter of `city`: its own series instead of the whole city.', 'Bonamoussadi').optional(),
    ...areaParams(
      'Instead of a quarter, only the listings of `city` (computed on demand, not precomputed: a few hundred milliseconds)',
      HISTORY_RADIUS_DEFAULT_M,
      HISTORY_RADIUS_MAX_M,
    ),
    purpose: extendApi(enumParam(PURPOSES), {
      description: 'Required: sale prices and monthly rents are never mixed in one median.',
      example: 'rent',
    }),
    type: extendApi(enumParam(PROPERTY_TYPES), {
      description: 'Only this property type; every type together when absent.',
      example: 'apartment',
    }).optional(),
    bedrooms: wholeNumberParam(
      `Only listings with this many bedrooms (${BEDROOMS_TOP}: ${BEDROOMS_TOP} or more); listings without a bedroom count are then left out. Every count (and none) together when absent.`,
      2,
      0,
      BEDROOMS_TOP,
    ).optional(),
    months: wholeNumberParam('How many calendar months, ending with the last complete one.', 24, 1, HISTORY_MAX_MONTHS).default(
      HISTORY_DEFAULT_MONTHS,
    ),
    currency: currencyParam('the prices'),
  })
  .strict()
  .superRefine((q, ctx) => {
    checkGeoParams(q, ctx);
    if (q.near !== undefined && q.neighborhood !== undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: 'a series is of a quarter or of an area around `near`, not both',
        path: ['near'],
      });
    }
  });
export type THistoryQueryParsed = z.output<typeof ZHistoryQuery>;

export const ZHistoryPoint = z.object({
  city: extendApi(z.string(), { description: 'City.', example: 'Douala' }),
  neighborhood: extendApi(z.string().nullable(), {
    description: 'Quarter, or null for the whole city or an area around `near`.',
    example: 'Bonamoussadi',
  }),
  near: extendApi(z.string().nullable(), {
    description:
      'For the history of an area: its point as `lat,lng`, `near` rounded to the grid the series was computed on (as `meta.area`); null for a city or a quarter.',
    example: null,
  }),
  radius_m: extendApi(z.number().int().nullable(), {
    description: 'For the history of an area: its radius in metres, `radius_m` rounded to 100 m (as `meta.area`); null otherwise.',
    example: null,
  }),
  purpose: extendApi(oneOf(PURPOSES), { description: 'Purpose.', example: 'rent' }),
  type: extendApi(oneOf(PROPERTY_TYPES).nullable(), { description: 'Property type, or null for every type.', example: 'apartment' }),
  bedrooms: extendApi(z.number().int().nullable(), {
    description: `Bedrooms (${BEDROOMS_TOP}: ${BEDROOMS_TOP} or more), or null for every count.`,
    example: 2,
  }),
  month: extendApi(z.string().regex(/^\d{4}-\d{2}$/), { description: 'Calendar month (UTC), `YYYY-MM`.', example: '2026-10' }),
  active_listings: count("Listings on the market at the month's end.", 412),
  new_listings: count('Listings published during the month.', 57),
  removed_listings: z.object({
    sold: count('Listings that left the market during the month as sold.', 9),
    rented: count('… as rented.', 31),
    withdrawn: count('… withdrawn.', 12),
  }),
  sample_size: count("Listings the price figures rest on: those on the market at the month's end (`active_listings`).", 412),
  p25_price: amount(`First quartile of the prices in effect at the month's end; ${MIN}.`, 120000),
  median_price: amount(`Median of the prices in effect at the month's end (monthly rent for rents); ${MIN}.`, 150000),
  p75_price: amount(`Third quartile of those prices; ${MIN}.`, 200000),
  price_per_m2_sample_size: count('Listings of the sample with a known surface, which `median_price_per_m2` rests on.', 88),
  median_price_per_m2: amount(`Median price per m² at the month's end; ${MIN} with a surface.`, 2100),
  days_on_market_sample_size: count('Listings that left the market during the month (all outcomes).', 52),
  median_days_on_market: extendApi(z.number().int().nullable(), {
    description: `Median whole days from publication to removal of the listings that left the market during the month; ${MIN}.`,
    example: 41,
  }),
  median_price_change_pct: extendApi(z.number().nullable(), {
    description:
      'Change of `median_price` against the same month a year before, in %, one decimal (from the medians in XAF); null when either median is null.',
    example: 7.1,
  }),
  currency: ZCurrency,
});
export type THistoryPoint = z.infer<typeof ZHistoryPoint>;

/** With `near`: the point and radius the series was computed for (rounded to a grid, so nearby asks share one computation). */
const ZHistoryArea = extendApi(
  z.object({
    lat: extendApi(z.number(), { description: 'Latitude used, `near`’s rounded to the grid.', example: 4.048 }),
    lng: extendApi(z.number(), { description: 'Longitude used.', example: 9.704 }),
    radius_m: extendApi(z.number().int(), {
      description: 'Radius used, `radius_m` rounded to the nearest 100 m (100 at least).',
      example: 1000,
    }),
  }),
  {
    description:
      'Only with `near`: the point and radius the series was computed for. The point is rounded to a grid of 0.001° times the radius’s whole kilometres (at least one), the radius to the nearest 100 m; CSV answers carry it in the `X-Mboa-Area` header (`lat,lng;radius_m`).',
  },
);

export const ZHistoryResponse = z.object({ data: z.array(ZHistoryPoint), meta: ZCollectionMeta.extend({ area: ZHistoryArea.optional() }) });
export type THistoryResponse = z.infer<typeof ZHistoryResponse>;

/** The CSV answer's columns, in order: the point's fields, `removed_listings` flattened. */
const HISTORY_CSV_COLUMNS = [
  'city',
  'neighborhood',
  'near',
  'radius_m',
  'purpose',
  'type',
  'bedrooms',
  'month',
  'active_listings',
  'new_listings',
  'removed_sold',
  'removed_rented',
  'removed_withdrawn',
  'sample_size',
  'p25_price',
  'median_price',
  'p75_price',
  'price_per_m2_sample_size',
  'median_price_per_m2',
  'days_on_market_sample_size',
  'median_days_on_market',
  'median_price_change_pct',
  'currency',
] as const;

/**
 * A text cell a spreadsheet would read as a formula (OWASP's CSV-injection rule: one that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return) goes out behind an apostrophe,
 * which shows it as the text it is. Numbers go out as they are: a negative change is a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(v: string | number | null): string {
  if (v === null) return '';
  const s = typeof v === 'string' && FORMULA_START.test(v) ? `'${v}` : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV answer (RFC 4180, CRLF line ends): a header row, one line per point, null figures as empty fields. */
export function historyCsvOf(points: THistoryPoint[]): string {
  const lines: string[] = [HISTORY_CSV_COLUMNS.join(',')];
  for (const p of points) {
    const flat: Record<(typeof HISTORY_CSV_COLUMNS)[number], string | number | null> = {
      ...p,
      removed_sold: p.removed_listings.sold,
      removed_rented: p.removed_listings.rented,
      removed_withdrawn: p.removed_listings.withdrawn,
    };
    lines.push(HISTORY_CSV_COLUMNS.map((c) => csvField(flat[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
