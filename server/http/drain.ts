/**
 * Graceful shutdown. On SIGTERM an instance takes in the requests already sent to it (waiting
 * in the kernel), stops accepting connections, lets the calls in
 * flight finish (up to a grace period, SHUTDOWN_GRACE_SECONDS), answers any new request
 * arriving on a kept-alive connection with 503 and `Connection: close`, waits for the
 * work those calls left behind (usage counts written, reservations given back), and only
 * then lets its owner close the database pool. A call whose answer is cut by the end of
 * the grace period is never charged: its reservation is given back before the pool closes.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Answers cut by a drain. Node reports a destroyed socket's pending write as done, so such
 * an answer can emit 'finish' though its client never gets it: it must not count as answered.
 */
const cutAnswers = new WeakSet<ServerResponse>();

/** Whether the drain cut this answer (then it was not delivered, whatever 'finish' says). */
export const wasCut = (res: ServerResponse): boolean => cutAnswers.has(res);

/** Cuts an answer (its connection reset); returns 1, to count it. */
function cutOff(res: ServerResponse): number {
  cutAnswers.add(res);
  res.socket?.destroy();
  return 1;
}

export class Drain {
  /** From the signal on: /readyz says so, so that a load balancer sends nothing more. */
  private draining = false;
  /** Once what was sent before the signal is taken in: new requests are refused. */
  private refusing = false;
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
    if (this.refusing) {
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
      if (!this.refusing) return;
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
   * Takes in what was sent before the signal, stops accepting, waits for the calls in flight
   * (at most `graceMs`), then cuts what is left. Resolves once every connection is closed.
   */
  async drain(server: Server, graceMs: number): Promise<{ cut: number }> {
    this.draining = true;
    this.server = server;
    await intake(server);
    this.refusing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Answers still to be written go out with `Connection: close`.
    for (const res of this.active) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
    let cut = 0;
    if (this.active.size > 0 && (await this.settled(graceMs)) === 'timeout') {
      // A call whose handler has not written its whole answer is cut (its connection reset,
      // never charged). One whose answer is written but still being handed to the network
      // gets a moment more: cutting it now could deliver the answer yet leave it uncharged.
      for (const res of this.active) if (!res.writableEnded) cut += cutOff(res);
      if ((await this.settled(FLUSH_MS)) === 'timeout') for (const res of this.active) if (!wasCut(res)) cut += cutOff(res);
    }
    server.closeAllConnections();
    await closed;
    return { cut };
  }

  /** Resolves once no call is in flight, or after `ms`. */
  private async settled(ms: number): Promise<'done' | 'timeout'> {
    if (this.active.size === 0) return 'done';
    const allDone = new Promise<'done'>((resolve) => {
      this.idle = () => resolve('done');
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
    });
    const outcome = await Promise.race([allDone, timedOut]);
    clearTimeout(timer);
    return outcome;
  }
}

/** How long an answer written whole at the end of the grace period has to reach the network. */
const FLUSH_MS = 1_000;
/** Bounds the intake: a flood of new connections cannot hold the drain open. */
const INTAKE_TURNS = 50;

/**
 * Requests sent before the signal may still wait in the kernel: connections not yet
 * accepted (closing the listener would reset them) or accepted with their request not yet
 * read (closing idle connections would drop it). A few turns of the event loop take them
 * in: each turn accepts what waits and reads what arrived, until a turn brings nothing new.
 */
async function intake(server: Server): Promise<void> {
  let arrivals = 0;
  const arrived = () => arrivals++;
  server.on('connection', arrived);
  server.on('request', arrived);
  try {
    let seen = -1;
    for (let turn = 0; turn < INTAKE_TURNS && (turn < 2 || seen !== arrivals); turn++) {
      seen = arrivals;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  } finally {
    server.off('connection', arrived);
    server.off('request', arrived);
  }
}
