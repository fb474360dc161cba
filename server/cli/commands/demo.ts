import { ensureDemoAccounts } from '../../start/demo-accounts.js';
import { count, seedNumber, thousands } from '../ingest-options.js';
import { seedListings } from '../../generate/seed.js';
import { parseOptions } from '../args.js';
import type { Command } from '../io.js';

/**
 * Demo data on purpose: production never seeds or creates demo accounts by itself. The
 * keys are printed once, here, and written nowhere.
 */
const demo: Command = {
  name: 'demo',
  usage: 'demo [--listings N] [--seed S]   (one demo account per plan, and N generated listings if given)',
  async run(args, ctx) {
    const { values } = parseOptions(args, { listings: { type: 'string' }, seed: { type: 'string' } });
    const listings = values.listings === undefined ? 0 : count(values.listings, 'listings');
    const { pool, prisma } = await ctx.db();
    let seeded = 0;
    if (listings > 0) {
      seeded = (
        await seedListings(pool, {
          listings,
          seed: seedNumber(values.seed) ?? 1,
          onProgress: (d, t) => ctx.progress(`seed: ${thousands(d)} / ${thousands(t)}`),
        })
      ).rows;
      ctx.progress('');
    }
    const keys = await ensureDemoAccounts(prisma);
    ctx.print(
      { listings_seeded: seeded, keys },
      [
        ...(listings > 0 ? [`Seeded ${thousands(seeded)} listings.`] : []),
        'Demo accounts (demo-<plan>@mboa.cm); keys shown once, store them now:',
        ...Object.entries(keys).map(([plan, key]) => `  ${plan.padEnd(10)} ${key}`),
      ].join('\n'),
    );
  },
};

export const commands: Command[] = [demo];
