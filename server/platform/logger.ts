/**
 * Structured JSON logs (pino). Never log API keys, request bodies or listing PII.
 *
 * Lines are buffered (4 KB) and written asynchronously: one write per request would cost
 * the hot path a system call each; the request lines of one turn of the event loop are
 * handed to the buffer together. The buffer is also written every second, so a quiet
 * instance's lines are never more than a second late; `flushLogs` writes it at once (the
 * server calls it before exiting, so a shutdown loses no line).
 */
import { destination, pino, type Logger } from 'pino';

export type { Logger };

/**
 * Where createLogger's loggers write, their bindings as pino writes them (`,"service":…`),
 * and the request lines of this turn of the event loop, written together at its end: the
 * stream measures what it holds on every write, so one write per line cost more than the line.
 */
interface Direct {
  stream: { write(line: string): unknown };
  bindings: string;
  lines: string[];
}
const direct = new WeakMap<Logger, Direct>();

function writeLines(to: Direct): void {
  if (!to.lines.length) return;
  const text = to.lines.join('');
  to.lines.length = 0;
  to.stream.write(text);
}

/** The time as pino's isoTime writes it, worked out once per millisecond. */
let lastMs = 0;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

const INFO = 30;

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
  const logger = pino(
    {
      level,
      base: { service: 'mboa-api' },
      redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', 'key'], censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stream,
  );
  direct.set(logger, { stream, bindings: `,${JSON.stringify(logger.bindings()).slice(1, -1)}`, lines: [] });
  return logger;
}

/** What the one log line of a request says (never its key, query values or body). */
export interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  account: string | undefined;
}

/**
 * Writes a request's line: what `logger.info({ request_id, method, path, status, ms,
 * account }, 'request')` writes, built directly for createLogger's loggers. pino's generic
 * serializer (redaction, key checks, an object per line) was a third of a line's cost, and
 * this runs on every call of the API. Only `path` comes from outside and is escaped; the
 * ids and the method are restricted to safe characters before they get here.
 */
export function logRequest(logger: Logger, r: RequestLine): void {
  if (logger.levelVal > INFO) return;
  const to = direct.get(logger);
  if (!to) {
    logger.info({ request_id: r.requestId, method: r.method, path: r.path, status: r.status, ms: r.ms, account: r.account }, 'request');
    return;
  }
  const account = r.account === undefined ? '' : `,"account":"${r.account}"`;
  if (!to.lines.length) setImmediate(writeLines, to);
  to.lines.push(
    `{"level":${INFO},"time":"${isoNow()}"${to.bindings},"request_id":"${r.requestId}","method":"${r.method}","path":${JSON.stringify(r.path)},"status":${r.status},"ms":${r.ms}${account},"msg":"request"}\n`,
  );
}

export function flushLogs(logger: Logger): void {
  try {
    const to = direct.get(logger);
    if (to) writeLines(to);
    logger.flush();
  } catch {
    // Nothing buffered, or stdout already closed.
  }
}
