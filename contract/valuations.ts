/**
 * `GET /valuations`: an automated valuation of one property from comparable adverts. The
 * subject is described by its query (or is a listed property, `listing_id`); the answer is
 * an estimate with its range, the comparables it rests on and how it was made.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { LAND_TITLES } from './advert-terms.js';
import { pointParam } from './geo.js';
import { currencyParam, enumParam, oneOf, textParam, wholeNumberParam } from './params.js';
import { MAX_ROOMS, MAX_SURFACE, PROPERTY_TYPES, PURPOSES, ZCurrency, ZListing, ZSingleMeta } from './schemas.js';

/** Probability that the asking price lies in [low, high], by construction and as measured on held-out adverts. */
export const VALUATION_CONFIDENCE_LEVEL = 0.8;
/** Most comparables listed in an answer (more may weigh in the estimate: `sample_size`). */
export const VALUATION_MAX_COMPARABLES = 20;
/** Fewest comparables an estimate may rest on: below it, a 422 `insufficient_data`. */
export const VALUATION_MIN_COMPARABLES = 5;
/**
 * FSD bands of `confidence` (the calibrated fsd: the range is price × exp(±1.28 fsd)): at most
 * the first is `high`, at most the second `medium`, above it `low`. Set so that the labels
 * separate on real adverts: realised PE10 by label in `VALUATION_LABEL_PE10`.
 */
export const VALUATION_FSD_BANDS = { high: 0.35, medium: 0.5 } as const;
/**
 * Realised share of prices within 10 % of the estimate, per label, on the shared real crawl
 * (724 rent adverts of Douala and Yaoundé, 5-fold cross-validation, run 2026-11-27;
 * docs/valuations.md): published with the labels, checked by test/cli/valuations-feed.test.ts.
 */
export const VALUATION_LABEL_PE10 = { high: 0.268, medium: 0.214, low: 0.128 } as const;
export const VALUATION_METHODS = ['quarter_comparables', 'city_comparables'] as const;
export const VALUATION_CONFIDENCES = ['high', 'medium', 'low'] as const;

/** A share as the docs print it: 0.268 → "26.8 %". */
export const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

const decimal = (description: string, example: number, min: number, max: number) =>
  extendApi(
    z.preprocess(
      (v) => (typeof v === 'string' && /^-?[0-9]{1,3}(\.[0-9]{1,10})?$/.test(v) ? Number(v) : v),
      z.number({ invalid_type_error: 'must be a decimal number (digits, optional sign and point)' }).min(min).max(max),
    ) as unknown as z.ZodEffects<z.ZodNumber, number, number>,
    { description: `${description} From ${min} to ${max}.`, example },
  );

