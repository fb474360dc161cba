/** `mboa.webhookEndpoints`: where Mboa POSTs events, their secrets and delivery logs (Pro and Enterprise). */
import type { APIPromise } from '../core/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/http.js';
import type {
  WebhookEndpointsCreateResponse,
  WebhookEndpointsDeleteResponse,
  WebhookEndpointsDeliveriesResponse,
  WebhookEndpointsListResponse,
  WebhookEndpointsResendResponse,
  WebhookEndpointsRotateSecretResponse,
  WebhookEndpointsTestResponse,
  WebhookEvent,
} from '../types.js';

/** The event types an endpoint may subscribe to (every type but the test event). */
type SubscribedType = Exclude<WebhookEvent['type'], 'webhook.test'>;

const path = (id: string) => `/webhook-endpoints/${encodeURIComponent(id)}`;

/** Webhook endpoints: `mboa.webhookEndpoints`. */
export class WebhookEndpoints {
  readonly #http: HttpCore;

  /** @internal Built by the client. */
  constructor(http: HttpCore) {
    this.#http = http;
  }

  /**
   * Adds an endpoint (`POST /api/v1/webhook-endpoints`): an https URL on a public address.
   * The answer's `data.secret` (`whsec_…`) is shown only here: keep it to verify deliveries.
   *
   * ```ts
   * const { data } = await mboa.webhookEndpoints.create({ url: 'https://hooks.example.cm/mboa', events: ['saved_search.matched'], saved_searches: [search.id] });
   * ```
   */
  create(
    body: { url: string; events: SubscribedType[]; saved_searches?: string[] },
    options?: RequestOptions,
  ): APIPromise<WebhookEndpointsCreateResponse> {
    return this.#http.write<WebhookEndpointsCreateResponse>('POST', '/webhook-endpoints', body, options);
  }

  /** The account's endpoints for the key's dataset (`GET /api/v1/webhook-endpoints`); secrets are never listed. */
  list(options?: RequestOptions): APIPromise<WebhookEndpointsListResponse> {
    return this.#http.get<WebhookEndpointsListResponse>('/webhook-endpoints', undefined, options);
  }

  /** Deletes one (`DELETE /api/v1/webhook-endpoints/{id}`); its pending deliveries are dropped. */
  delete(id: string, options?: RequestOptions): APIPromise<WebhookEndpointsDeleteResponse> {
    return this.#http.write<WebhookEndpointsDeleteResponse>('DELETE', path(id), undefined, options);
  }

  /** A new secret, shown once; the previous one keeps signing too for 24 h (`POST …/{id}/rotate-secret`). */
  rotateSecret(id: string, options?: RequestOptions): APIPromise<WebhookEndpointsRotateSecretResponse> {
    return this.#http.write<WebhookEndpointsRotateSecretResponse>('POST', `${path(id)}/rotate-secret`, undefined, options);
  }

  /** The last 100 deliveries, newest first: status, attempts, latency, the body sent (`GET …/{id}/deliveries`). */
  deliveries(id: string, options?: RequestOptions): APIPromise<WebhookEndpointsDeliveriesResponse> {
    return this.#http.get<WebhookEndpointsDeliveriesResponse>(`${path(id)}/deliveries`, undefined, options);
  }

  /**
   * Queues a signed `webhook.test` event (a listing of the public sample, `dataset: sample`)
   * to this endpoint only, tried once (`POST …/{id}/test`); the answer is its delivery, whose
   * result the delivery log shows a moment later.
   */
  test(id: string, options?: RequestOptions): APIPromise<WebhookEndpointsTestResponse> {
    return this.#http.write<WebhookEndpointsTestResponse>('POST', `${path(id)}/test`, undefined, options);
  }

  /**
   * Sends a delivery again, due now (`POST …/{id}/deliveries/{delivery_id}/resend`): the same
   * event, so the same `webhook-id` and body; its retries count from now.
   */
  resend(id: string, deliveryId: string, options?: RequestOptions): APIPromise<WebhookEndpointsResendResponse> {
    return this.#http.write<WebhookEndpointsResendResponse>(
      'POST',
      `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
      undefined,
      options,
    );
  }
}
