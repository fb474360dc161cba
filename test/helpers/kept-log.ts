/** A logger whose JSON lines are kept in memory, for tests that read what the server logged. */
import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';

export function keptLog(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  return { logger, lines };
}
