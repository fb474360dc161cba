/** Starts `embedded-serve.ts` for a data directory and waits for its URL. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface EmbeddedProcess {
  url: string;
  stop(): Promise<void>;
}

const SERVE = fileURLToPath(new URL('./embedded-serve.ts', import.meta.url));

export async function startEmbeddedProcess(dataDir: string): Promise<EmbeddedProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVE, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the embedded database for ${dataDir} exited (${code}) before serving`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function stopEmbeddedProcesses(all: EmbeddedProcess[]): Promise<void> {
  await Promise.all(all.map((p) => p.stop()));
}
