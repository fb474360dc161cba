// Prisma's WebAssembly schema engine, driven through the pg driver adapter. It replaces
// the native engine binary, which closed networks cannot download; the migrations it
// applies and the `_prisma_migrations` table it keeps are the ones `prisma migrate deploy`
// would, so both tools stay interchangeable.
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import pg, { type PoolConfig } from 'pg';
import { randomBytes } from 'node:crypto';

const here = dirname(fileURLToPath(import.meta.url));
export const SCHEMA_PATH = join(here, 'schema.prisma');
export const MIGRATIONS_DIR = join(here, 'migrations');

type Bindings = typeof import('@prisma/schema-engine-wasm');
let bindings: Promise<Bindings> | undefined;

/** Loads the engine's JS glue and instantiates its .wasm ourselves: Node cannot import .wasm. */
function loadBindings(): Promise<Bindings> {
  bindings ??= (async () => {
    const require = createRequire(import.meta.url);
    // The package's exports map hides package.json; resolve its JS glue instead.
    const pkgDir = dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const glue = (await import(pathToFileURL(join(pkgDir, 'schema_engine_bg.js')).href)) as Bindings & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = await readFile(join(pkgDir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue as never });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return bindings;
}

/**
 * The URL split into fields: the adapter makes its shadow database by overriding
 * `database`, which pg ignores when a `connectionString` is given.
 */
function poolConfig(databaseUrl: string): PoolConfig {
  const url = new URL(databaseUrl);
  return {
    host: decodeURIComponent(url.hostname) || undefined,
    port: url.port ? Number(url.port) : undefined,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: decodeURIComponent(url.pathname.slice(1)) || undefined,
    ssl: ['require', 'verify-full', 'verify-ca'].includes(url.searchParams.get('sslmode') ?? '') || undefined,
    connectionTimeoutMillis: 10_000,
  };
}

/**
 * The engine reads pg_catalog columns of type "char" (oid 18), which PrismaPg 7.10 rejects
 * as an unsupported type. Our pool's client reports them as text and remembers where they
 * were; the adapter's queryRaw then types those columns as Character, as the engine expects.
 * Results of any other client pass through untouched.
 */
const PG_CHAR = 18;
const PG_TEXT = 25;
const charColumnsOf = new WeakMap<unknown[], number[]>();

class CatalogSafeClient extends pg.Client {
  override query(...args: unknown[]): never {
    const query = super.query as (...a: unknown[]) => unknown;
    const last = args.at(-1);
    if (typeof last === 'function') {
      // pg.Pool calls its clients with a callback.
      const callback = last as (err: Error | null, result?: pg.QueryResult) => void;
      return query.call(this, ...args.slice(0, -1), (err: Error | null, result?: pg.QueryResult) =>
        callback(err, result && retypeCharColumns(result)),
      ) as never;
    }
    const out = query.apply(this, args);
    return (out instanceof Promise ? out.then(retypeCharColumns) : out) as never;
  }
}

function retypeCharColumns(result: pg.QueryResult): pg.QueryResult {
  const columns: number[] = [];
  result.fields?.forEach((field, i) => {
    if (field.dataTypeID === PG_CHAR) {
      field.dataTypeID = PG_TEXT;
      columns.push(i);
    }
  });
  if (columns.length) charColumnsOf.set(result.rows, columns);
  return result;
}

type QueryRaw = (this: unknown, query: unknown) => Promise<{ columnTypes: number[]; rows: unknown[] }>;
let queryRawPatched = false;

function typeCharColumns(adapter: object): void {
  if (queryRawPatched) return;
  const queryable = Object.getPrototypeOf(Object.getPrototypeOf(adapter)) as { queryRaw: QueryRaw };
  const original = queryable.queryRaw;
  queryable.queryRaw = async function (this: unknown, query: unknown) {
    const result = await original.call(this, query);
    for (const i of charColumnsOf.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  queryRawPatched = true;
}

function catalogSafeAdapter(config: PoolConfig) {
  const factory = new PrismaPg(new pg.Pool({ ...config, Client: CatalogSafeClient }), { disposeExternalPool: true });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      typeCharColumns(adapter);
      return adapter;
    },
  };
}

/**
 * PrismaPg's own shadow database is dropped while its pool still holds a connection, so
 * `diff` fails; this one closes the pool first.
 */
function migrationAwareFactory(config: PoolConfig): SqlMigrationAwareDriverAdapterFactory {
  const main = catalogSafeAdapter(config);
  return {
    provider: 'postgres',
    adapterName: main.adapterName,
    connect: () => main.connect(),
    async connectToShadowDb() {
      const database = `mboa_shadow_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client(config);
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${database}"`);
      } finally {
        await admin.end();
      }
      const adapter = await catalogSafeAdapter({ ...config, database }).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        const dropper = new pg.Client(config);
        await dropper.connect();
        try {
          await dropper.query(`DROP DATABASE IF EXISTS "${database}"`);
        } finally {
          await dropper.end();
        }
      };
      return adapter;
    },
  };
}

export async function withSchemaEngine<T>(
  databaseUrl: string,
  run: (engine: SchemaEngine, schema: string) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadBindings();
  const schema = await readFile(SCHEMA_PATH, 'utf8');
  const adapter = bindMigrationAwareSqlAdapterFactory(migrationAwareFactory(poolConfig(databaseUrl)));
  const engine = await SchemaEngine.new({ datamodels: [[SCHEMA_PATH, schema]] }, () => {}, adapter);
  try {
    return await run(engine, schema);
  } finally {
    engine.free();
  }
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
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

/** Applies every pending migration; returns the names applied by this call. */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  const migrationsList = await loadMigrations();
  return withSchemaEngine(databaseUrl, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilter });
    return out.appliedMigrationNames;
  });
}

/**
 * SQL that takes a database built by the existing migrations to `schema.prisma`.
 * Replays the migrations into a temporary shadow database on the same server.
 */
export async function diffMigrationsToSchema(databaseUrl: string): Promise<string> {
  const migrationsList = await loadMigrations();
  return withSchemaEngine(databaseUrl, async (engine, schema) => {
    const from =
      migrationsList.migrationDirectories.length === 0
        ? ({ tag: 'empty' } as const)
        : ({ tag: 'migrations', ...migrationsList } as const);
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
