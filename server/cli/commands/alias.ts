import { refreshMarketFigures } from '../../ingest/market-refresh.js';
import { AliasError, addAlias, refuseAlias } from '../../ingest/neighborhoods.js';
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
    let result: { neighborhood: string; moved: number };
    try {
      result = await addAlias(db.pool, city, raw, target);
    } catch (err) {
      if (err instanceof AliasError) throw new UsageError(err.message);
      throw err;
    }
    if (result.moved > 0) await refreshMarketFigures(db.pool);
    ctx.print(
      { city, alias: raw, neighborhood: result.neighborhood, moved: result.moved },
      `"${raw}" is now a name of ${result.neighborhood}; ${result.moved} listing(s) moved to it`,
    );
  },
};

/**
 * `alias refuse CITY NAME`: an approximate match an import report lists was wrong; NAME
 * stands for no quarter, its listings go back to the city alone, and later imports agree.
 */
const refuse: Command = {
  name: 'alias refuse',
  usage: 'alias refuse CITY NAME   (e.g. alias refuse Douala "Rue Bali")',
  async run(args, ctx) {
    const { positionals } = parseOptions(args, {}, true);
    if (positionals.length !== 2) throw new UsageError('give CITY and NAME');
    const [city, raw] = positionals;
    const db = await ctx.db();
    let result: { moved: number };
    try {
      result = await refuseAlias(db.pool, city, raw);
    } catch (err) {
      if (err instanceof AliasError) throw new UsageError(err.message);
      throw err;
    }
    if (result.moved > 0) await refreshMarketFigures(db.pool);
    ctx.print(
      { city, refused: raw, moved: result.moved },
      `"${raw}" names no quarter of ${city}; ${result.moved} listing(s) back to the city alone`,
    );
  },
};

export const commands: Command[] = [add, refuse];
