/** The OpenAPI document's example answers of `GET /valuations` and `POST /valuations/batch`. */
import type { z } from 'zod';
import type { TListing, TQuota } from '../schemas.js';
import type { ZValuationBatchResponse } from '../valuations-batch.js';
import type { ZValuationResponse } from '../valuations.js';

export function valuationExample(quota: TQuota, requestId: string, comparable: TListing): z.infer<typeof ZValuationResponse> {
  return {
    data: {
      estimate: { price: 465_000_000, low: 380_000_000, high: 568_000_000, confidence_level: 0.8, fsd: 0.16, confidence: 'medium' },
      comparables: [
        {
          ...comparable,
          distance_m: 0,
          similarity: 0.86,
          adjusted_price: 468_000_000,
          adjustments: { surface: 1.04, bedrooms: 1, bathrooms: 1, furnished: 1, land_title: 1, age: 1, quarter: 1 },
          weight: 0.07,
        },
      ],
      method: 'quarter_comparables',
      valued_as_type: null,
      method_detail: 'Comparables in Bonapriso.',
      coefficients: { surface: 0.93, bedrooms: 0.12, bathrooms: 0.3, furnished: 0.55, land_title: 0.1, age: 0.01 },
      basis: 'asking_prices',
      sample_size: 31,
      subject: {
        city: 'Douala',
        neighborhood: 'Bonapriso',
        type: 'villa',
        purpose: 'sale',
        surface: 440,
        bedrooms: 5,
        bathrooms: null,
        furnished: null,
        land_title: 'titled',
      },
      currency: 'XAF',
      as_of: '2026-11-25T06:00:00.000Z',
    },
    meta: { quota, request_id: requestId, dataset: 'live' },
  };
}

/** The example answer of `POST /valuations/batch`: one subject valued, one refused with the single call's error. */
export function valuationBatchExample(quota: TQuota, requestId: string, comparable: TListing): z.infer<typeof ZValuationBatchResponse> {
  const one = valuationExample(quota, requestId, comparable);
  return {
    data: [
      { index: 0, status: 200, data: one.data },
      {
        index: 1,
        status: 400,
        error: {
          code: 'validation_error',
          message: 'city: unknown city "Doula"; did you mean Douala?',
          errors: [{ path: 'city', message: 'unknown city "Doula"; did you mean Douala?', suggestions: ['Douala'] }],
        },
      },
    ],
    meta: { ...one.meta, subjects: 2, valued: 1 },
  };
}
