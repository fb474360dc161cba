/** Structured JSON logs (pino). Never log API keys, request bodies or listing PII. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'mboa-api' },
    redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', 'key'], censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
