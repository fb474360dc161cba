/**
 * The contract between `npm run admin` and its commands: each command module exports a
 * `Command`; the entry point parses nothing but the command name, and turns a thrown
 * `UsageError` into a clear message and exit code 2, any other error into exit code 1.
 */
import type { Database } from '../platform/db.js';

export class UsageError extends Error {}

export interface CommandContext {
  /** Opened lazily: `--help` and argument errors need no database. Refused while migrations are pending. */
  db(): Promise<Database>;
  /** The database the command acts on (DATABASE_URL, or the embedded one), unopened. */
  databaseUrl(): Promise<string>;
  /** Writes a result: JSON when `--json` was given, else the human text. */
  print(result: unknown, human: string): void;
  /** Progress for humans on stderr (silent with --json or when stderr is not a terminal). */
  progress(line: string): void;
  json: boolean;
}

export interface Command {
  /** e.g. `accounts create` */
  name: string;
  usage: string;
  run(args: string[], ctx: CommandContext): Promise<number | void>;
}
