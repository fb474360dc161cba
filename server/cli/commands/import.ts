import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { columnMap, encodingOption, feedFormat, sourceName, thousands } from '../ingest-options.js';
import { formatFromPath } from '../../ingest/feed-reader.js';
import { type ImportResult, importFile } from '../../ingest/import.js';
import { dayOption, parseOptions } from '../args.js';
import { type Command, UsageError } from '../io.js';

/** Listings imported without --source belong to this feed. */
export const DEFAULT_IMPORT_SOURCE = 'import';

export const command: Command = {
  name: 'import',
  usage:
    'import FILE [--source NAME] [--full [--force-full]] [--dry-run] [--format ndjson|csv] [--columns MAP.json] [--encoding auto|utf-8|windows-1252] [--listed-at YYYY-MM-DD] [--json]',
  async run(args, ctx) {
    const { values, positionals } = parseOptions(
      args,
      {
        source: { type: 'string' },
        full: { type: 'boolean' },
        'force-full': { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        format: { type: 'string' },
        columns: { type: 'string' },
        encoding: { type: 'string' },
        'listed-at': { type: 'string' },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'FILE is required' : 'give one FILE to import');
    const file = resolve(positionals[0]);
    if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
    if (!statSync(file).isFile()) throw new UsageError(`not a file: ${file}`);
    const format = feedFormat(values.format) ?? formatFromPath(file);
    if (!format) throw new UsageError(`cannot tell the format of ${file} from its name: add --format ndjson or --format csv`);
    const source = sourceName(values.source, DEFAULT_IMPORT_SOURCE);
    const dryRun = values['dry-run'] ?? false;
    const columns = columnMap(values.columns);
    if (values['force-full'] && !values.full) throw new UsageError('--force-full goes with --full');
    const encoding = encodingOption(values.encoding);
    const listedAt = dayOption(values['listed-at'], 'listed-at');
    if (listedAt && listedAt.getTime() > Date.now()) throw new UsageError('--listed-at must not be in the future');

    const pool = dryRun ? null : (await ctx.db()).pool;
    const result = await importFile(pool, {
      file,
      format,
      source,
      columns,
      encoding,
      full: values.full ?? false,
      forceFull: values['force-full'] ?? false,
      dryRun,
      plausibility: true,
      listedAt,
      onProgress: (p) => {
        const pct = p.totalBytes > 0 ? Math.floor((100 * p.bytes) / p.totalBytes) : 100;
        ctx.progress(
          `import: ${thousands(p.rows)} rows (${pct}%), ${thousands(Math.round(p.rows / p.seconds))} rows/s, ${thousands(p.rejected)} rejected, ${thousands(p.skipped)} skipped`,
        );
      },
    });
    ctx.progress('');
    const { rejected_sample, skipped_sample, repeats_sample, held_sample, ...summary } = result;
    ctx.print(summary, human(result));
    return result.counts.rejected > 0 ? 1 : 0;
  },
};

function human(r: ImportResult): string {
  const c = r.counts;
  const lines = [
    `${r.dry_run ? 'Checked (dry run, nothing written)' : 'Imported'} ${r.file} (${r.format}, ${r.encoding}, source ${r.source}): ` +
      `${thousands(c.lines)} lines, ${thousands(c.records)} records: ${thousands(c.accepted)} accepted, ${thousands(c.rejected)} rejected` +
      (c.unreadable > 0 ? ` (${thousands(c.unreadable)} unreadable)` : '') +
      (c.skipped > 0 ? `, ${thousands(c.skipped)} skipped (price on request)` : '') +
      (c.held > 0 ? `, ${thousands(c.held)} held (a reference already in the file, or an implausible price)` : ''),
  ];
  if (!r.dry_run) {
    lines.push(
      `  ${thousands(c.inserted)} new, ${thousands(c.updated)} updated, ${thousands(c.unchanged)} unchanged, ` +
        `${thousands(c.repriced)} price changes${r.full ? `, ${thousands(c.removed)} withdrawn (absent from the file)` : ''}`,
    );
  }
  if (c.repeats_folded > 0)
    lines.push(`  ${thousands(c.repeats_folded)} repeats folded (the same advert under another reference, stored once)`);
  if (r.mode === 'bulk') lines.push('  bulk load: search indexes rebuilt after loading (listings were locked meanwhile)');
  if (r.full_skipped_reason) lines.push(`  --full not applied: ${r.full_skipped_reason}`);
  if (r.full_forced) lines.push(`  ${r.full_forced}`);
  lines.push(`  ${r.seconds} s, ${thousands(r.rows_per_second)} rows/s`);
  lines.push(`Report: ${r.report_path}`);
  if (r.rejected_sample.length > 0) {
    lines.push(
      `Rejected rows${c.rejected > r.rejected_sample.length ? ` (first ${r.rejected_sample.length} of ${thousands(c.rejected)}, all in the report)` : ''}:`,
    );
    for (const x of r.rejected_sample) lines.push(`  line ${x.line}${x.source_ref ? ` (${x.source_ref})` : ''}: ${x.reason}`);
  }
  if (r.repeats_sample.length > 0) {
    const n = r.repeats_sample.length;
    lines.push(`Repeats${c.repeats_folded > n ? ` (first ${n} of ${thousands(c.repeats_folded)}, all in the report)` : ''}:`);
    for (const x of r.repeats_sample) {
      lines.push(
        `  line ${x.line} (${x.source_ref}) repeats ${x.repeats_stored ? 'the stored listing' : 'the row'} ${x.repeats_source_ref}`,
      );
    }
  }
  if (r.held_sample.length > 0) {
    lines.push(`Held rows, reference already in the file (first ${r.held_sample.length} at most, all in the report):`);
    for (const x of r.held_sample) lines.push(`  line ${x.line} (${x.source_ref}): ${x.reason}`);
  }
  const prices = r.held_prices ?? [];
  if (prices.length > 0) {
    lines.push(`Held rows, implausible price (first ${Math.min(prices.length, 20)}; all: npm run admin -- held list):`);
    for (const x of prices.slice(0, 20)) lines.push(`  line ${x.line} (${x.source_ref}): ${x.reason}`);
  }
  if (r.skipped_sample.length > 0) {
    lines.push(`Skipped rows${c.skipped > r.skipped_sample.length ? ` (first ${r.skipped_sample.length}, all in the report)` : ''}:`);
    for (const x of r.skipped_sample) lines.push(`  line ${x.line}${x.source_ref ? ` (${x.source_ref})` : ''}: ${x.reason}`);
  }
  return lines.join('\n');
}