const bool = (description: string, example: boolean) =>
  extendApi(
    z.preprocess(
      (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
      z.boolean({ invalid_type_error: 'must be true or false' }),
    ) as unknown as z.ZodEffects<z.ZodBoolean, boolean, boolean>,
    { description: `${description} \`true\` or \`false\`.`, example },
  );

export const ZValuationQuery = z
  .object({
    listing_id: extendApi(z.string().regex(/^lst_[a-z0-9]{20}$/, 'is not a listing id (lst_ followed by 20 characters)'), {
      description:
        'Value this listed property: its city, quarter, type, purpose and features are the subject (parameters given beside it override them), and it is never its own comparable.',
      example: 'lst_8g2kq4m7x9c3v5b1n6d0',
    }).optional(),
    city: textParam('City of the subject (required without `listing_id`), matched like the search’s `city`.', 'Douala').optional(),
    neighborhood: textParam(
      'Quarter of the subject, matched like the search’s `neighborhood`. Without it, `near` (or `lat` and `lng`) places the subject in the nearest known quarter.',
      'Bonapriso',
    ).optional(),
    near: pointParam(
      'Point of the subject, `lat,lng` in decimal degrees (WGS84), as the search’s `near`: it must lie in the subject’s city (a 400 otherwise, suggesting the swap when latitude and longitude look exchanged). Without `neighborhood`, it places the subject in the nearest known quarter.',
    ),
    lat: decimal(
      'Latitude of the subject (WGS84), with `lng`: the same as `near=lat,lng`, kept for existing callers.',
      4.0256,
      -90,
      90,
    ).optional(),
    lng: decimal(
      'Longitude of the subject (WGS84), with `lat`: the same as `near=lat,lng`, kept for existing callers.',
      9.693,
      -180,
      180,
    ).optional(),
    type: extendApi(enumParam(PROPERTY_TYPES), {
      description: 'Kind of property (required without `listing_id`).',
      example: 'apartment',
    }).optional(),
    purpose: extendApi(enumParam(PURPOSES), {
      description: 'What is valued: a sale price, a monthly rent or a monthly furnished rent (required without `listing_id`).',
      example: 'rent',
    }).optional(),
    surface: wholeNumberParam('Surface, m², when known (the range is wider without it).', 120, 1, MAX_SURFACE).optional(),
    bedrooms: wholeNumberParam('Bedrooms, when known.', 3, 0, MAX_ROOMS).optional(),
    bathrooms: wholeNumberParam('Bathrooms, when known.', 2, 0, MAX_ROOMS).optional(),
    furnished: bool('Furnished, when known (a `furnished_rent` is furnished).', false).optional(),
    land_title: extendApi(enumParam(LAND_TITLES), {
      description: 'Land title (titre foncier) of the property, when known: `titled`, `untitled`, `in_progress` or `unknown`.',
      example: 'titled',
    }).optional(),
    currency: currencyParam('every amount'),
  })
  .strict()
  .superRefine((q, ctx) => {
    if ((q.lat === undefined) !== (q.lng === undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'lat and lng go together', path: [q.lat === undefined ? 'lat' : 'lng'] });
    }
    if (q.near !== undefined && (q.lat !== undefined || q.lng !== undefined)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'the point is given once: near=lat,lng, or lat and lng', path: ['near'] });
    }
    if (q.listing_id !== undefined) return;
    for (const name of ['city', 'type', 'purpose'] as const) {
      if (q[name] === undefined) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is required without listing_id', path: [name] });
      }
    }
  });
export type TValuationQueryParsed = z.output<typeof ZValuationQuery>;

const money = (description: string, example: number) =>
  extendApi(z.number().min(0), { description: `${description} In \`currency\`: whole XAF, or EUR to the cent.`, example });

export const ZValuationEstimate = z.object({
  price: money('The estimate: a sale price, or a monthly rent.', 185000000),
  low: money(`Low end of the range: the price lies in [low, high] with probability \`confidence_level\`.`, 150000000),
  high: money('High end of the range.', 228000000),
  confidence_level: extendApi(z.number(), {
    description: 'Probability the range is built for, checked on held-out adverts (docs/valuations.md).',
    example: VALUATION_CONFIDENCE_LEVEL,
  }),
  fsd: extendApi(z.number().min(0), {
    description: 'Forecast standard deviation, as a fraction of the price (the standard deviation of the log price).',
    example: 0.16,
  }),
  confidence: extendApi(oneOf(VALUATION_CONFIDENCES), {
    description: `\`high\` when fsd ≤ ${VALUATION_FSD_BANDS.high}, \`medium\` when fsd ≤ ${VALUATION_FSD_BANDS.medium}, else \`low\`. Measured on real rent adverts (docs/valuations.md), the share of prices within 10 % of the estimate is ${pct(VALUATION_LABEL_PE10.high)} for \`high\`, ${pct(VALUATION_LABEL_PE10.medium)} for \`medium\` and ${pct(VALUATION_LABEL_PE10.low)} for \`low\`.`,
    example: 'medium',
  }),
});

export const ZComparable = ZListing.extend({
  distance_m: extendApi(z.number().int().min(0), {
    description: 'Metres from the subject, between the points known (an advert’s own point, else its quarter’s centroid).',
    example: 850,
  }),
  similarity: extendApi(z.number().min(0).max(1), {
    description: 'How alike it is to the subject, 0 to 1 (place, surface, rooms, age of the advert).',
    example: 0.82,
  }),
  adjusted_price: money(
    'What this advert says of the subject: its price adjusted for the differences of surface, bedrooms, quarter and age of the advert.',
    192000000,
  ),
  adjustments: extendApi(
    z.object({
      surface: z.number(),
      bedrooms: z.number(),
      bathrooms: z.number(),
      furnished: z.number(),
      land_title: z.number(),
      age: z.number(),
      quarter: z.number(),
    }),
    {
      description:
        'The factors its price was multiplied by (rounded to 4 decimals; `adjusted_price` uses them unrounded): `surface` = (subject surface / its surface)^`coefficients.surface`, `bedrooms` = ((1 + subject bedrooms) / (1 + its bedrooms))^`coefficients.bedrooms`, `bathrooms` = (subject bathrooms / its bathrooms)^`coefficients.bathrooms` when both say them (else the level of adverts that do not say them against those that do), `furnished` = exp(`coefficients.furnished` × (subject furnished − it furnished, each 1 or 0)), `land_title` = exp(`coefficients.land_title` × (subject title code − its code); codes: titled 1, in_progress 0.4, unknown 0, untitled −1), `age` = exp(`coefficients.age` × (subject age − its age, in years)), `quarter` = the price level of the subject’s quarter against its quarter (1 in the same quarter). A factor is 1 when the subject or the advert does not know that feature; an advert lacking a feature the subject gives is adjusted with the slopes fitted without that feature.',
      example: { surface: 1.08, bedrooms: 1, bathrooms: 1, furnished: 1, land_title: 1, age: 1.01, quarter: 1 },
    },
  ),
  weight: extendApi(z.number().min(0).max(1), {
    description: 'Its share of the estimate (the weights of all comparables used sum to 1).',
    example: 0.07,
  }),
});

