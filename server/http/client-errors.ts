/**
 * Requests Node's HTTP parser refuses never reach Express: raw UTF-8 in the URL (a pasted
 * `city=Yaoundé`), headers over the size limit, a malformed request line. Node would
 * answer an empty 400; this answers, wherever the socket still allows it, a problem+json
 * body with a request id and a hint on how to send the request right, and logs a line.
 */
import type { Socket } from 'node:net';
import { ERROR_CODES, ERROR_TYPE_BASE, type ErrorCode } from '../../contract/errors.js';
import { randomId } from '../platform/ids.js';
import type { Logger } from '../platform/logger.js';

interface ParserError extends Error {
  code?: string;
  bytesParsed?: number;
  rawPacket?: Buffer;
}

const URL_HINT =
  'The URL holds a character that must be percent-encoded (a space, an accented letter such as é, a quote...). ' +
  'URL-encode each query value, e.g. city=Yaound%C3%A9, or let curl do it: ' +
  'curl -G "https://…/api/v1/market/stats" --data-urlencode "city=Yaoundé".';

function problemFor(err: ParserError): { code: ErrorCode; detail: string } {
  switch (err.code) {
    case 'HPE_INVALID_URL':
      return { code: 'malformed_request', detail: URL_HINT };
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'headers_too_large',
        detail: 'The request line and headers exceed the server limit (16 KB). Send shorter headers or a shorter URL.',
      };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_HEADER_VALUE':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return {
        code: 'malformed_request',
        detail: 'A request header is malformed: names are letters, digits and dashes; values hold no control characters.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', detail: 'The request was not received in time. Retry.' };
    default:
      return {
        code: 'malformed_request',
        detail: 'The request is not valid HTTP/1.1: it must start with a line such as `GET /api/v1/ping HTTP/1.1`.',
      };
  }
}

export function clientErrorHandler(logger: Logger) {
  return (err: ParserError, socket: Socket): void => {
    // The peer is gone (reset, or half a request and a close): nothing to answer.
    if (err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomId('req');
    const { code, detail } = problemFor(err);
    const { status, title } = ERROR_CODES[code];
    logger.warn(
      { request_id: requestId, status, code, parser: err.code, bytes: err.bytesParsed, remote: socket.remoteAddress },
      'request refused by the HTTP parser',
    );
    const body = JSON.stringify({ type: `${ERROR_TYPE_BASE}${code}`, title, status, detail, code, meta: { request_id: requestId } });
    // An answer to HEAD has no body (a client would read it as the start of a next answer).
    const head = err.rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
    socket.end(
      [
        `HTTP/1.1 ${status} ${title}`,
        'Content-Type: application/problem+json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Cache-Control: no-store',
        'Connection: close',
        '',
        head ? '' : body,
      ].join('\r\n'),
    );
  };
}
