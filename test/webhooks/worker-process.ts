/**
 * A delivery worker alone in its own process, for the test that kills it mid-delivery:
 * `node --import tsx test/webhooks/worker-process.ts` with DATABASE_URL set.
 */
import pg from 'pg';
import { createLogger } from '../../server/platform/logger.js';
import { WebhookWorker } from '../../server/webhooks/worker.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
const worker = new WebhookWorker(
  { pool, logger: createLogger('silent') },
  { allowLoopback: true, pollMs: 50, leaseMs: Number(process.env.LEASE_MS ?? 2_000), timeoutMs: 120_000 },
);
worker.start();
console.log('worker ready');
