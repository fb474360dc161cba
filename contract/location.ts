/** Where a listing is: its own point, or its quarter's or city's centroid. Re-exported by schemas.ts. */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { oneOf } from './params.js';

const LOCATION_PRECISIONS = ['street', 'neighborhood', 'city'] as const;

export const ZLocation = extendApi(
  z.object({
    lat: extendApi(z.number(), { description: 'Latitude, WGS84.', example: 4.0256 }),
    lng: extendApi(z.number(), { description: 'Longitude, WGS84.', example: 9.693 }),
    precision: extendApi(oneOf(LOCATION_PRECISIONS), {
      description:
        "`street`: the advert's own point, rounded to about 100 m; `neighborhood`: its quarter's centroid; `city`: its city's centroid (the gazetteer's sources and precisions are in docs/api.md, Quarters).",
      example: 'neighborhood',
    }),
  }),
  { description: 'Where the listing is, as precisely as its source allows; null only in a city outside the gazetteer.' },
);
export type TLocation = z.infer<typeof ZLocation>;
