/**
 * What every call returns: a promise of the parsed body that can also give the HTTP
 * answer around it (status, headers, request id), as openai-node's `APIPromise` does.
 * The body stays the simple case (`await mboa.ping()`); the answer is one call away
 * (`await mboa.ping().withResponse()`), with no second request.
 */

/** What an HTTP answer said besides its body. */
export interface ResponseInfo {
  /** HTTP status of the answer (2xx: errors are thrown, with the same fields on the error). */
  status: number;
  /**
   * Response headers, names lower-cased: `x-request-id`, `x-quota-limit`,
   * `x-quota-remaining`, `x-quota-reset`, `ratelimit`, `ratelimit-policy`,
   * `x-ratelimit-remaining`, `content-type`...
   */
  headers: Record<string, string>;
  /** The `X-Request-Id` of the answer: quote it to support. Undefined only if a proxy dropped it. */
  requestId: string | undefined;
}

/** The parsed body of a call (`data`) together with the HTTP answer it came in. */
export interface WithResponse<T> extends ResponseInfo {
  /** What awaiting the call itself gives: the parsed body (a `CursorPage` for a search). */
  data: T;
}

/**
 * A promise of a call's parsed body, with `withResponse()` for its status, headers and
 * request id. The request is sent at once, as with any promise; `then`, `catch` and
 * `finally` behave as on the body's promise, so `await` gives the body.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #answer: Promise<WithResponse<T>>;

  /** @internal Built by the client's transport. */
  constructor(answer: Promise<WithResponse<T>>) {
    // The Promise this class extends never settles on its own: every method below reads
    // `#answer` instead, so there is exactly one request and one outcome.
    super(() => undefined);
    this.#answer = answer;
  }

  /**
   * The body with the HTTP answer it came in: `{ data, status, headers, requestId }`.
   * Same request as awaiting the promise itself; rejects with the same error.
   *
   * ```ts
   * const { data, headers, requestId } = await mboa.market.stats({ city: 'Douala' }).withResponse();
   * console.log(headers['x-quota-remaining'], requestId);
   * ```
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#answer;
  }

  /** Resolves with the parsed body (this is what `await` calls). */
  override then<TResult1 = T, TResult2 = never>(
    onfulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | null,
    onrejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    return this.#answer.then((answer) => answer.data).then(onfulfilled, onrejected);
  }

  /** Handles a failure of the call. */
  override catch<TResult = never>(onrejected?: ((reason: unknown) => TResult | PromiseLike<TResult>) | null): Promise<T | TResult> {
    return this.then(undefined, onrejected);
  }

  /** Runs `onfinally` once the call has succeeded or failed. */
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  /** Shows as `APIPromise` in logs. */
  override get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
