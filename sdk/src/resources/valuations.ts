/** `mboa.valuations`: an estimate of one property's asking price or rent, from comparable adverts. */
import type { APIPromise } from '../core/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import type { ValuationsGetParams, ValuationsGetResponse } from '../types.js';

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
}
