/**
 * Serves one embedded database (a PGlite data directory) in a process of its own, so test
 * workers each query their own copy at the same time: PGlite answers one query at a time
 * per process. Prints the URL as one JSON line, stops on SIGTERM.
 */
import { startEmbeddedPostgres } from '../../server/platform/embedded-postgres.js';

const dataDir = process.argv[2];
const db = await startEmbeddedPostgres(dataDir, { announce: false });
process.stdout.write(`${JSON.stringify({ url: db.url })}\n`);
const stop = () => {
  void db.stop().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
