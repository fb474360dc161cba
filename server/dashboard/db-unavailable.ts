/**
 * "The database cannot be reached", as the dashboard meets it: through Prisma (whose
 * driver adapter wraps the pg error into its own codes) as well as through pg directly.
 * Such failures get a 503 page with retry advice, never a 500.
 */
import { isDatabaseUnavailable } from '../platform/errors.js';

/** Prisma: can't reach, timed out, connection closed, pool timed out, transaction could not start. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
/** Prisma's driver adapter errors that mean the server is not there. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const MESSAGES =
  /Can't reach database server|Cannot use a pool after calling end|timeout exceeded when trying to connect|Connection terminated|Server has closed the connection/i;

export function databaseUnreachable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } }; cause?: unknown };
  if (typeof e.code === 'string' && PRISMA_CODES.has(e.code)) return true;
  const kind = e.meta?.driverAdapterError?.cause?.kind;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  if (isDatabaseUnavailable(err)) return true;
  return e.cause !== undefined && e.cause !== err && databaseUnreachable(e.cause, depth + 1);
}
