import { migrationStatus } from '../../../prisma/migration-status.js';
import { applyMigrations } from '../../../prisma/schema-engine/migrations.js';
import { openDatabase } from '../../platform/db.js';
import { ensureSampleData } from '../../generate/sample-data.js';
import { syncGazetteer } from '../../ingest/neighborhoods.js';
import { parseOptions } from '../args.js';
import type { Command } from '../io.js';

/**
 * The deploy step (`npm run db:migrate`, or `npm run admin:prod -- migrate` from the
 * compiled build): pending migrations and the sample's tables derived from the live ones,
 * the gazetteer's quarters (contract/gazetteer, into
 * `neighborhoods`), then the test keys' fixed sample if this version's
 * is not there yet. Safe to run twice at once: both steps take a lock.
 */
const migrate: Command = {
  name: 'migrate',
  usage: 'migrate [--status]',
  async run(args, ctx) {
    const { values } = parseOptions(args, { status: { type: 'boolean' } });
    const url = await ctx.databaseUrl();
    if (values.status) {
      const db = openDatabase(url, { max: 1 });
      try {
        const status = await migrationStatus(db.pool);
        ctx.print(status, status.pending.length ? `pending: ${status.pending.join(', ')}` : 'database is up to date');
        return status.pending.length ? 1 : 0;
      } finally {
        await db.close();
      }
    }
    const sampleChanges: string[] = [];
    const applied = await applyMigrations(url, { onSampleChange: (change) => sampleChanges.push(change) });
    const db = openDatabase(url, { max: 1 });
    try {
      await syncGazetteer(db.pool);
    } finally {
      await db.close();
    }
    const sampleLoaded = await ensureSampleData(url);
    const lines = [applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date'];
    if (sampleChanges.length) lines.push(`sample schema derived from public: ${sampleChanges.join('; ')}`);
    if (sampleLoaded) lines.push("test keys' sample data loaded");
    ctx.print({ applied, sample_changes: sampleChanges, sample_loaded: sampleLoaded }, lines.join('\n'));
  },
};

export const commands: Command[] = [migrate];
