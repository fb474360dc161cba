// Which migrations of this version are not yet applied to a database. Servers in
// production never migrate (that is the deploy step `npm run db:migrate`); they read this
// to report themselves not ready, instead of serving a schema they do not know.
import { readdir } from 'node:fs/promises';
import type pg from 'pg';
import { MIGRATIONS_DIR } from './paths.js';

export interface MigrationStatus {
  /** In this version's migrations folder, not applied (or failed) in the database. */
  pending: string[];
  /** Applied in the database, unknown to this version (a newer deploy ran first). */
  unknown: string[];
}

export async function localMigrations(dir = MIGRATIONS_DIR): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

export async function migrationStatus(pool: pg.Pool): Promise<MigrationStatus> {
  const local = await localMigrations();
  let applied: string[];
  try {
    const { rows } = await pool.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    applied = rows.map((r) => r.migration_name);
  } catch (err) {
    // No history table yet: a database never migrated.
    if ((err as { code?: string }).code === '42P01') applied = [];
    else throw err;
  }
  const done = new Set(applied);
  const known = new Set(local);
  return { pending: local.filter((m) => !done.has(m)), unknown: applied.filter((m) => !known.has(m)).sort() };
}
