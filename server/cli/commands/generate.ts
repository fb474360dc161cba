import { resolve } from 'node:path';
import { count, feedFormat, seedNumber, sourceName, thousands } from '../ingest-options.js';
import { formatFromPath } from '../../ingest/feed-reader.js';
import { writeFeed } from '../../generate/feed-writer.js';
import { DEFAULT_SOURCE, generateListings, REPEATS } from '../../generate/generator.js';
import { parseOptions, required } from '../args.js';
import { type Command, UsageError } from '../io.js';

export const command: Command = {
  name: 'generate',
  usage: 'generate --out FILE --listings N [--seed S] [--format ndjson|csv] [--source NAME] [--repeats SHARE] [--json]',
  async run(args, ctx) {
    const { values } = parseOptions(args, {
      out: { type: 'string' },
      listings: { type: 'string' },
      seed: { type: 'string' },
      format: { type: 'string' },
      source: { type: 'string' },
      repeats: { type: 'string' },
    });
    const out = resolve(required(values.out, 'out'));
    const listings = count(values.listings, 'listings');
    const seed = seedNumber(values.seed) ?? 1;
    const source = sourceName(values.source, DEFAULT_SOURCE);
    const format = feedFormat(values.format) ?? formatFromPath(out) ?? 'ndjson';
    const repeats = repeatShare(values.repeats);
    const started = performance.now();
    let written: number;
    try {
      written = await writeFeed(out, format, generateListings({ count: listings, seed, source, repeats }), (n) =>
        ctx.progress(`generate: ${thousands(n)} / ${thousands(listings)} listings`),
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw new UsageError(`cannot write ${out} (${code})`);
      throw err;
    }
    ctx.progress('');
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    ctx.print(
      { file: out, format, listings: written, seed, source, repeats, seconds },
      `Wrote ${thousands(written)} listings to ${out} (${format}, seed ${seed}) in ${seconds} s.`,
    );
  },
};

/** --repeats: the share of rows repeating an earlier advert, 0 to 0.5 (default: the generator's). */
function repeatShare(value: string | undefined): number {
  if (value === undefined) return REPEATS;
  const share = Number(value);
  if (value.trim() === '' || !Number.isFinite(share) || share < 0 || share > 0.5)
    throw new UsageError(`--repeats must be a share from 0 to 0.5 (default ${REPEATS}), not ${value}`);
  return share;
}
