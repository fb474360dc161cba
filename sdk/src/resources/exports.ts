/** `mboa.exports`: the Enterprise bulk export, read as an async iterator that resumes by itself. */
import type { ResponseInfo, WithResponse } from '../core/api-promise.js';
import { ConnectionError, MboaError, RequestAbortedError } from '../core/errors.js';
import type { HttpCore, OpenStream, RequestOptions } from '../core/http.js';
import { sleep } from '../core/retry.js';
import { LineSplitter } from '../core/ndjson.js';
import { type QuotaHeaders, readQuotaHeaders } from '../core/quota-headers.js';
import { backoffDelayMs, retryDelayFor } from '../core/retry.js';
import type { ListingExportParams } from '../export-types.js';
import type { Listing } from '../types.js';

/** `application/x-ndjson` (what the API sends) or `application/ndjson`. */
const NDJSON = /^application\/(x-)?ndjson\s*(;|$)/i;

/** Bulk exports (Enterprise plan): `mboa.exports`. */
export class Exports {
  readonly #http: HttpCore;

  /** @internal Built by the client. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Every listing matching `params`, in `id` order, streamed as NDJSON from
   * `GET /api/v1/exports/listings` (Enterprise plan): iterate it with `for await`.
   *
   * ```ts
   * const listings = mboa.exports.listings({ city: 'Douala', status: 'any' });
   * for await (const listing of listings) await store(listing);
   * console.log(`${listings.received} listings, ${listings.resumes} resumes`);
   * ```
   *
   * Nothing is sent until the loop starts (or `withResponse()` is called). If the
   * connection breaks mid-stream, the client asks again with `after` = the id of the
   * last complete line, so the loop sees every listing once, none lost and none twice; a
   * line cut in half is never handed out. Between two listings received, it retries at
   * most `maxRetries` times (connection errors, timeouts, 429 `rate_limited`, 5xx),
   * with the usual backoff; then it throws, and `lastId` says where to continue.
   *
   * Quota: each request is charged one call per started 1,000 listings it sends (a
   * resumed export is charged for what each of its requests sent). `quota` holds the
   * quota from the answer's `X-Quota-*` headers.
   *
   * @throws {PlanForbiddenError} from the loop, on the Starter and Pro plans.
   * @throws {ValidationError} from the loop, for an unknown or malformed filter.
   */
  listings(params: ListingExportParams = {}, options: RequestOptions = {}): ListingExport {
    return new ListingExport(this.#http, params, options);
  }
}

/** A connection that answered 2xx, and the retries it took since the last listing received. */
interface Opened {
  stream: OpenStream;
  failures: number;
}

/**
 * One export in progress: an async iterable of listings, with what it has done so far.
 * Iterating again after a `break` continues after `lastId` with a new request.
 */
export class ListingExport implements AsyncIterable<Listing> {
  /** The filters this export was started with. */
  readonly params: Readonly<ListingExportParams>;
  readonly #http: HttpCore;
  readonly #options: RequestOptions;
  #lastId: string | undefined;
  #received = 0;
  #resumes = 0;
  #complete = false;
  #response: ResponseInfo | undefined;
  #quota: QuotaHeaders | undefined;
  /** The first connection: opened by `withResponse()` or by the first loop, read by the loop. */
  #first: Promise<Opened> | undefined;
  #firstTaken = false;
  #reading = false;

  /** @internal Built by `mboa.exports.listings()`. */
  constructor(http: HttpCore, params: ListingExportParams, options: RequestOptions) {
    this.#http = http;
    this.params = Object.freeze({ ...params });
    this.#options = options;
    this.#lastId = params.after;
  }

  /**
   * Id of the last listing handed to your loop (or the `after` you started with).
   * To continue in a later run: `exports.listings({ ...sameParams, after: lastId })`.
   */
  get lastId(): string | undefined {
    return this.#lastId;
  }

  /** Listings handed to your loop so far. */
  get received(): number {
    return this.#received;
  }

  /** Times the client reconnected after the stream broke. */
  get resumes(): number {
    return this.#resumes;
  }

  /** Whether the server ended the stream normally: the export is complete. */
  get complete(): boolean {
    return this.#complete;
  }

  /** Status, headers and request id of the latest answer, once one arrived. */
  get response(): ResponseInfo | undefined {
    return this.#response;
  }

