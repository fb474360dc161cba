/**
 * What the fault tests' private PostgreSQL and Redis share: a free port to serve on, and a
 * child process that can be started, killed outright (SIGKILL, no shutdown: a crash) and
 * started again on the same port, its output kept for failure messages. Each service says
 * how it starts and when it is ready (private-postgres.ts, private-redis.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export class KillableProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private out = '';

  constructor(
    private readonly command: () => [string, string[]],
    private readonly options: {
      cwd?: string;
      /** A process group of its own, so that one signal reaches the process and every child it forks. */
      group?: boolean;
    } = {},
  ) {}

  /** Starts the process; the caller waits for it to be ready. */
  spawn(): ChildProcess {
    const [command, args] = this.command();
    const c = spawn(command, args, { cwd: this.options.cwd, detached: this.options.group ?? false, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = c;
    this.exited = new Promise((resolve) => c.once('exit', () => resolve()));
    c.stdout!.on('data', (d: Buffer) => (this.out += d.toString()));
    c.stderr!.on('data', (d: Buffer) => (this.out += d.toString()));
    return c;
  }

  /** Whether the process started last has exited. */
  get gone(): boolean {
    const c = this.child;
    return !c || c.exitCode !== null || c.signalCode !== null;
  }

  /** What it printed since it started, or since `clearOutput`. */
  output(): string {
    return this.out;
  }

  clearOutput(): void {
    this.out = '';
  }

  /** SIGKILL (to its whole group when it has one); resolves once it has exited. */
  async kill(): Promise<void> {
    const c = this.child;
    if (!c || this.gone) return;
    try {
      if (this.options.group) process.kill(-c.pid!, 'SIGKILL');
      else c.kill('SIGKILL');
    } catch {
      c.kill('SIGKILL');
    }
    await this.exited;
    this.child = null;
  }
}
