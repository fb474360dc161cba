import { count, seedNumber, thousands } from '../ingest-options.js';
import { DEFAULT_SOURCE } from '../../generate/generator.js';
import { seedListings } from '../../generate/seed.js';
import { parseOptions } from '../args.js';
import type { Command } from '../io.js';

export const command: Command = {
  name: 'seed',
  usage: 'seed --listings N [--seed S] [--json]',
  async run(args, ctx) {
    const { values } = parseOptions(args, { listings: { type: 'string' }, seed: { type: 'string' } });
    const listings = count(values.listings, 'listings');
    const seed = seedNumber(values.seed) ?? 1;
    const { pool } = await ctx.db();
    const result = await seedListings(pool, {
      listings,
      seed,
      onProgress: (done, total) => ctx.progress(`seed: ${thousands(done)} / ${thousands(total)} listings`),
    });
    ctx.progress('');
    const skipped = listings - result.rows - result.folded;
    ctx.print(
      {
        source: DEFAULT_SOURCE,
        seed,
        requested: listings,
        inserted: result.rows,
        repeats_folded: result.folded,
        already_present: skipped,
        seconds: round(result.seconds),
      },
      `Seeded ${thousands(result.rows)} listings (seed ${seed}; ${thousands(result.folded)} repeated adverts folded${skipped > 0 ? `, ${thousands(skipped)} already present` : ''}) in ${round(result.seconds)} s; market figures rebuilt.`,
    );
  },
};

const round = (s: number) => Math.round(s * 10) / 10;
