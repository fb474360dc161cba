// Where the schema and its migrations live: beside this module, in the sources and in the
// compiled build alike (the build copies them next to the compiled runner).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SCHEMA_PATH = join(here, 'schema.prisma');
export const MIGRATIONS_DIR = join(here, 'migrations');
