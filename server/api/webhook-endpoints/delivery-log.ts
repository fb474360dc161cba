/** A delivery as the log shows it (contract's ZWebhookDelivery), read with its event. */
import type pg from 'pg';
import type { DeliveryStatus, SentEventType } from '../../../contract/webhooks.js';

interface DeliveryRow {
  id: string;
  event_id: string;
  type: SentEventType;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  latency_ms: number | null;
  next_attempt_at: Date;
  created_at: Date;
  resent_at: Date | null;
  body: string;
}

/** The deliveries of one endpoint, newest first (`deliveryId`: that one only). */
export async function readDeliveries(db: pg.Pool | pg.PoolClient, endpointId: string, o: { deliveryId?: string; limit: number }) {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.last_status, d.last_error, d.latency_ms, d.next_attempt_at,
            d.created_at, d.resent_at, e.body
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
      WHERE d.endpoint_id = $1 AND ($2::text IS NULL OR d.id = $2)
      ORDER BY d.created_at DESC, d.id DESC LIMIT $3`,
    [endpointId, o.deliveryId ?? null, o.limit],
  );
  return rows.map((r) => ({
    id: r.id,
    event_id: r.event_id,
    event_type: r.type,
    status: r.status,
    attempts: r.attempts,
    last_status: r.last_status,
    last_error: r.last_error,
    latency_ms: r.latency_ms,
    next_attempt_at: r.status === 'pending' ? r.next_attempt_at.toISOString() : null,
    created_at: r.created_at.toISOString(),
    resent_at: r.resent_at?.toISOString() ?? null,
    body: r.body,
  }));
}
export type DeliveryView = Awaited<ReturnType<typeof readDeliveries>>[number];
