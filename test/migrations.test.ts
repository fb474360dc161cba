/** schema.prisma and prisma/migrations must agree: a schema change without its migration fails here. */
import { expect } from 'vitest';
import { diffMigrationsToSchema } from '../prisma/schema-engine/migrations.js';
import { onPostgresServer } from './helpers/databases.js';
import { itWhen } from './helpers/requires.js';

// The diff replays the migrations in a shadow database, which the embedded PGlite cannot create.
itWhen(onPostgresServer(), 'a PostgreSQL server (DATABASE_URL)')('the migrations build exactly schema.prisma', async () => {
  const sql = await diffMigrationsToSchema(process.env.DATABASE_URL!);
  expect(sql.replace(/^--.*$/gm, '').trim()).toBe('');
});
