/**
 * Structured JSON logs (pino). Never log API keys, request bodies or listing PII.
 *
 * Lines are buffered (4 KB) and written asynchronously: one write per request would cost
 * the hot path a system call each. The buffer is also written every second, so a quiet
 * instance's lines are never more than a second late; `flushLogs` writes it at once (the
 * server calls it before exiting, so a shutdown loses no line).
 */
import { destination, pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, options: { sync?: boolean } = {}): Logger {
  const stream = destination({ dest: 1, sync: options.sync ?? false, minLength: options.sync ? 0 : 4096 });
  if (!options.sync) {
    setInterval(() => {
      try {
        stream.flush();
      } catch {
        // Not open yet, or already closed: the next tick writes it.
      }
    }, 1_000).unref();
  }
  return pino(
    {
      level,
      base: { service: 'mboa-api' },
      redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', 'key'], censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stream,
  );
}

export function flushLogs(logger: Logger): void {
  try {
    logger.flush();
  } catch {
    // Nothing buffered, or stdout already closed.
  }
}
