/** `mboa.market`: aggregated statistics, 30-day trends and monthly history. All take `.withResponse()`. */
import type { APIPromise } from '../core/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import type {
  MarketHistoryParams,
  MarketHistoryResponse,
  MarketStatsParams,
  MarketStatsResponse,
  MarketTrendsParams,
  MarketTrendsResponse,
} from '../types.js';

/** Options of `market.history()`: `format: 'csv'` for the CSV text instead of JSON. */
export interface HistoryOptions extends RequestOptions {
  format?: 'json' | 'csv';
}

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
   * `group_by: 'bedrooms'` gives one row per number of bedrooms (5 meaning 5 or more),
   * `bedrooms` the rows of one count.
   *
   * ```ts
   * const { data } = await mboa.market.stats({ city: 'Douala', neighborhood: 'Bonapriso', purpose: 'sale' });
   * const byRooms = await mboa.market.stats({ city: 'Douala', purpose: 'rent', type: 'apartment', group_by: 'bedrooms' });
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
   * `bedrooms` and `group_by: 'bedrooms'` as for `stats()`.
   *
   * @throws {PlanForbiddenError} on the Starter plan: trends need Pro or Enterprise.
   */
  trends(params: MarketTrendsParams = {}, options?: RequestOptions): APIPromise<MarketTrendsResponse> {
    return this.#http.get<MarketTrendsResponse>('/market/trends', params, options);
  }

  /**
   * One point per calendar month for a city or quarter, a purpose and optionally a type
   * and a bedroom count (`GET /api/v1/market/history`): active listings at the month's end,
   * published and removed ones, price quartiles and median (null under 5 listings), median
   * price per m² and days on market, and the median's change against a year before.
   * With `{ format: 'csv' }` resolves with the CSV text (a header row, one line per month).
   *
   * ```ts
   * const { data } = await mboa.market.history({ city: 'Douala', purpose: 'rent', type: 'apartment', bedrooms: 2 });
   * const csv = await mboa.market.history({ city: 'Douala', purpose: 'rent' }, { format: 'csv' });
   * ```
   *
   * @throws {PlanForbiddenError} on the Starter plan: history needs Pro or Enterprise.
   */
  history(params: MarketHistoryParams, options: HistoryOptions & { format: 'csv' }): APIPromise<string>;
  history(params: MarketHistoryParams, options?: HistoryOptions & { format?: 'json' }): APIPromise<MarketHistoryResponse>;
  history(params: MarketHistoryParams, options: HistoryOptions = {}): APIPromise<MarketHistoryResponse> | APIPromise<string> {
    const { format, ...rest } = options;
    if (format === 'csv') return this.#http.getText('/market/history', params, rest, 'text/csv');
    return this.#http.get<MarketHistoryResponse>('/market/history', params, rest);
  }
}
