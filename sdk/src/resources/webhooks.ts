/**
 * Receiving Mboa's webhooks: `verify` checks a delivery's Standard Webhooks signature
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the endpoint's `whsec_`
 * secret, by the `standardwebhooks` library (bundled: the SDK installs nothing more);
 * `unwrap` verifies, then returns the typed event. Pass the body exactly as received (the
 * raw text, never a re-serialised object). A timestamp more than 5 minutes away is refused,
 * so a recorded delivery cannot be replayed later.
 */
import { Webhook, WebhookVerificationError as LibraryError } from 'standardwebhooks';
import { MboaError } from '../core/errors.js';
import type { WebhookEvent } from '../types.js';

/** Thrown by `webhooks.verify` / `unwrap`: the delivery is not signed by this secret (or too old, or malformed). */
export class WebhookVerificationError extends MboaError {
  constructor(message: string) {
    super(message, { code: 'webhook_verification_failed' });
  }
}

/** Request headers as any server gives them: a `Headers`, or Node's object of strings (or arrays). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const NAMES = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of NAMES) {
    let value: string | string[] | null | undefined;
    if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
    else {
      const record = headers as Record<string, string | string[] | undefined>;
      const key = Object.keys(record).find((k) => k.toLowerCase() === name);
      value = key === undefined ? undefined : record[key];
    }
    if (Array.isArray(value)) value = value.join(' ');
    if (value === undefined || value === null || value === '') throw new WebhookVerificationError(`The ${name} header is missing.`);
    out[name] = value;
  }
  return out;
}

function textOf(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
}

/** Verifies a delivery's signature; throws `WebhookVerificationError` unless one of its signatures is this secret's. */
export function verify(body: string | Uint8Array, headers: WebhookHeaders, secret: string): true {
  if (typeof secret !== 'string' || !secret.startsWith('whsec_')) {
    throw new MboaError('The webhook secret must be the whsec_… value shown when the endpoint was created.', { code: 'invalid_argument' });
  }
  try {
    new Webhook(secret).verify(textOf(body), headerRecord(headers));
    return true;
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw err;
    if (err instanceof LibraryError) throw new WebhookVerificationError(`Webhook not verified: ${err.message}.`);
    throw new WebhookVerificationError(`Webhook not verified: ${(err as Error).message}.`);
  }
}

/** Verifies, then returns the event (its `id` is the `webhook-id`: the same on every retry, so dedupe on it). */
export function unwrap(body: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  verify(body, headers, secret);
  const event = JSON.parse(textOf(body)) as WebhookEvent;
  if (event.id !== headerRecord(headers)['webhook-id'])
    throw new WebhookVerificationError('The event id differs from the webhook-id header.');
  return event;
}

/** `mboa.webhooks`, also exported alone as `webhooks` (a receiver needs no API key). */
export const webhooks = { verify, unwrap } as const;
export type Webhooks = typeof webhooks;
