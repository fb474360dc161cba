/** `mboa.listings`: search (paginated) and detail. */
import { MboaError } from '../core/errors.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import { CursorPage, PagePromise } from '../core/pagination.js';
import type { Listing, ListingResponse, ListingSearchParams, ListingSearchResponse } from '../types.js';

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
   * Each page is one call of your monthly quota.
   *
   * @throws {ValidationError} an unknown or malformed parameter, e.g. `limit` above 200.
   * @throws {InvalidCursorError} a cursor tampered with or reused with other parameters.
   */
  search(params: ListingSearchParams = {}, options?: RequestOptions): PagePromise<Listing> {
    const load = async (cursor: string | undefined): Promise<CursorPage<Listing>> => {
      const body = await this.#http.get<ListingSearchResponse>('/listings', { ...params, cursor }, options);
      return new CursorPage(body, load);
    };
    return new PagePromise(load(params.cursor));
  }

  /**
   * One listing with its price history (`GET /api/v1/listings/{id}`). Removed listings
   * stay readable, with their `status` and `removed_at`.
   *
   * @param id The listing id, `lst_` followed by 20 characters.
   * @throws {NotFoundError} no listing has this id.
   */
  async get(id: string, options?: RequestOptions): Promise<ListingResponse> {
    if (typeof id !== 'string' || id.trim() === '') {
      // An empty id would turn `/listings/{id}` into the search endpoint.
      throw new MboaError('listings.get(id) needs a listing id, such as "lst_8g2kq4m7x9c3v5b1n6d0".', { code: 'invalid_argument' });
    }
    return this.#http.get<ListingResponse>(`/listings/${encodeURIComponent(id)}`, undefined, options);
  }
}
