/** schema.prisma and prisma/migrations must agree: a schema change without its migration fails here. */
import { expect } from 'vitest';
import { diffMigrationsToSchema } from '../prisma/schema-engine/migrations.js';
import { itOnServer } from './helpers/requires.js';

// The diff replays the migrations in a shadow database, which the embedded PGlite cannot create.
itOnServer('it needs a scratch database of its own, which the embedded one, a single database, cannot give')(
  'the migrations build exactly schema.prisma',
  async () => {
    const sql = await diffMigrationsToSchema(process.env.DATABASE_URL!);
    expect(sql.replace(/^--.*$/gm, '').trim()).toBe('');
  },
);
