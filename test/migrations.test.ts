/** schema.prisma and prisma/migrations must agree: a schema change without its migration fails here. */
import { expect } from 'vitest';
import pg from 'pg';
import { applyMigrations, diffMigrationsToSchema } from '../prisma/schema-engine/migrations.js';
import { itOnServer } from './helpers/requires.js';

// The diff replays the migrations in a shadow database, which the embedded PGlite cannot create.
itOnServer('it needs a scratch database of its own, which the embedded one, a single database, cannot give')(
  'the migrations build exactly schema.prisma',
  async () => {
    const sql = await diffMigrationsToSchema(process.env.DATABASE_URL!);
    expect(sql.replace(/^--.*$/gm, '').trim()).toBe('');
  },
);

// The schema engine opens pools of its own: once it is done none may stay connected, or the
// database could not be copied, renamed or dropped right after a deploy's migrate.
itOnServer('it counts the sessions of a PostgreSQL server, which the embedded one does not list')(
  'leaves no session of its own behind',
  async () => {
    const url = new URL(process.env.DATABASE_URL!);
    const name = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      const sessions = async () =>
        (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n;
      const before = await sessions();
      await applyMigrations(process.env.DATABASE_URL!);
      expect(await sessions()).toBe(before);
    } finally {
      await admin.end();
    }
  },
);
