/** schema.prisma and prisma/migrations must agree: a schema change without its migration fails here. */
import { expect, it } from 'vitest';
import { diffMigrationsToSchema } from '../prisma/schema-engine.js';

// The diff replays the migrations in a shadow database, which the embedded PGlite cannot create.
it.skipIf(process.env.MBOA_TEST_EMBEDDED === '1')('the migrations build exactly schema.prisma', async () => {
  const sql = await diffMigrationsToSchema(process.env.DATABASE_URL!);
  expect(sql.replace(/^--.*$/gm, '').trim()).toBe('');
});
