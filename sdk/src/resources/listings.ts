/** `mboa.listings`: search (paginated) and detail. */
import { APIPromise } from '../core/api-promise.js';
import { MboaError } from '../core/errors.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import { CursorPage, PagePromise } from '../core/pagination.js';
import type { Listing, ListingGetParams, ListingResponse, ListingSearchParams, ListingSearchResponse } from '../types.js';

const REQUEST_OPTION_KEYS = ['timeout', 'maxRetries', 'signal'] as const;

/** Listing search and detail: `mboa.listings`. */
export class Listings {
  readonly #http: HttpCore;

  /** @internal Built by the client. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Searches listings (`GET /api/v1/listings`). Await it for one page, or iterate it to
   * walk every matching listing, fetching pages of `limit` as the loop goes:
   *
   * ```ts
   * for await (const listing of mboa.listings.search({ city: 'Douala', purpose: 'sale' })) {
   *   console.log(listing.id, listing.price);
   * }
   * const page = await mboa.listings.search({ city: 'Douala', limit: 200 });
   * page.meta.total; page.data; page.hasNextPage(); await page.getNextPage();
   * ```
   *
   * To resume an interrupted walk, save `page.meta.next_cursor` and call again with the
   * same parameters plus `cursor` (other parameters make it an `InvalidCursorError`).
   * Each page is one call of your monthly quota. `withResponse()` gives the first page
   * with its status, headers and request id; every page has its own in `page.response`.
   * `currency: 'EUR'` gives every amount in euros (and makes `min_price`/`max_price` whole euros).
   *
   * @throws {ValidationError} an unknown or malformed parameter, e.g. `limit` above 200, or
   * an unknown city or neighbourhood (`error.errors[].suggestions` has the closest known names).
   * @throws {InvalidCursorError} a cursor tampered with or reused with other parameters.
   */
  search(params: ListingSearchParams = {}, options?: RequestOptions): PagePromise<Listing> {
    const load = async (cursor: string | undefined): Promise<CursorPage<Listing>> => {
      const answer = await this.#http.get<ListingSearchResponse>('/listings', { ...params, cursor }, options).withResponse();
      return new CursorPage(answer, load);
    };
    return new PagePromise(load(params.cursor));
  }

  /**
   * One listing with its price history (`GET /api/v1/listings/{id}`). Removed listings
   * stay readable, with their `status` and `removed_at`. `.withResponse()` adds the
   * status, headers and request id.
   *
   * ```ts
   * const { data } = await mboa.listings.get('lst_8g2kq4m7x9c3v5b1n6d0');
   * const inEuros = await mboa.listings.get('lst_8g2kq4m7x9c3v5b1n6d0', { currency: 'EUR' }, { timeout: 5_000 });
   * ```
   *
   * @param id The listing id, `lst_` followed by 20 characters.
   * @param params `currency` of the amounts (default XAF). May be left out: `get(id, options)`.
   * @throws {NotFoundError} no listing has this id.
   */
  get(id: string, options?: RequestOptions): APIPromise<ListingResponse>;
  get(id: string, params: ListingGetParams, options?: RequestOptions): APIPromise<ListingResponse>;
  get(id: string, paramsOrOptions: ListingGetParams | RequestOptions = {}, options?: RequestOptions): APIPromise<ListingResponse> {
    if (typeof id !== 'string' || id.trim() === '') {
      // An empty id would turn `/listings/{id}` into the search endpoint.
      const error = new MboaError('listings.get(id) needs a listing id, such as "lst_8g2kq4m7x9c3v5b1n6d0".', { code: 'invalid_argument' });
      return new APIPromise<ListingResponse>(Promise.reject(error));
    }
    // `get(id, options)`, the form that came before `params`, stays valid.
    const given = paramsOrOptions ?? {};
    const optionsOnly = options === undefined && REQUEST_OPTION_KEYS.some((k) => k in given);
    const params = optionsOnly ? {} : (given as ListingGetParams);
    return this.#http.get<ListingResponse>(
      `/listings/${encodeURIComponent(id)}`,
      params,
      optionsOnly ? (given as RequestOptions) : options,
    );
  }
}
