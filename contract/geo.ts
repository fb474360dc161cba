/**
 * The geographic filters of the listing search and the bulk export: `near` with
 * `radius_m`, `bbox`, and `sort=distance`; `distance_m` on each result when `near` is
 * given. Listings are placed at their own point (rounded to about 100 m) or at their
 * quarter's centroid; a listing located only by its city's centroid is never in a
 * geographic result (a distance to it would mean nothing).
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { wholeNumber } from './params.js';

/** `radius_m` when `near` is given without it, and its largest value. */
export const RADIUS_DEFAULT_M = 5_000;
export const RADIUS_MAX_M = 50_000;

export interface GeoPoint {
  lat: number;
  lng: number;
}
export interface GeoBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** A decimal number as text: optional minus, digits, optional decimals (no exponent, no sign +). */
const DECIMAL = /^-?[0-9]{1,3}(\.[0-9]{1,12})?$/;

/** The numbers of a comma-separated list (or of an array, as typed clients pass them), or null. */
function numbersOf(value: unknown, count: 2): [number, number] | null;
function numbersOf(value: unknown, count: 4): [number, number, number, number] | null;
function numbersOf(value: unknown, count: number): number[] | null {
  const parts = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
  if (!parts || parts.length !== count) return null;
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'number' && Number.isFinite(part)) out.push(part);
    else if (typeof part === 'string' && DECIMAL.test(part.trim())) out.push(Number(part.trim()));
    else return null;
  }
  return out;
}

const latOk = (lat: number) => lat >= -90 && lat <= 90;
const lngOk = (lng: number) => lng >= -180 && lng <= 180;

const NEAR_FORMAT = 'must be `lat,lng` in decimal degrees (latitude -90 to 90, longitude -180 to 180), e.g. 4.0483,9.7043';
const BBOX_FORMAT =
  'must be `min_lng,min_lat,max_lng,max_lat` in decimal degrees (longitude -180 to 180, latitude -90 to 90), e.g. 9.68,4.03,9.73,4.07';

/**
 * Where Mboa has listings: Cameroon's extent with a margin of about 10 km. A point or box
 * outside it finds nothing, and is most often latitude and longitude swapped (Douala is
 * `4.05,9.70`; `9.70,4.05` lies in Nigeria): a 400 that says so, rather than an empty
 * answer that is charged.
 */
export const COVERED_AREA = { name: 'Cameroon', minLat: 1.55, maxLat: 13.2, minLng: 8.4, maxLng: 16.3 } as const;

const covers = (lat: number, lng: number) =>
  lat >= COVERED_AREA.minLat && lat <= COVERED_AREA.maxLat && lng >= COVERED_AREA.minLng && lng <= COVERED_AREA.maxLng;
const boxMeets = (b: GeoBox) =>
  b.minLat <= COVERED_AREA.maxLat && b.maxLat >= COVERED_AREA.minLat && b.minLng <= COVERED_AREA.maxLng && b.maxLng >= COVERED_AREA.minLng;
const OUTSIDE = `is outside ${COVERED_AREA.name} (latitude ${COVERED_AREA.minLat} to ${COVERED_AREA.maxLat}, longitude ${COVERED_AREA.minLng} to ${COVERED_AREA.maxLng}), where Mboa has no listings`;

/** A fresh `near` schema each call: extendApi writes its description onto the schema it is given. */
const nearSchema = () =>
  z.union([z.string(), z.tuple([z.number(), z.number()])]).transform((value, ctx): GeoPoint => {
    const n = numbersOf(value, 2);
    if (!n || !latOk(n[0]) || !lngOk(n[1])) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: NEAR_FORMAT });
      return z.NEVER;
    }
    if (!covers(n[0], n[1])) {
      const swapped = covers(n[1], n[0]) ? `; latitude and longitude look swapped: did you mean near=${n[1]},${n[0]}?` : '';
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${OUTSIDE}${swapped}` });
      return z.NEVER;
    }
    return { lat: n[0], lng: n[1] };
  });

const bbox = z.union([z.string(), z.tuple([z.number(), z.number(), z.number(), z.number()])]).transform((value, ctx): GeoBox => {
  const n = numbersOf(value, 4);
  if (!n || !lngOk(n[0]) || !latOk(n[1]) || !lngOk(n[2]) || !latOk(n[3])) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: BBOX_FORMAT });
    return z.NEVER;
  }
  if (n[0] >= n[2] || n[1] >= n[3]) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message:
        'is empty or inverted: min_lng must be below max_lng and min_lat below max_lat (a box across the 180th meridian is not supported)',
    });
    return z.NEVER;
  }
  const box = { minLng: n[0], minLat: n[1], maxLng: n[2], maxLat: n[3] };
  if (!boxMeets(box)) {
    const swapped = { minLng: n[1], minLat: n[0], maxLng: n[3], maxLat: n[2] };
    const hint = boxMeets(swapped)
      ? `; it looks written as lat,lng: did you mean bbox=${n[1]},${n[0]},${n[3]},${n[2]} (min_lng,min_lat,max_lng,max_lat)?`
      : '';
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${OUTSIDE}${hint}` });
    return z.NEVER;
  }
  return box;
});

