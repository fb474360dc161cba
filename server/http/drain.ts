/**
 * Graceful shutdown. On SIGTERM an instance stops accepting connections, lets the calls in
 * flight finish (up to a grace period, SHUTDOWN_GRACE_SECONDS), answers any new request
 * arriving on a kept-alive connection with 503 and `Connection: close`, waits for the
 * work those calls left behind (usage counts written, reservations given back), and only
 * then lets its owner close the database pool. A call whose answer is cut by the end of
 * the grace period is never charged: its reservation is given back before the pool closes.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export class Drain {
  private draining = false;
  private readonly active = new Set<ServerResponse>();
  private idle: (() => void) | null = null;
  private server: Server | null = null;

  get isDraining(): boolean {
    return this.draining;
  }

  /**
   * Counts a request in flight until its connection is done with it; false once draining
   * (the caller then answers 503 with `Connection: close`).
   */
  enter(res: ServerResponse): boolean {
    if (this.draining) {
      res.setHeader('Connection', 'close');
      return false;
    }
    this.active.add(res);
    // An answer queued behind another on its connection (pipelining) never closes if the
    // connection closes first (a `Connection: close` answer before it): its socket's close ends it.
    const socket: Socket | undefined = res.req?.socket;
    const leave = () => {
      socket?.off('close', leave);
      if (!this.active.delete(res)) return;
      if (!this.draining) return;
      // Its connection is idle now: close it rather than wait for the client's next request.
      setImmediate(() => this.server?.closeIdleConnections());
      if (this.active.size === 0) this.idle?.();
    };
    res.once('close', leave);
    socket?.once('close', leave);
    return true;
  }

  /**
   * Resolves once every answer already written in full has been handed to the network, so
   * its call is settled (counted or freed): a client can read an answer before its server
   * has seen the write complete.
   */
  async written(): Promise<void> {
    const ending = [...this.active].filter((res) => res.writableEnded && !res.writableFinished);
    await Promise.all(ending.map((res) => new Promise((done) => (res.once('finish', done), res.once('close', done)))));
  }

  /**
   * Stops accepting, waits for the calls in flight (at most `graceMs`), then cuts what is
   * left. Resolves once every connection is closed.
   */
  async drain(server: Server, graceMs: number): Promise<{ cut: number }> {
    this.draining = true;
    this.server = server;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Answers still to be written go out with `Connection: close`.
    for (const res of this.active) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
    let cut = 0;
    if (this.active.size > 0) {
      const allDone = new Promise<void>((resolve) => {
        this.idle = resolve;
      });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), graceMs);
      });
      const outcome = await Promise.race([allDone.then(() => 'done' as const), timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') cut = this.active.size;
    }
    server.closeAllConnections();
    await closed;
    return { cut };
  }
}
