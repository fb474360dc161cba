/** `mboa.market`: aggregated statistics and 30-day trends. Both take `.withResponse()`. */
import type { APIPromise } from '../core/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import type { MarketStatsParams, MarketStatsResponse, MarketTrendsParams, MarketTrendsResponse } from '../types.js';

/** Market figures over active listings: `mboa.market`. */
export class Market {
  readonly #http: HttpCore;

  /** @internal Built by the client. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Volume, mean, minimum, quartiles, median and maximum of price and of price per m² of
   * active listings, one row per city (or per neighbourhood, with `neighborhood`) and
   * purpose, each with its sample size (`GET /api/v1/market/stats`). Every plan.
   *
   * ```ts
   * const { data } = await mboa.market.stats({ city: 'Douala', neighborhood: 'Bonapriso', purpose: 'sale' });
   * ```
   *
   * @throws {ValidationError} an unknown city or neighbourhood (with suggestions).
   */
  stats(params: MarketStatsParams = {}, options?: RequestOptions): APIPromise<MarketStatsResponse> {
    return this.#http.get<MarketStatsResponse>('/market/stats', params, options);
  }

  /**
   * Listings published over the last 30 days per city, neighbourhood, type and purpose,
   * with the change against the 30 days before (`GET /api/v1/market/trends`). Each row
   * has the sample size of both periods; a change is null when either has fewer than 5.
   *
   * @throws {PlanForbiddenError} on the Starter plan: trends need Pro or Enterprise.
   */
  trends(params: MarketTrendsParams = {}, options?: RequestOptions): APIPromise<MarketTrendsResponse> {
    return this.#http.get<MarketTrendsResponse>('/market/trends', params, options);
  }
}
