/**
 * A TCP proxy that delays every chunk by a fixed time, each way, in order: a database
 * far away, so that calls stay in flight long enough for a test to act while they are.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface LatencyProxy {
  /** The target's URL with the proxy's host and port. */
  url: string;
  close(): Promise<void>;
}

export async function startLatencyProxy(targetUrl: string, delayMs: number): Promise<LatencyProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => setTimeout(() => to.writable && to.write(chunk), delayMs));
    from.on('end', () => setTimeout(() => to.end(), delayMs));
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
