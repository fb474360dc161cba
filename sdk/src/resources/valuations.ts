/** `mboa.valuations`: an estimate of one property's asking price or rent, from comparable adverts. */
import type { APIPromise } from '../core/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import type { ValuationsBatchResponse, ValuationsGetParams, ValuationsGetResponse } from '../types.js';

/** Most subjects the API takes in one batch: `batch()` sends a longer list in batches of this size. */
export const VALUATION_BATCH_SIZE = 1000;

/** One subject's answer in a batch: `status: 200` with the single answer's `data`, or its own `error`. */
export type ValuationBatchItem = ValuationsBatchResponse['data'][number];

/** What `batch()` gives: one item per subject, in the order given (`index` counts from the first subject of the list). */
export interface ValuationBatchResult {
  data: ValuationBatchItem[];
  /** Subjects valued: the calls counted in the quota. */
  valued: number;
  /** Batch requests sent (one per started 1,000 subjects). */
  requests: number;
}

/** Automated valuations: `mboa.valuations`. */
export class Valuations {
  readonly #http: HttpCore;

  /** @internal Built by the client. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Values one property (`GET /api/v1/valuations`): the estimate with its range at
   * `confidence_level`, its forecast standard deviation and confidence band, up to 20
   * comparables (most similar first, each with the price it implies for the subject) and
   * the method. The basis is asking prices: Mboa sees adverts, not deeds. Enterprise only.
   *
   * ```ts
   * const { data } = await mboa.valuations.get({ city: 'Douala', neighborhood: 'Bonapriso', type: 'apartment', purpose: 'rent', bedrooms: 3 });
   * console.log(data.estimate.price, data.estimate.low, data.estimate.high, data.estimate.confidence);
   * // or a listed property, never its own comparable:
   * await mboa.valuations.get({ listing_id: 'lst_8g2kq4m7x9c3v5b1n6d0' });
   * ```
   *
   * @throws {InsufficientDataError} too few comparables for an honest estimate (422; `detail` says what is missing).
   * @throws {PlanForbiddenError} on the Starter and Pro plans.
   * @throws {ValidationError} an unknown place, or a subject without `city`, `type` or `purpose` (and no `listing_id`).
   */
  get(params: ValuationsGetParams, options?: RequestOptions): APIPromise<ValuationsGetResponse> {
    return this.#http.get<ValuationsGetResponse>('/valuations', params, options);
  }

  /**
   * Values many properties (`POST /api/v1/valuations/batch`), 1,000 per request, one request
   * after the other, and gives every answer in the order of `subjects`. Each subject takes
   * the parameters of `get()`; one that cannot be valued gets its own `error` (its `status`,
   * `code`, `message`, `errors`) while the others are valued. Counted once per subject valued.
   * Enterprise only.
   *
   * ```ts
   * const { data, valued } = await mboa.valuations.batch(loans.map((l) => ({ city: l.city, neighborhood: l.quarter, type: 'house', purpose: 'sale', bedrooms: l.bedrooms })));
   * for (const item of data) console.log(item.index, 'data' in item ? item.data.estimate.price : item.error.code);
   * ```
   *
   * @throws {PlanForbiddenError} on the Starter and Pro plans.
   * @throws {QuotaExceededError} when the quota is used up before a request (the subjects past it are not sent).
   */
  async batch(subjects: readonly ValuationsGetParams[], options?: RequestOptions): Promise<ValuationBatchResult> {
    const data: ValuationBatchItem[] = [];
    let valued = 0;
    let requests = 0;
    for (let start = 0; start < subjects.length; start += VALUATION_BATCH_SIZE) {
      const chunk = subjects.slice(start, start + VALUATION_BATCH_SIZE);
      const answer = await this.#http.write<ValuationsBatchResponse>('POST', '/valuations/batch', { subjects: chunk }, options);
      requests++;
      valued += answer.meta.valued;
      for (const item of answer.data) data.push({ ...item, index: start + item.index });
    }
    return { data, valued, requests };
  }
}
