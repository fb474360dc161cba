import { refreshMarketFigures } from '../../ingest/market-refresh.js';
import { AliasError, addAlias } from '../../ingest/quarters.js';
import { parseOptions } from '../args.js';
import { type Command, UsageError } from '../io.js';

/**
 * `alias add CITY NAME QUARTER`: a quarter name the gazetteer does not know (an import
 * report's `unresolved_neighborhoods`) becomes another name of a known quarter; the
 * listings already imported under it move to that quarter, and the market figures follow.
 */
const add: Command = {
  name: 'alias add',
  usage: 'alias add CITY NAME QUARTER   (e.g. alias add Douala "Carrefour Bonamoussadi" Bonamoussadi)',
  async run(args, ctx) {
    const { positionals } = parseOptions(args, {}, true);
    if (positionals.length !== 3) throw new UsageError('give CITY, NAME and QUARTER');
    const [city, raw, target] = positionals;
    const db = await ctx.db();
    let result: { quarter: string; moved: number };
    try {
      result = await addAlias(db.pool, city, raw, target);
    } catch (err) {
      if (err instanceof AliasError) throw new UsageError(err.message);
      throw err;
    }
    if (result.moved > 0) await refreshMarketFigures(db.pool);
    ctx.print(
      { city, alias: raw, quarter: result.quarter, moved: result.moved },
      `"${raw}" is now a name of ${result.quarter}; ${result.moved} listing(s) moved to it`,
    );
  },
};

export const commands: Command[] = [add];
