/**
 * The one node:http server of an instance: the API's front handler first, the Express app
 * for everything it does not take; parser refusals, stray `Expect` and CONNECT answered as
 * problems, and keep-alive longer than a load balancer's idle timeout.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../platform/logger.js';
import { clientErrorHandler } from './client-errors.js';

export function nodeServer(
  api: (req: IncomingMessage, res: ServerResponse) => boolean,
  app: (req: IncomingMessage, res: ServerResponse) => void,
  logger: Logger,
): Server {
  const http = createServer((req, res) => {
    if (!api(req, res)) app(req, res);
  });
  http.on('clientError', clientErrorHandler(logger));
  // An `Expect` other than 100-continue is ignored (RFC 9110 allows it), not met with Node's bare 417.
  http.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => http.emit('request', req, res));
  // CONNECT (this is no proxy) gets a problem answer too, not Node's silent close.
  http.on('connect', (_req: IncomingMessage, socket: Socket) =>
    clientErrorHandler(logger)(Object.assign(new Error('CONNECT'), { code: 'CONNECT' }), socket),
  );
  // Longer than the usual load balancer's idle timeout (60 s), so it closes first.
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  return http;
}
