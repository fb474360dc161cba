// The pg driver adapter the schema engine runs on, with the three fixes PrismaPg 7.10
// needs for migrations: pg_catalog "char" columns, scripts sent whole, and a shadow
// database dropped only once its pool is closed.
import { randomBytes } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { ColumnTypeEnum, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg, { type PoolConfig } from 'pg';

/**
 * The URL split into fields: the adapter makes its shadow database by overriding
 * `database`, which pg ignores when a `connectionString` is given.
 */
export function poolConfig(databaseUrl: string): PoolConfig {
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

/**
 * PrismaPg 7.10 runs a migration script by splitting it on every `;`, which cuts function
 * bodies (`$$ ... ; ... $$`) apart and runs the pieces one by one outside any transaction.
 * The native engine sends the script whole, as one simple query: so does this.
 */
type ScriptAdapter = { executeScript(script: string): Promise<void>; underlyingDriver(): unknown };

function runScriptsWhole(adapter: ScriptAdapter): void {
  const onError = (adapter as unknown as { onError(err: unknown): never }).onError.bind(adapter);
  adapter.executeScript = async (script: string) => {
    try {
      await (adapter.underlyingDriver() as pg.Pool | pg.PoolClient).query(script);
    } catch (err) {
      onError(err);
    }
  };
}

function catalogSafeAdapter(config: PoolConfig) {
  const factory = new PrismaPg(new pg.Pool({ ...config, Client: CatalogSafeClient }), { disposeExternalPool: true });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      typeCharColumns(adapter);
      runScriptsWhole(adapter as unknown as ScriptAdapter);
      return adapter;
    },
  };
}

/**
 * PrismaPg's own shadow database is dropped while its pool still holds a connection, so
 * `diff` fails; this one closes the pool first. The schema engine never closes the pools
 * of the adapters it connects: `disposeAll` does, once it is freed, so no session of a
 * migration outlives it (a database with one left cannot be copied or dropped at once).
 */
export function migrationAwareFactory(config: PoolConfig): SqlMigrationAwareDriverAdapterFactory & { disposeAll(): Promise<void> } {
  const main = catalogSafeAdapter(config);
  const opened: Array<{ dispose(): Promise<void> }> = [];
  return {
    provider: 'postgres',
    adapterName: main.adapterName,
    async connect() {
      const adapter = await main.connect();
      opened.push(adapter);
      return adapter;
    },
    async disposeAll() {
      await Promise.all(opened.splice(0).map((a) => a.dispose().catch(() => {})));
    },
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
