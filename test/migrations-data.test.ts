/**
 * The data part of the accounts migration, on a database of its own: accounts opened
 * before confirmation existed count as confirmed (their keys keep working), and every
 * suspension made so far is recorded as an operator's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { MIGRATIONS_DIR } from '../prisma/paths.js';
import { randomId } from '../server/platform/ids.js';
import { itOnServer } from './helpers/requires.js';

const TARGET = 'accounts_business';

// A second database on the same server; the embedded PGlite serves only one.
itOnServer('it needs a scratch database of its own, which the embedded one, a single database, cannot give')(
  'confirms existing accounts and marks their suspensions as the operator’s',
  async () => {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `${base.pathname.slice(1)}_mig_${randomId('t').slice(2)}`.toLowerCase();
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(base.toString());
    url.pathname = `/${name}`;
    const db = new pg.Client({ connectionString: url.toString() });
    try {
      await db.connect();
      const dirs = readdirSync(MIGRATIONS_DIR)
        .filter((d) => /^\d{14}_/.test(d))
        .sort();
      const target = dirs.findIndex((d) => d.endsWith(`_${TARGET}`));
      expect(target).toBeGreaterThan(0);
      for (const dir of dirs.slice(0, target)) await db.query(readFileSync(join(MIGRATIONS_DIR, dir, 'migration.sql'), 'utf8'));

      await db.query(`INSERT INTO accounts (id, email, plan, status, created_at) VALUES
      ('acc_old_active', 'old@bank.cm', 'pro', 'active', '2026-01-05T10:00:00Z'),
      ('acc_old_suspended', 'late@bank.cm', 'starter', 'suspended', '2026-02-07T08:30:00Z')`);
      await db.query(readFileSync(join(MIGRATIONS_DIR, dirs[target], 'migration.sql'), 'utf8'));

      const { rows } = await db.query(
        `SELECT id, email_verified_at = created_at AS confirmed_at_opening, suspension_reason, language FROM accounts ORDER BY id`,
      );
      expect(rows).toEqual([
        { id: 'acc_old_active', confirmed_at_opening: true, suspension_reason: null, language: 'fr' },
        { id: 'acc_old_suspended', confirmed_at_opening: true, suspension_reason: 'operator', language: 'fr' },
      ]);
      const kinds = await db.query(
        `SELECT column_default FROM information_schema.columns WHERE table_name = 'api_keys' AND column_name = 'kind'`,
      );
      expect(kinds.rows[0].column_default).toBe('\'live\'::"KeyKind"');
    } finally {
      await db.end().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  },
);