  /** The quota from the latest answer's `X-Quota-*` headers (`limit` and `remaining` null when unlimited). */
  get quota(): QuotaHeaders | undefined {
    return this.#quota;
  }

  /**
   * Sends the first request (with its retries) unless the loop already did, and resolves
   * once its headers arrive: `{ data: this export, status, headers, requestId }`. The loop
   * then reads that same answer. Rejects as the loop would (`PlanForbiddenError`...), so it
   * tells whether the key may export before anything is read. To give up an export opened
   * this way without reading it, abort the `signal` you passed.
   */
  async withResponse(): Promise<WithResponse<ListingExport>> {
    this.#first ??= this.#open(0);
    const { stream } = await this.#first;
    return { data: this, status: stream.status, headers: stream.headers, requestId: stream.requestId };
  }

  /** Every listing of the export, resuming after a broken connection. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Listing, void, undefined> {
    if (this.#reading) {
      throw new MboaError('This export is already being read by another loop.', { code: 'invalid_argument' });
    }
    if (this.#complete) return;
    this.#reading = true;
    try {
      let failures = 0;
      for (;;) {
        let opened: Opened;
        if (!this.#firstTaken) {
          this.#firstTaken = true;
          opened = await (this.#first ??= this.#open(failures));
        } else {
          opened = await this.#open(failures);
        }
        const { stream } = opened;
        failures = opened.failures;

        const lines = new LineSplitter();
        let broken: ConnectionError | undefined;
        try {
          for await (const chunk of stream.chunks()) {
            for (const line of lines.push(chunk)) {
              if (line.trim() === '') continue;
              const listing = parseListing(line, stream.requestId);
              this.#lastId = listing.id;
              this.#received++;
              failures = 0;
              yield listing;
            }
          }
          if (lines.endsMidLine()) broken = new ConnectionError('The export stream ended in the middle of a line.');
        } catch (err) {
          // Connection errors and timeouts are what resuming is for; an abort, or a line
          // that is complete but not a listing, would fail the same way again.
          if (!(err instanceof ConnectionError)) throw err;
          broken = err;
        }

        if (!broken) {
          this.#complete = true;
          this.#http.log?.(`export complete: ${this.#received} listings, ${this.#resumes} resumes`, {
            event: 'export_end',
            method: 'GET',
            url: this.#call().url,
            requestId: stream.requestId,
            durationMs: stream.elapsed(),
            received: this.#received,
          });
          return;
        }
        const call = this.#call();
        if (failures >= call.maxRetries) throw broken;
        const delay = backoffDelayMs(failures);
        failures++;
        this.#resumes++;
        this.#http.logRetry(call, broken, delay, failures, { event: 'resume', received: this.#received });
        await sleep(delay, call.signal);
      }
    } finally {
      this.#reading = false;
    }
  }

  /** The request as it would be sent now: the filters, and `after` the last listing received. */
  #call() {
    const query = { ...this.params, after: this.#lastId };
    return this.#http.prepare('/exports/listings', query, this.#options, 'application/x-ndjson');
  }

  /**
   * Opens the stream after `lastId`, retrying what can be retried while `failures`
   * (retries since the last listing received) stays within `maxRetries`.
   */
  async #open(failures: number): Promise<Opened> {
    for (;;) {
      const call = this.#call();
      if (call.signal?.aborted) throw new RequestAbortedError(call.signal.reason);
      try {
        const stream = await this.#http.openStream(call, failures + 1, NDJSON);
        this.#response = { status: stream.status, headers: stream.headers, requestId: stream.requestId };
        this.#quota = readQuotaHeaders(stream.headers) ?? this.#quota;
        return { stream, failures };
      } catch (err) {
        const delay = failures < call.maxRetries ? retryDelayFor(err, failures) : undefined;
        if (delay === undefined) throw err;
        failures++;
        this.#http.logRetry(call, err, delay, failures);
        await sleep(delay, call.signal);
      }
    }
  }

  /** Shows as `ListingExport` in logs. */
  get [Symbol.toStringTag](): string {
    return 'ListingExport';
  }
}

/** One complete NDJSON line as a listing; anything else is the server's fault, not the network's. */
function parseListing(line: string, requestId: string | undefined): Listing {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string') {
    throw new MboaError(`The export sent a line that is not a listing: ${line.slice(0, 200)}`, {
      code: 'invalid_response',
      requestId,
    });
  }
  return value as Listing;
}
