// Runs in every test worker: the database the global setup prepared.
import { inject } from 'vitest';

process.env.DATABASE_URL = inject('databaseUrl');
if (inject('embedded')) process.env.MBOA_TEST_EMBEDDED = '1';