export const ZValuation = z.object({
  estimate: ZValuationEstimate,
  comparables: extendApi(z.array(ZComparable), {
    description: `Up to ${VALUATION_MAX_COMPARABLES} comparables, most similar first.`,
  }),
  method: extendApi(oneOf(VALUATION_METHODS), {
    description:
      '`quarter_comparables`: adverts of the same type and purpose in the subject’s quarter; `city_comparables`: the quarter has too few (or is not one Mboa knows: `subject.neighborhood` then echoes the name given and the subject stands at the city’s level, the median of its quarters), so adverts of the city, each adjusted by the difference of price level between its quarter and the subject’s (wider range). A quarter with few adverts borrows its level from its nearest quarters.',
    example: 'quarter_comparables',
  }),
  valued_as_type: extendApi(oneOf(PROPERTY_TYPES).nullable(), {
    description:
      'null when the subject was valued from adverts of its own type. Else the type it was valued through, because its own had too few adverts: a `studio` from `apartment` adverts (as a flat of no bedroom), a `room` from `studio` adverts, a `duplex` from houses or flats, a `villa` from houses, a `house` from villas or duplexes; the range is then 1.5 times as wide (in log terms) and `method_detail` says so.',
    example: null,
  }),
  method_detail: extendApi(z.string(), {
    description: 'The method in words, with what the estimate could not use.',
    example: 'Comparables in Bonapriso.',
  }),
  coefficients: extendApi(
    z.object({
      surface: z.number().nullable(),
      bedrooms: z.number().nullable(),
      bathrooms: z.number().nullable(),
      furnished: z.number(),
      land_title: z.number(),
      age: z.number(),
    }),
    {
      description:
        'The adjustment slopes fitted on the adverts of this type and purpose (within each quarter): surface elasticity, elasticity to (1 + bedrooms), elasticity to bathrooms, log price effect of being furnished and of the land title code, and log price change per year of an advert’s age; null when the subject does not give that feature.',
      example: { surface: 0.93, bedrooms: 0.12, bathrooms: 0.3, furnished: 0.55, land_title: 0.1, age: 0.01 },
    },
  ),
  basis: extendApi(z.literal('asking_prices'), {
    description: 'Mboa sees adverts, not deeds: the estimate is an asking price (or asked rent), not a transaction price.',
    example: 'asking_prices',
  }),
  sample_size: extendApi(z.number().int().min(0), { description: 'Comparables the estimate rests on.', example: 48 }),
  subject: extendApi(
    z.object({
      city: z.string(),
      neighborhood: z.string().nullable(),
      type: oneOf(PROPERTY_TYPES),
      purpose: oneOf(PURPOSES),
      surface: z.number().nullable(),
      bedrooms: z.number().int().nullable(),
      bathrooms: z.number().int().nullable(),
      furnished: z.boolean().nullable(),
      land_title: oneOf(LAND_TITLES).nullable(),
    }),
    { description: 'The subject as valued (from the query, or from the listing).' },
  ),
  currency: ZCurrency,
  as_of: extendApi(z.string().datetime({ offset: true }), {
    description: 'The instant the valuation reflects.',
    example: '2026-11-25T06:00:00.000Z',
  }),
});
export type TValuation = z.infer<typeof ZValuation>;

export const ZValuationResponse = z.object({ data: ZValuation, meta: ZSingleMeta });
