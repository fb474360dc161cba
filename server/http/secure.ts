import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** `req.secure` as Express computes it: TLS here, or https said by a proxy we trust. */
export function isSecure(req: IncomingMessage, trust: (address: string, hop: number) => boolean): boolean {
  if ((req.socket as Socket & { encrypted?: boolean }).encrypted) return true;
  if (!trust(req.socket.remoteAddress ?? '', 0)) return false;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0].trim();
  return first === 'https';
}
