/** Scratch databases on the test PostgreSQL server, for tests that need a fresh one. */
import pg from 'pg';
import { randomId } from '../../server/platform/ids.js';

function serverUrl(database: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function createScratchDatabase(prefix = 'mboa_scratch'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = randomId(prefix).toLowerCase();
  const admin = new pg.Client({ connectionString: serverUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    url: serverUrl(name),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl('postgres') });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
