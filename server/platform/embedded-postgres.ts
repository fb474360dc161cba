/**
 * The zero-setup database: PostgreSQL compiled to WebAssembly (PGlite), kept in the data
 * directory and served on a loopback port so the same pg / Prisma code path runs on it.
 * While a server runs, `<data dir>/embedded.json` tells other processes (the admin CLI)
 * where to connect, because two processes must never open the same PGlite directory.
 *
 * PGlite is one PostgreSQL session that every connection shares, so a notification comes
 * out on whichever connection committed the NOTIFY, not on the one that ran LISTEN (as a
 * server does: each connection its own session). `routeNotifications` puts that right:
 * each notification is taken out of the stream it came in and handed to the connections
 * that listen to its channel, so the change feed hears every change, as on a server.
 * For the same reason the socket server's queue must not interleave two connections'
 * extended-protocol messages (Parse, Bind, Execute... up to Sync): their unnamed statement
 * and portal are the session's, so another connection's Bind in between would replace them
 * (`portal "" does not exist`, or worse, another query's rows). `serializeSequences` keeps
 * the queue on one connection from its first such message to its Sync, as the socket
 * server already does for a transaction.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

const STATE_FILE = 'embedded.json';
const MAX_CONNECTIONS = 200;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The URL of an embedded database another live process is serving, if any. */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const file = join(dataDir, STATE_FILE);
  if (!existsSync(file)) return null;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
    return state.pid !== process.pid && isAlive(state.pid) ? state.url : null;
  } catch {
    return null;
  }
}

export async function startEmbeddedPostgres(dataDir: string, options: { announce?: boolean } = {}): Promise<EmbeddedPostgres> {
  const other = runningEmbeddedUrl(dataDir);
  if (other) {
    throw new Error(
      `the embedded database in ${dataDir} is already served by another process (${other}); stop it first or set DATABASE_URL`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  // cube and earthdistance: the geographic search's index (migration 20261125060200_listing_geo).
  const db = await PGlite.create(join(dataDir, 'pgdata'), { extensions: { cube, earthdistance } });
  // Connections are only sockets here (one session serves them all, one query at a time), and
  // one server alone opens up to 15 (its pool, the exports' pool, the change feed): beyond the
  // limit a connection is refused, so it is set well above what a demo and its CLI open.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: MAX_CONNECTIONS });
  routeNotifications(server);
  serializeSequences(server);
  await server.start();
  const conn = server.getServerConn();
  const url = `postgresql://postgres@${conn}/postgres?sslmode=disable`;
  const stateFile = join(dataDir, STATE_FILE);
  if (options.announce !== false) writeFileSync(stateFile, JSON.stringify({ pid: process.pid, url }));
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
      if (options.announce !== false) rmSync(stateFile, { force: true });
    },
  };
}

interface QueryQueue {
  db: PGlite;
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
  clearQueueForHandler(handlerId: number): void;
  processQueue(): Promise<void>;
}

/** Extended-protocol messages that leave a sequence open until Sync: Parse, Bind, Describe, Execute, Close, Flush. */
const IN_SEQUENCE = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);

function serializeSequences(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  const db = queue.db;
  const sender = new WeakMap<Uint8Array, number>();
  /** The connection whose sequence is open: the queue takes only its messages until its Sync. */
  let open: number | null = null;

  const enqueue = queue.enqueue.bind(queue);
  queue.enqueue = (handlerId, message, onData) => {
    sender.set(message, handlerId);
    return enqueue(handlerId, message, onData);
  };
  // The queue asks `isInTransaction()` to decide whether to stay with the last connection.
  queue.db = new Proxy(db, {
    get(target, prop) {
      if (prop === 'isInTransaction') return () => target.isInTransaction() || open !== null;
      if (prop === 'execProtocolRawStream') {
        return (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          const from = sender.get(message) ?? null;
          if (IN_SEQUENCE.has(message[0])) open = from;
          else if (open === from) open = null;
          return target.execProtocolRawStream(message, options);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId) => {
    clear(handlerId);
    if (open !== handlerId) return;
    // Gone in the middle of a sequence: the others' messages, waiting, go on.
    open = null;
    void queue.processQueue();
  };
}

const QUERY = 0x51; // 'Q', a simple query
const NOTIFICATION = 0x41; // 'A', NotificationResponse

/** The channel a simple query starts or stops listening to: LISTEN / UNLISTEN <channel | *>. */
function listenOf(message: Uint8Array): { listen: boolean; channel: string } | null {
  if (message[0] !== QUERY || message.length < 6) return null;
  const sql = Buffer.from(message.buffer, message.byteOffset + 5, message.byteLength - 6).toString('utf8');
  const m = /^\s*(UN)?LISTEN\s+(?:"([^"]+)"|([A-Za-z_][\w$]*|\*))\s*;?\s*$/i.exec(sql);
  if (!m) return null;
  return { listen: !m[1], channel: m[2] ?? m[3].toLowerCase() };
}

/** The channel of a NotificationResponse: Int32 pid, then the channel as a C string. */
function channelOf(message: Buffer): string {
  const end = message.indexOf(0, 9);
  return message.toString('utf8', 9, end < 0 ? message.length : end);
}

function routeNotifications(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  const listeners = new Map<number, { channels: Set<string>; write: (data: Uint8Array) => void }>();
  const deliver = (message: Buffer) => {
    const channel = channelOf(message);
    for (const listener of listeners.values()) {
      if (listener.channels.has(channel) || listener.channels.has('*')) listener.write(message);
    }
  };

  const enqueue = queue.enqueue.bind(queue);
  queue.enqueue = (handlerId, message, onData) => {
    const listen = listenOf(message);
    if (listen) {
      let listener = listeners.get(handlerId);
      if (!listener) listeners.set(handlerId, (listener = { channels: new Set(), write: onData }));
      if (listen.listen) listener.channels.add(listen.channel);
      else if (listen.channel === '*') listener.channels.clear();
      else listener.channels.delete(listen.channel);
    }
    // Messages may span chunks: what is not complete yet waits for the next one.
    let pending: Buffer = Buffer.alloc(0);
    return enqueue(handlerId, message, (data) => {
      const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const bytes = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let from = 0;
      let at = 0;
      while (at + 5 <= bytes.length) {
        const end = at + 1 + bytes.readInt32BE(at + 1);
        if (end > bytes.length) break;
        if (bytes[at] === NOTIFICATION) {
          if (at > from) onData(bytes.subarray(from, at));
          deliver(Buffer.from(bytes.subarray(at, end)));
          from = end;
        }
        at = end;
      }
      if (at > from) onData(bytes.subarray(from, at));
      pending = Buffer.from(bytes.subarray(at));
    }).finally(() => {
      if (pending.length) onData(pending);
    });
  };

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId) => {
    listeners.delete(handlerId);
    clear(handlerId);
  };
}
