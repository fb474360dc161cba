// Migrations through Prisma's WebAssembly schema engine. It replaces the native engine
// binary, which closed networks cannot download; the migrations it applies and the
// `_prisma_migrations` table it keeps are the ones `prisma migrate deploy` would, so both
// tools stay interchangeable.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import pg from 'pg';
import { deriveSampleSchema } from '../../server/platform/sample-schema.js';
import { MIGRATIONS_DIR, SCHEMA_PATH } from '../paths.js';
import { loadBindings } from './load-wasm.js';
import { migrationAwareFactory, poolConfig } from './pg-adapter.js';

export async function withSchemaEngine<T>(databaseUrl: string, run: (engine: SchemaEngine, schema: string) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadBindings();
  const schema = await readFile(SCHEMA_PATH, 'utf8');
  const factory = migrationAwareFactory(poolConfig(databaseUrl));
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const engine = await SchemaEngine.new({ datamodels: [[SCHEMA_PATH, schema]] }, () => {}, adapter);
  try {
    return await run(engine, schema);
  } finally {
    engine.free();
    await factory.disposeAll();
  }
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name, 'migration.sql');
      const content = await readFile(file, 'utf8').then(
        (value) => ({ tag: 'ok' as const, value }),
        (err: Error) => ({ tag: 'error' as const, value: err.message }),
      );
      return { path: name, migrationFile: { path: 'migration.sql', content } };
    }),
  );
  const lockPath = join(dir, 'migration_lock.toml');
  const lockContent = await readFile(lockPath, 'utf8').catch(() => null);
  return {
    baseDir: resolve(dir),
    lockfile: { path: 'migration_lock.toml', content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

const noFilter = { externalTables: [], externalEnums: [] };

/** Held for the whole of a migration run: two deploys starting together never race. */
const MIGRATE_LOCK = 0x6d626f6d; // "mbom"

export interface ApplyOptions {
  /** Told each change made to the sample's tables (none once they are derived). */
  onSampleChange?: (change: string) => void;
}

/**
 * Applies every pending migration, then derives the sample's tables from the live ones
 * (server/platform/sample-schema.ts: migrations change `public` only); returns the names
 * of the migrations applied by this call. Runs under a PostgreSQL advisory lock on a
 * connection of its own, so concurrent runs (two instances of a deploy step) apply each
 * migration once: the second waits, then finds nothing to do.
 */
export async function applyMigrations(databaseUrl: string, options: ApplyOptions = {}): Promise<string[]> {
  const migrationsList = await loadMigrations();
  const lock = new pg.Client(poolConfig(databaseUrl));
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
    const applied = await withSchemaEngine(databaseUrl, async (engine) => {
      const out = await engine.applyMigrations({ migrationsList, filters: noFilter });
      return out.appliedMigrationNames;
    });
    for (const change of await deriveSampleSchema(lock)) options.onSampleChange?.(change);
    return applied;
  } finally {
    await lock.end().catch(() => {});
  }
}

/**
 * SQL that takes a database built by the existing migrations to `schema.prisma`.
 * Replays the migrations into a temporary shadow database on the same server.
 */
export async function diffMigrationsToSchema(databaseUrl: string): Promise<string> {
  const migrationsList = await loadMigrations();
  return withSchemaEngine(databaseUrl, async (engine, schema) => {
    const from =
      migrationsList.migrationDirectories.length === 0 ? ({ tag: 'empty' } as const) : ({ tag: 'migrations', ...migrationsList } as const);
    const out = await engine.diff({
      from,
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilter,
    });
    return out.stdout ?? '';
  });
}
