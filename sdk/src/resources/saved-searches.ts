/** `mboa.savedSearches`: the filters of a search under a name, and the listings they match now (Pro and Enterprise). */
import type { APIPromise } from '../core/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import type {
  ListingSearchParams,
  SavedSearchesCreateResponse,
  SavedSearchesDeleteResponse,
  SavedSearchesGetResponse,
  SavedSearchesListingsParams,
  SavedSearchesListingsResponse,
  SavedSearchesListResponse,
  SavedSearchesUpdateResponse,
} from '../types.js';

/** The filters of a saved search: those of `listings.search` but the page's own (prices in XAF). */
export type SavedSearchFilters = Omit<ListingSearchParams, 'sort' | 'limit' | 'cursor' | 'currency'>;

const path = (id: string) => `/saved-searches/${encodeURIComponent(id)}`;

/** Saved searches: `mboa.savedSearches`. */
export class SavedSearches {
  readonly #http: HttpCore;

  /** @internal Built by the client. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Saves a search (`POST /api/v1/saved-searches`).
   *
   * ```ts
   * const { data } = await mboa.savedSearches.create({ name: 'Flats in Bonamoussadi', filters: { city: 'Douala', neighborhood: 'Bonamoussadi', type: 'apartment', max_price: 250000 } });
   * ```
   *
   * @throws {PlanLimitReachedError} when the account keeps as many as its plan allows.
   * @throws {ValidationError} an unknown filter or place, or a bad value.
   */
  create(body: { name: string; filters: SavedSearchFilters }, options?: RequestOptions): APIPromise<SavedSearchesCreateResponse> {
    return this.#http.write<SavedSearchesCreateResponse>('POST', '/saved-searches', body, options);
  }

  /** The account's saved searches for the key's dataset, oldest first (`GET /api/v1/saved-searches`). */
  list(options?: RequestOptions): APIPromise<SavedSearchesListResponse> {
    return this.#http.get<SavedSearchesListResponse>('/saved-searches', undefined, options);
  }

  /** One saved search (`GET /api/v1/saved-searches/{id}`). */
  get(id: string, options?: RequestOptions): APIPromise<SavedSearchesGetResponse> {
    return this.#http.get<SavedSearchesGetResponse>(path(id), undefined, options);
  }

  /** Renames it or replaces its filters (`PATCH /api/v1/saved-searches/{id}`). */
  update(
    id: string,
    change: { name?: string; filters?: SavedSearchFilters },
    options?: RequestOptions,
  ): APIPromise<SavedSearchesUpdateResponse> {
    return this.#http.write<SavedSearchesUpdateResponse>('PATCH', path(id), change, options);
  }

  /** Deletes it (`DELETE /api/v1/saved-searches/{id}`). */
  delete(id: string, options?: RequestOptions): APIPromise<SavedSearchesDeleteResponse> {
    return this.#http.write<SavedSearchesDeleteResponse>('DELETE', path(id), undefined, options);
  }

  /** One page of the listings it matches now, read as `listings.search` reads them (`GET /api/v1/saved-searches/{id}/listings`). */
  listings(id: string, params?: SavedSearchesListingsParams, options?: RequestOptions): APIPromise<SavedSearchesListingsResponse> {
    return this.#http.get<SavedSearchesListingsResponse>(`${path(id)}/listings`, params, options);
  }
}