const EXCLUDED =
  'Only listings with a point of their own (`location.precision` `street`) or placed at their quarter’s centroid (`neighborhood`) are found; a listing located only by its city (`city`) never is.';

/**
 * A point as every route takes it: `near=lat,lng` (typed clients may pass `[lat, lng]`), in
 * Cameroon, with a 400 suggesting the swap when the swapped point would be inside.
 */
export function pointParam(description: string) {
  return extendApi(nearSchema(), {
    description,
    // On the wire, text; the array form is typed clients' (written with commas).
    type: 'string',
    oneOf: undefined,
    example: '4.0483,9.7043',
  }).optional();
}

/**
 * `near` (its description given) and `radius_m` from 1 to `maxRadius`, `defaultRadius` when
 * absent. Fresh schemas each call: extendApi writes the description onto its schema.
 */
function nearAndRadius(nearDescription: string, defaultRadius: number, maxRadius: number, radiusExample: number) {
  return {
    near: pointParam(nearDescription),
    radius_m: extendApi(wholeNumber(1, maxRadius), {
      description: `Radius around \`near\`, metres: a whole number written in digits, 1 to ${maxRadius.toLocaleString('en-US')}; ${defaultRadius.toLocaleString('en-US')} when \`near\` is given without it. Only with \`near\`.`,
      example: radiusExample,
    }).optional(),
  };
}

/** The geographic query parameters (typed clients pass `near` as `[lat, lng]` and `bbox` as four numbers, or as text). */
export const GEO_PARAMS = {
  ...nearAndRadius(
    `Only listings within \`radius_m\` metres of this point, \`lat,lng\` in decimal degrees (WGS84); each result then carries \`distance_m\`. Combines with every other filter and with \`bbox\` (both apply). ${EXCLUDED} Anything else is a 400 naming the parameter.`,
    RADIUS_DEFAULT_M,
    RADIUS_MAX_M,
    2000,
  ),
  bbox: extendApi(bbox, {
    description: `Only listings inside this box, \`min_lng,min_lat,max_lng,max_lat\` in decimal degrees (WGS84), edges included. ${EXCLUDED} An empty or inverted box is a 400.`,
    type: 'string',
    oneOf: undefined,
    example: '9.68,4.03,9.73,4.07',
  }).optional(),
};

/**
 * `near` and `radius_m` delimiting the area of a figure (market history): `described`
 * says what the area selects; `radius_m` from 1 to `maxRadius`, `defaultRadius` when absent.
 */
export function areaParams(described: string, defaultRadius: number, maxRadius: number) {
  return nearAndRadius(
    `${described} within \`radius_m\` metres of this point, \`lat,lng\` in decimal degrees (WGS84). ${EXCLUDED}`,
    defaultRadius,
    maxRadius,
    1000,
  );
}

/** The value of `sort` that orders by distance to `near`. */
export const DISTANCE_SORT = 'distance';

/** `sort=distance` and `radius_m` need `near`. */
export function checkGeoParams(q: { near?: GeoPoint; radius_m?: number; sort?: string }, ctx: z.RefinementCtx): void {
  if (q.near !== undefined) return;
  if (q.sort === DISTANCE_SORT) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: 'sort=distance needs `near` (the point distances are measured from)',
      path: ['sort'],
    });
  }
  if (q.radius_m !== undefined) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'radius_m applies only with `near`', path: ['radius_m'] });
  }
}

/** `distance_m` on a listing of a search or export with `near`. */
export const distanceField = extendApi(z.number().int().nonnegative(), {
  description:
    'Great-circle distance in whole metres (rounded) from `near` to the listing’s `location`; present only when the search or export was given `near`.',
  example: 840,
});
