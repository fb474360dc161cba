/**
 * A TCP proxy in front of the test database that a test can cut and restore: while cut,
 * its port is closed and every open connection is reset, exactly what a server sees when
 * its PostgreSQL goes away. It can also stall: every connection stays open but no byte
 * goes through any more, either way (a half-open flow, a NAT entry dropped silently), which
 * nothing on either side notices by itself.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxied URL: the target's, with the proxy's host and port. */
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** From now on, every byte (of open connections and of new ones) is held, never delivered. */
  stall(): void;
  /** Ends the stall: the stalled connections are reset (their bytes lost), new ones go through. */
  unstall(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || 5432);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let stalled = false;
  /** Connection pairs whose bytes stopped at the stall. */
  const stalledPairs = new Set<Socket[]>();

  const forward = (from: Socket, to: Socket, pair: Socket[]) => {
    from.on('data', (data: Buffer) => {
      if (stalled) {
        stalledPairs.add(pair);
        return;
      }
      to.write(data);
    });
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = createConnection({ host: target.hostname, port: targetPort });
        const pair = [client, upstream];
        if (stalled) stalledPairs.add(pair);
        for (const socket of pair) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        forward(client, upstream, pair);
        forward(upstream, client, pair);
        client.on('end', () => upstream.end());
        upstream.on('end', () => client.end());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  const cut = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  const stall = () => {
    stalled = true;
    // Every open connection is stalled, whether or not it sends anything afterwards.
    const open = new Set<Socket>(sockets);
    for (const socket of open) stalledPairs.add([socket]);
  };

  const unstall = () => {
    stalled = false;
    for (const pair of stalledPairs) for (const socket of pair) socket.destroy();
    stalledPairs.clear();
  };

  await listen();
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), cut, restore: listen, stall, unstall, close: cut };
}
