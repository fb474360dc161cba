/**
 * Opt-in debug logging: one line per HTTP attempt (method, URL, status, request id,
 * duration), one per retry and per export resume. Off unless `logLevel: 'debug'` or
 * `MBOA_LOG=debug`. What is logged is built here from plain values, never from request
 * headers, so the API key cannot end up in a log.
 */
import { MboaError } from './errors.js';
import { readEnv } from './env.js';

/** `debug` logs every request, retry and export resume; `off` (the default) logs nothing. */
export type LogLevel = 'debug' | 'off';

/**
 * Where log lines go: `console` by default. Anything with a `debug(message, details)`
 * method fits (a pino or winston child logger, a test spy).
 */
export interface Logger {
  /** One event: a human-readable line, then the same facts as an object. */
  debug(message: string, details: LogDetails): void;
}

/** The facts of one log line. Never holds the API key or any request header. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface LogDetails {
  /** What happened: `response` (an answer arrived), `error` (no answer), `retry`, `resume`, `export_end`. */
  event: 'response' | 'error' | 'retry' | 'resume' | 'export_end';
  /** HTTP method (`GET`, or a write's: saved searches). */
  method: HttpMethod;
  /** The full URL called, query included. */
  url: string;
  /** HTTP status, when an answer arrived. */
  status?: number | undefined;
  /** `X-Request-Id` of the answer, when it arrived. */
  requestId?: string | undefined;
  /** Milliseconds from sending the request to this event. */
  durationMs?: number | undefined;
  /** 1 for the first attempt, 2 for the first retry... */
  attempt?: number | undefined;
  /** Milliseconds the client waits before the retry or resume. */
  delayMs?: number | undefined;
  /** Retries left after this one. */
  retriesLeft?: number | undefined;
  /** Listings received so far (exports). */
  received?: number | undefined;
  /** Why the attempt failed (retry, resume, error). */
  error?: string | undefined;
}

/** The function the transport calls, or undefined when logging is off (so nothing is even formatted). */
export type Log = ((message: string, details: LogDetails) => void) | undefined;

const LEVELS: readonly LogLevel[] = ['debug', 'off'];

/**
 * Picks the log function: the `logLevel` option first, else `MBOA_LOG` (an unknown value
 * there is ignored rather than stopping a program over an environment typo).
 */
export function createLog(level: LogLevel | undefined, logger: Logger | undefined): Log {
  if (level !== undefined && !LEVELS.includes(level)) {
    throw new MboaError(`logLevel must be 'debug' or 'off'; got ${JSON.stringify(level)}.`, { code: 'configuration_error' });
  }
  const env = readEnv('MBOA_LOG')?.toLowerCase();
  const effective = level ?? (env === 'debug' ? 'debug' : 'off');
  if (effective === 'off') return undefined;
  const sink = logger ?? console;
  if (typeof sink.debug !== 'function') {
    throw new MboaError('logger must have a debug(message, details) method, such as console.', { code: 'configuration_error' });
  }
  return (message, details) => sink.debug(`[mboa] ${message}`, details);
}
