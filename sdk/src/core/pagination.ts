/**
 * Cursor pagination. The API returns `meta.next_cursor` and `meta.has_more`; the
 * cursor is bound to the filters and sort of the search, so every next page repeats
 * the same parameters with the new cursor. Callers get either one page at a time
 * (`await search()`, `getNextPage()`, `iterPages()`) or every item (`for await`).
 *
 * Status, headers and request id belong to one HTTP answer, so to one page: each
 * `CursorPage` has the `response` it came in, and `withResponse()` on a search gives the
 * first page's. A walk over items spans many answers; use `iterPages()` to see each.
 */
import type { ResponseInfo, WithResponse } from './api-promise.js';
import { MboaError } from './errors.js';
import type { PageMeta } from '../types.js';

/** @internal Fetches the page that starts at `cursor` (the first page when undefined). */
export type PageLoader<Item> = (cursor: string | undefined) => Promise<CursorPage<Item>>;

/** Options of `toArray`. */
export interface ToArrayOptions {
  /**
   * Stop after this many items (required). A search can match hundreds of thousands of
   * listings; the cap makes the memory and quota a call may use a deliberate choice.
   */
  max: number;
}

/**
 * One page of results. Iterate it with `for await` to walk this page and every one
 * after it, or use `iterPages()` to see page boundaries (and save `meta.next_cursor`
 * after each page, to resume later with `search({ ...sameParams, cursor })`).
 */
export class CursorPage<Item> implements AsyncIterable<Item> {
  /** The items of this page. */
  readonly data: Item[];
  /** Pagination (`total`, `returned`, `limit`, `next_cursor`, `has_more`), quota and request id. */
  readonly meta: PageMeta;
  /** Status, headers (`x-quota-remaining`, `ratelimit`...) and request id of the answer this page came in. */
  readonly response: ResponseInfo;
  readonly #load: PageLoader<Item>;

  /** @internal Built by the resources. */
  constructor(answer: WithResponse<{ data: Item[]; meta: PageMeta }>, load: PageLoader<Item>) {
    this.data = answer.data.data;
    this.meta = answer.data.meta;
    this.response = { status: answer.status, headers: answer.headers, requestId: answer.requestId };
    this.#load = load;
  }

  /** Whether another page follows this one. */
  hasNextPage(): boolean {
    return this.meta.has_more && typeof this.meta.next_cursor === 'string' && this.meta.next_cursor !== '';
  }

  /** Fetches the next page. Check `hasNextPage()` first: on the last page this throws. */
  async getNextPage(): Promise<CursorPage<Item>> {
    const cursor = this.meta.next_cursor;
    if (!this.hasNextPage() || cursor === null) {
      throw new MboaError('This is the last page: check hasNextPage() before getNextPage().', { code: 'no_next_page' });
    }
    return this.#load(cursor);
  }

  /** This page, then each following page, fetched as the loop asks for it. */
  async *iterPages(): AsyncGenerator<CursorPage<Item>, void, undefined> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk starts at this page and moves on
    let page: CursorPage<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      const previousCursor = page.meta.next_cursor;
      page = await page.getNextPage();
      // A server that hands back the cursor it was given would make this loop forever.
      if (page.hasNextPage() && page.meta.next_cursor === previousCursor) {
        throw new MboaError('The API returned the same cursor twice; stopping to avoid an endless loop.', {
          code: 'invalid_response',
          requestId: page.meta.request_id,
        });
      }
      yield page;
    }
  }

  /** Every item of this page and the following ones. Breaking out of the loop stops fetching. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }

  /** Items of this page and the following ones, up to `max`; fetches no page beyond what it needs. */
  async toArray(options: ToArrayOptions): Promise<Item[]> {
    const max = checkMax(options);
    const items: Item[] = [];
    if (max === 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}

/**
 * What `listings.search()` returns: await it for the first page, or iterate it directly
 * to walk every item of every page. The request is sent at once, as with any promise.
 */
export class PagePromise<Item> implements PromiseLike<CursorPage<Item>>, AsyncIterable<Item> {
  readonly #page: Promise<CursorPage<Item>>;

  /** @internal Built by the resources. */
  constructor(firstPage: Promise<CursorPage<Item>>) {
    this.#page = firstPage;
  }

  /** Resolves with the first page (this is what `await` calls). */
  then<TResult1 = CursorPage<Item>, TResult2 = never>(
    onfulfilled?: ((page: CursorPage<Item>) => TResult1 | PromiseLike<TResult1>) | null,
    onrejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    return this.#page.then(onfulfilled, onrejected);
  }

  /**
   * The first page with the HTTP answer it came in: `{ data: firstPage, status, headers,
   * requestId }` (each later page has its own in `page.response`). Same request as
   * awaiting the search.
   */
  async withResponse(): Promise<WithResponse<CursorPage<Item>>> {
    const page = await this.#page;
    return { data: page, ...page.response };
  }

  /** Handles a failure of the first page's request. */
  catch<TResult = never>(onrejected?: ((reason: unknown) => TResult | PromiseLike<TResult>) | null): Promise<CursorPage<Item> | TResult> {
    return this.#page.catch(onrejected);
  }

  /** Runs `onfinally` once the first page has arrived or failed. */
  finally(onfinally?: (() => void) | null): Promise<CursorPage<Item>> {
    return this.#page.finally(onfinally);
  }

  /** Every page, starting with the first. */
  async *iterPages(): AsyncGenerator<CursorPage<Item>, void, undefined> {
    yield* (await this.#page).iterPages();
  }

  /** Every item of every page. Breaking out of the loop stops fetching. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this.#page;
  }

  /** Items of every page, up to `max` (required); fetches no page beyond what it needs. */
  async toArray(options: ToArrayOptions): Promise<Item[]> {
    try {
      checkMax(options);
    } catch (err) {
      // The first page is already on its way; its failure must not surface as unhandled.
      this.#page.catch(() => undefined);
      throw err;
    }
    return (await this.#page).toArray(options);
  }

  /** Shows as `PagePromise` in logs. */
  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}

function checkMax(options: ToArrayOptions | undefined): number {
  const max = options?.max;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
    throw new MboaError('toArray({ max }) needs a cap: a whole number of items, such as { max: 10_000 }.', {
      code: 'invalid_argument',
    });
  }
  return max;
}
