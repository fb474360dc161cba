/**
 * `npm run admin -- <command> [options] [--json]`: the operator CLI. Commands live in
 * ./commands, one module per subject, each exporting `commands: Command[]`.
 * Exit codes: 0 done, 1 failed or refused, 2 bad arguments.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { migrationStatus } from '../../prisma/migration-status.js';
import { AccountRuleError } from '../accounts/errors.js';
import { loadConfig } from '../platform/config.js';
import { type Database, openDatabase } from '../platform/db.js';
import type { EmbeddedPostgres } from '../platform/embedded-postgres.js';
import { type Command, type CommandContext, UsageError } from './io.js';

const commandsDir = join(dirname(fileURLToPath(import.meta.url)), 'commands');

/**
 * The commands of every file in `commands/`, or of the one named by `first` when there is
 * such a file (a command's first word names its file: `sales list` is in `sales.ts`). One
 * file imports in a fraction of a second; all of them take seconds (the generator, the
 * importer, the invoices' PDF, the valuation model), which every run of a command paid.
 */
async function loadCommands(first?: string): Promise<Command[]> {
  const files = readdirSync(commandsDir).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('.test.'));
  const own = files.filter((f) => f.replace(/\.(ts|js)$/, '') === first);
  const modules = await Promise.all((own.length ? own : files).map((f) => import(pathToFileURL(join(commandsDir, f)).href)));
  return modules.flatMap((m: { commands?: Command[]; command?: Command }) => [...(m.commands ?? []), ...(m.command ? [m.command] : [])]);
}

/** The command `args` names, longest name first (`keys create` before a hypothetical `keys`). */
function findCommand(commands: Command[], args: string[]): Command | undefined {
  return [...commands].sort((a, b) => b.name.length - a.name.length).find((c) => c.name.split(' ').every((w, i) => args[i] === w));
}

function helpText(commands: Command[]): string {
  return ['usage: npm run admin -- <command> [options] [--json]', '', ...commands.map((c) => `  ${c.usage}`)].join('\n');
}

/** Which database a command acts on, for the operator: never a password. */
function describeDatabase(databaseUrl: string | undefined, dataDir: string, served: boolean): string {
  if (databaseUrl) {
    const u = new URL(databaseUrl);
    return `PostgreSQL ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname} (DATABASE_URL)`;
  }
  const how = served ? 'served by the running demo server' : 'opened by this command; no server is running on it';
  return `the embedded PostgreSQL in ${dataDir} (${how}; MBOA_DATA_DIR to choose another, DATABASE_URL for a PostgreSQL server)`;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  if (args.length === 0 || args[0] === 'help' || args[0] === '--help') {
    console.log(helpText(await loadCommands()));
    return args.length === 0 ? 2 : 0;
  }
  const command = findCommand(await loadCommands(args[0]), args);
  if (!command) {
    console.error(`error: unknown command "${args.slice(0, 2).join(' ')}"\n\n${helpText(await loadCommands())}`);
    return 2;
  }

  let db: Database | undefined;
  let embedded: EmbeddedPostgres | undefined;
  let url: string | undefined;
  let served: string | null = null;
  const ctx: CommandContext = {
    json,
    async databaseUrl() {
      if (url) return url;
      const config = loadConfig(process.env, { secrets: 'optional' });
      if (config.databaseUrl) {
        url = config.databaseUrl;
      } else {
        // Imported only here: the embedded database's code takes a second to load.
        const { runningEmbeddedUrl, startEmbeddedPostgres } = await import('../platform/embedded-postgres.js');
        served = runningEmbeddedUrl(config.dataDir);
        if (served) url = served;
        else {
          embedded = await startEmbeddedPostgres(config.dataDir);
          url = embedded.url;
        }
      }
      // Which database the command changes, for the operator (stderr; --json output is for scripts and stays as it was).
      if (!json) console.error(`database: ${describeDatabase(config.databaseUrl, config.dataDir, served !== null)}`);
      return url;
    },
    async db() {
      if (db) return db;
      const target = await ctx.databaseUrl();
      db = openDatabase(target, { max: embedded ? 4 : 10 });
      if (embedded) {
        // The embedded database belongs to the demo: keep it migrated. (A running server
        // has migrated the one it serves.)
        const { applyMigrations } = await import('../../prisma/schema-engine/migrations.js');
        await applyMigrations(target);
      } else if (!served) {
        // Production: migrations are the deploy step, never a side effect of a command.
        const { pending } = await migrationStatus(db.pool);
        if (pending.length) {
          throw new Error(
            `the database lacks ${pending.length} migration(s) of this version (${pending.join(', ')}): run \`npm run db:migrate\` first`,
          );
        }
      }
      return db;
    },
    print(result, human) {
      console.log(json ? JSON.stringify(result, null, 2) : human);
    },
    progress(line) {
      if (!json && process.stderr.isTTY) process.stderr.write(`\r${line}\x1b[K`);
    },
  };

  try {
    const code = await command.run(args.slice(command.name.split(' ').length), ctx);
    return code ?? 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}\nusage: npm run admin -- ${command.usage}`);
      return 2;
    }
    if (err instanceof AccountRuleError) {
      if (json) console.log(JSON.stringify({ error: err.code, message: err.message, ...err.details }, null, 2));
      else console.error(`refused: ${err.message}`);
      return 1;
    }
    console.error(`error: ${(err as Error).message}`);
    return 1;
  } finally {
    await db?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
  }
}

void main().then((code) => process.exit(code));
