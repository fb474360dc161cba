import { HeldError, listHeld, releaseHeld } from '../../ingest/held.js';
import { parseOptions } from '../args.js';
import { type Command, UsageError } from '../io.js';

/**
 * `held list`: the feed rows held at import for an implausible price (README, "Plausibility
 * at the door"), with their reasons; `--released` the ones operators released.
 */
const list: Command = {
  name: 'held list',
  usage: 'held list [--source NAME] [--released]',
  async run(args, ctx) {
    const { values } = parseOptions(args, { source: { type: 'string' }, released: { type: 'boolean' } });
    const db = await ctx.db();
    const rows = await listHeld(db.pool, { source: values.source, released: values.released ?? false });
    ctx.print(
      rows,
      rows.length === 0
        ? 'no held rows'
        : rows.map((r) => `${r.source}\t${r.source_ref}\t${r.price.toLocaleString('en-US')} XAF\t${r.reason}`).join('\n'),
    );
  },
};

/** `held release SOURCE REF... | --all`: the rows become listings, served and counted. */
const release: Command = {
  name: 'held release',
  usage: 'held release SOURCE (REF... | --all)   (e.g. held release partner-a pa-1042)',
  async run(args, ctx) {
    const { values, positionals } = parseOptions(args, { all: { type: 'boolean' } }, true);
    const [source, ...refs] = positionals;
    if (!source) throw new UsageError('give SOURCE, then the references to release (or --all)');
    if (refs.length === 0 && !values.all) throw new UsageError('give the references to release, or --all');
    if (refs.length > 0 && values.all) throw new UsageError('give references or --all, not both');
    const db = await ctx.db();
    let released: string[];
    try {
      released = await releaseHeld(db.pool, source, refs, values.all ?? false);
    } catch (err) {
      if (err instanceof HeldError) throw new UsageError(err.message);
      throw err;
    }
    ctx.print({ source, released }, `${released.length} row(s) of ${source} released: now listings, served and counted`);
  },
};

export const commands: Command[] = [list, release];
