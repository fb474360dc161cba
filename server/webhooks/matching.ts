/**
 * Which saved searches the listings of a batch of changes match, as they are now and as
 * they were, set-based: a fixed number of statements per batch whatever the number of
 * saved searches. Each saved search's conditions are the search's own (`listingFilterSql`
 * on its effective filters); the saved searches whose conditions read the same, values
 * aside, form a group, and a group is one join of the batch's rows against a table of its
 * searches' values, each value read as the type PostgreSQL gives that parameter in the
 * search's own statement (asked once per shape), from the text node-pg would send: the
 * same comparisons as the search, on every row of the batch at once.
 */
import type pg from 'pg';
import { ZListingFilters } from '../../contract/schemas.js';
import { effectiveFilters, listingFilterSql, SqlConditions } from '../domain/listing/filters.js';

export interface SavedSearchRow {
  id: string;
  filters: Record<string, string>;
}

/** A saved search the listing of a change matches now (`isIn`) or matched before it (`wasIn`). */
export interface Match {
  /** Index in the saved searches given. */
  saved: number;
  changeId: string;
  isIn: boolean;
  wasIn: boolean;
}

interface Compiled {
  /** The conditions on the listing (`l`) with `$n` placeholders: the group's key. */
  where: string;
  /** The same on the listing as it was (`o`). */
  whereOld: string;
  /** The values as text, as node-pg writes them. */
  values: (string | null)[];
}

/** A parameter's value as node-pg sends it (text), for the kinds of values the WHERE builder uses. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `{${value.map((v) => `"${String(asText(v)).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
  return String(value);
}

/** Compiled conditions per saved search, by its filters' text (a search changed is compiled again). */
const compiledCache = new Map<string, Compiled | null>();
const COMPILED_MAX = 100_000;

function compile(filters: Record<string, string>): Compiled | null {
  const key = JSON.stringify(filters);
  let hit = compiledCache.get(key);
  if (hit !== undefined) return hit;
  const parsed = ZListingFilters.safeParse(filters);
  if (!parsed.success) hit = null;
  else {
    const f = effectiveFilters(parsed.data);
    const sql = listingFilterSql(f, 'l', new SqlConditions());
    const old = listingFilterSql(f, 'o', new SqlConditions(), true);
    hit = {
      where: sql.conditions.join(' AND ') || 'true',
      whereOld: old.conditions.join(' AND ') || 'true',
      values: sql.params.map(asText),
    };
  }
  if (compiledCache.size >= COMPILED_MAX) compiledCache.clear();
  compiledCache.set(key, hit);
  return hit;
}

/** Each shape's parameter types as PostgreSQL infers them in the search's own statement. */
const typesCache = new Map<string, string[]>();

async function parameterTypes(client: pg.PoolClient, where: string): Promise<string[]> {
  let types = typesCache.get(where);
  if (types) return types;
  const results = (await client.query(
    `PREPARE mboa_match_shape AS SELECT 1 FROM listings l WHERE ${where};
     SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'mboa_match_shape';
     DEALLOCATE mboa_match_shape`,
  )) as unknown as pg.QueryResult<{ types: string[] }>[];
  types = results[1].rows[0].types;
  if (typesCache.size >= 10_000) typesCache.clear();
  typesCache.set(where, types);
  return types;
}

/** Groups evaluated per statement. */
const GROUPS_PER_STATEMENT = 100;

/**
 * The matches of `saved` among the listings of changes `changeIds`: every pair where the
 * listing matches now or matched before, kept when the two differ or the saved search's
 * `followed` holds (an endpoint that follows it wants its listing events).
 */
export async function matchBatch(
  client: pg.PoolClient,
  saved: SavedSearchRow[],
  changeIds: string[],
  followed: (savedIndex: number) => boolean,
): Promise<Match[]> {
  const groups = new Map<string, { where: string; whereOld: string; members: number[]; values: (string | null)[][] }>();
  saved.forEach((s, i) => {
    const c = compile(s.filters);
    if (!c) return; // filters no longer valid: the search would refuse them, nothing matches.
    let g = groups.get(c.where);
    if (!g) groups.set(c.where, (g = { where: c.where, whereOld: c.whereOld, members: [], values: c.values.map(() => []) }));
    g.members.push(i);
    c.values.forEach((v, n) => g.values[n].push(v));
  });
  const all = [...groups.values()];
  const matches: Match[] = [];
  for (let start = 0; start < all.length; start += GROUPS_PER_STATEMENT) {
    const chunk = all.slice(start, start + GROUPS_PER_STATEMENT);
    const params: unknown[] = [changeIds];
    const tables: string[] = [];
    const branches: string[] = [];
    for (const [g, group] of chunk.entries()) {
      const types = await parameterTypes(client, group.where);
      const first = params.length + 1;
      params.push(
        group.members,
        group.members.map((i) => followed(i)),
      );
      const columns = group.values.map((v, n) => {
        params.push(v);
        return { array: `$${params.length}::text[]`, typed: `p${n + 1}::${types[n]} AS p${n + 1}` };
      });
      // Each value read once, as the search's statement reads its parameter (the casts stay out of the join).
      tables.push(
        `ps${g} AS MATERIALIZED (SELECT i, followed${columns.map((c) => `, ${c.typed}`).join('')}
           FROM unnest($${first}::int[], $${first + 1}::bool[]${columns.map((c) => `, ${c.array}`).join('')})
             AS u(i, followed${columns.map((_, n) => `, p${n + 1}`).join('')}))`,
      );
      const named = (where: string) => where.replace(/\$(\d+)\b/g, (_, n: string) => `p.p${n}`);
      const [now, old] = [named(group.where), named(group.whereOld)];
      // Matching now (and whether it did before); matching before only.
      branches.push(
        `SELECT p.i, l.change_id, true AS is_in, (o.change_id IS NOT NULL AND coalesce(${old}, false)) AS was_in
           FROM ps${g} p JOIN now_rows l ON ${now} LEFT JOIN old_rows o ON o.change_id = l.change_id
          WHERE p.followed OR NOT (o.change_id IS NOT NULL AND coalesce(${old}, false))`,
        `SELECT p.i, o.change_id, false, true
           FROM ps${g} p JOIN old_rows o ON ${old} JOIN now_rows l ON l.change_id = o.change_id
          WHERE NOT coalesce(${now}, false)`,
      );
    }
    const { rows } = await client.query<{ i: number; change_id: string; is_in: boolean; was_in: boolean }>(
      `WITH now_rows AS MATERIALIZED (
         SELECT c.id::text AS change_id, l.* FROM listing_changes c JOIN listings l ON l.id = c.listing_id WHERE c.id = ANY($1::bigint[])),
       old_rows AS MATERIALIZED (
         SELECT c.id::text AS change_id, l.* FROM listing_changes c CROSS JOIN LATERAL jsonb_populate_record(NULL::listings, c.previous) l
          WHERE c.id = ANY($1::bigint[]) AND c.op = 'update'),
       ${tables.join(',\n')}
       ${branches.join('\nUNION ALL\n')}`,
      params,
    );
    for (const r of rows) matches.push({ saved: r.i, changeId: r.change_id, isIn: r.is_in, wasIn: r.was_in });
  }
  return matches;
}
