/**
 * Keep a local copy of every listing up to date, fetching only what changed since the
 * last run: the nightly job of a data buyer.
 *
 *   npx tsx examples/04-incremental-sync.ts [--mirror FILE] [--state FILE] [--city Douala]
 *
 * The first run copies everything (removed listings included). Later runs ask for
 * `updated_after` the last `updated_at` seen, with `sort: 'updated_at'` (oldest change
 * first) and `status: 'any'`, so removals arrive too: a listing that was sold comes back
 * with `status: 'sold'` and `removed_at` set.
 *
 * The state file holds that watermark. During a run it also holds the cursor of the next
 * page, so a run that dies resumes exactly where it stopped instead of starting over.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Listing, ListingSearchParams } from '@mboa/sdk';
import { OUTPUT_DIR, client, flags, run } from './shared.js';

const args = flags(
  `
Bring a local copy of the listings up to date with what changed since the last run.

  --mirror FILE   the local copy, one JSON object by listing id (default ${relative(process.cwd(), join(OUTPUT_DIR, 'mirror.json'))})
  --state FILE    the watermark (default ${relative(process.cwd(), join(OUTPUT_DIR, 'sync-state.json'))})
  --city NAME     only this city (keep the same one from run to run)
`,
  {
    mirror: { type: 'string', default: join(OUTPUT_DIR, 'mirror.json') },
    state: { type: 'string', default: join(OUTPUT_DIR, 'sync-state.json') },
    city: { type: 'string' },
  },
);

/**
 * Each run re-reads this much before the watermark. A change committed a moment after a
 * run passed its timestamp would otherwise be skipped for ever; reading a few listings
 * twice costs nothing, since storing a listing is idempotent.
 */
const OVERLAP_MS = 60_000;

interface SyncState {
  /** `updated_at` of the newest change already in the mirror; null before the first run. */
  watermark: string | null;
  /** The run in progress, if one was interrupted: its `updated_after` and next cursor. */
  inProgress: { updatedAfter: string | null; cursor: string; newest: string | null } | null;
  city: string | null;
}

function readJson<T>(file: string, fallback: T): T {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : fallback;
}

/** Temporary file then rename: a crash leaves the previous version or the new one, never half of one. */
function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(value));
  renameSync(`${file}.tmp`, file);
}

const later = (a: string | null, b: string) => (a === null || Date.parse(b) > Date.parse(a) ? b : a);

run(async () => {
  const mirror = new Map(Object.entries(readJson<Record<string, Listing>>(args.mirror, {})));
  let state = readJson<SyncState>(args.state, { watermark: null, inProgress: null, city: null });
  const city = args.city ?? null;
  if (state.watermark !== null && state.city !== city) {
    throw new Error(`${args.state} tracks ${state.city ?? 'every city'}, not ${city ?? 'every city'}: use another --state and --mirror.`);
  }

  const resuming = state.inProgress;
  const updatedAfter = resuming
    ? resuming.updatedAfter
    : state.watermark && new Date(Date.parse(state.watermark) - OVERLAP_MS).toISOString();
  const params: ListingSearchParams = {
    ...(city ? { city } : {}),
    ...(updatedAfter ? { updated_after: updatedAfter } : {}),
    sort: 'updated_at',
    status: 'any',
    limit: 200,
  };
  console.log(
    resuming
      ? `Resuming an interrupted sync of changes after ${updatedAfter ?? 'the beginning'}.`
      : updatedAfter
        ? `Fetching changes after ${updatedAfter} (last run's newest change, less ${OVERLAP_MS / 1000} s).`
        : 'First run: copying every listing.',
  );

  const mboa = client('starter', { maxRetries: 6 });
  const counts = { added: 0, updated: 0, removed: 0, unchanged: 0 };
  let newest = resuming?.newest ?? state.watermark;
  let read = 0;

  for await (const page of mboa.listings.search({ ...params, cursor: resuming?.cursor }).iterPages()) {
    for (const listing of page.data) {
      const before = mirror.get(listing.id);
      if (before && before.updated_at === listing.updated_at) counts.unchanged++;
      else if (listing.status !== 'active' && before?.status === 'active') counts.removed++;
      else if (before) counts.updated++;
      else counts.added++;
      mirror.set(listing.id, listing);
      newest = later(newest, listing.updated_at);
    }
    // Mirror first, then state: after a crash between the two, the page is fetched again
    // and stored again, which changes nothing.
    writeJson(args.mirror, Object.fromEntries(mirror));
    state = page.meta.next_cursor
      ? { ...state, city, inProgress: { updatedAfter, cursor: page.meta.next_cursor, newest } }
      : { watermark: newest, inProgress: null, city };
    writeJson(args.state, state);
    read += page.data.length;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${read} of ${page.meta.total} changes read`);
  }
  if (process.stderr.isTTY) process.stderr.write('\n');

  const active = [...mirror.values()].filter((l) => l.status === 'active').length;
  console.log(
    `${counts.added} new, ${counts.updated} updated, ${counts.removed} removed` +
      (counts.unchanged ? ` (${counts.unchanged} already up to date, read again for safety)` : '') +
      `. The mirror holds ${mirror.size} listings, ${active} active; newest change ${state.watermark ?? '-'}.`,
  );
  console.log(`Mirror: ${args.mirror}\nState:  ${args.state}`);
});
