/** `mboa.market`: aggregated statistics and 30-day trends. */
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
   * Volume, average, median, minimum and maximum price and price per m² of active
   * listings, one row per city and purpose (`GET /api/v1/market/stats`). Every plan.
   *
   * ```ts
   * const { data } = await mboa.market.stats({ city: 'Douala', purpose: 'sale' });
   * ```
   */
  stats(params: MarketStatsParams = {}, options?: RequestOptions): Promise<MarketStatsResponse> {
    return this.#http.get<MarketStatsResponse>('/market/stats', params, options);
  }

  /**
   * Listings published over the last 30 days per city, neighbourhood, type and purpose,
   * with the change against the 30 days before (`GET /api/v1/market/trends`).
   *
   * @throws {PlanForbiddenError} on the Starter plan: trends need Pro or Enterprise.
   */
  trends(params: MarketTrendsParams = {}, options?: RequestOptions): Promise<MarketTrendsResponse> {
    return this.#http.get<MarketTrendsResponse>('/market/trends', params, options);
  }
}
