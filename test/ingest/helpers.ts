/**
 * Shared by the ingest tests: the database the global setup prepared, a feed source name
 * of each test's own (other test files share the database), fixture files copied into a
 * temporary directory (the import writes its report next to its input), and cleanup.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, openDatabase } from '../../server/platform/db.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'ingest');

export function testDatabase(): Database {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the tests through vitest (its global setup provides it)');
  return openDatabase(url, { max: 4 });
}

export function testSource(): string {
  return `test-ingest-${randomBytes(4).toString('hex')}`;
}

export interface Workdir {
  dir: string;
  /** Copies a fixture into the work directory; returns its new path. */
  fixture(name: string): string;
  /** Writes a file in the work directory; returns its path. */
  write(name: string, content: string): string;
  remove(): void;
}

export function workdir(): Workdir {
  const dir = mkdtempSync(join(tmpdir(), 'mboa-ingest-test-'));
  return {
    dir,
    fixture(name) {
      const path = join(dir, name);
      copyFileSync(join(FIXTURES, name), path);
      return path;
    },
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function readJsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function toJsonLines(rows: unknown[]): string {
  return `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

/** Deletes a test's listings (their price history goes with them). */
export async function removeSource(db: Database, ...sources: string[]): Promise<void> {
  await db.pool.query('DELETE FROM listings WHERE source = ANY($1::text[])', [sources]);
}

export interface StoredListing {
  id: string;
  source_ref: string;
  title: string;
  price: string;
  city: string;
  city_key: string;
  neighborhood: string;
  neighborhood_key: string;
  surface: number;
  bedrooms: number;
  bathrooms: number;
  type: string;
  purpose: string;
  price_per_m2: number | null;
  status: string;
  listed_at: Date;
  updated_at: Date;
  removed_at: Date | null;
  contact_name: string;
  contact_phone: string;
  contact_email: string;
  street_address: string;
}

export async function listingsOf(db: Database, source: string): Promise<StoredListing[]> {
  const { rows } = await db.pool.query<StoredListing>(
    `SELECT id, source_ref, title, price, city, city_key, neighborhood, neighborhood_key, surface, bedrooms,
            bathrooms, type, purpose, price_per_m2, status, listed_at, updated_at, removed_at, contact_name,
            contact_phone, contact_email, street_address
     FROM listings WHERE source = $1 ORDER BY source_ref`,
    [source],
  );
  return rows;
}

export async function historyOf(db: Database, source: string): Promise<{ source_ref: string; price: string; changed_at: Date }[]> {
  const { rows } = await db.pool.query(
    `SELECT l.source_ref, h.price, h.changed_at FROM price_history h JOIN listings l ON l.id = h.listing_id
     WHERE l.source = $1 ORDER BY l.source_ref, h.changed_at, h.id`,
    [source],
  );
  return rows;
}

/**
 * A suite's database, work directory and source names, with the hooks that clean them up:
 * each test's sources removed after it, the directory and the pool after the file.
 */
export function ingestSuite(): { db: Database; work: Workdir; source: () => string } {
  const db = testDatabase();
  const work = workdir();
  const sources: string[] = [];
  afterEach(async () => {
    await removeSource(db, ...sources.splice(0));
  });
  afterAll(async () => {
    work.remove();
    await db.close();
  });
  return {
    db,
    work,
    source: () => {
      const s = testSource();
      sources.push(s);
      return s;
    },
  };
}
