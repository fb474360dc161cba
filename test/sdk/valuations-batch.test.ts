/**
 * The SDK's `valuations.batch()` against the real server over HTTP: a list longer than one
 * batch is sent 1,000 subjects per request and answered in the list's order (indexes count
 * from its first subject), valued subjects and refused ones alike, and the account is
 * charged exactly the subjects valued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mboa, PlanForbiddenError, type ValuationsGetParams } from '@mboa/sdk';
import { HORIZON_MONTHS } from '../../server/domain/valuations/candidates.js';
import { startTestServer, storedUsage, type TestServer } from '../helpers/server.js';

let t: TestServer;
let cell: { city: string; neighborhood: string; type: ValuationsGetParams['type']; purpose: ValuationsGetParams['purpose'] };

beforeAll(async () => {
  t = await startTestServer();
  const { rows } = await t.db.pool.query<typeof cell>(
    `SELECT city, min(neighborhood) AS neighborhood, type::text, purpose::text FROM listings
     WHERE source = 'mboa-seed' AND neighborhood IS NOT NULL AND listed_at > now() - interval '${HORIZON_MONTHS} months'
     GROUP BY city, neighborhood_key, type, purpose ORDER BY count(*) DESC, 1, 2 LIMIT 1`,
  );
  cell = rows[0];
});
afterAll(() => t?.close());

describe('valuations.batch', () => {
  it('pages a longer list 1,000 subjects at a time and gives every answer in order, charged per subject valued', async () => {
    const { id, key } = await t.account('enterprise');
    const requests: string[] = [];
    const mboa = new Mboa({
      apiKey: key,
      baseUrl: t.baseUrl,
      maxRetries: 0,
      fetch: (url: string, init: RequestInit) => {
        requests.push(url);
        return fetch(url, init);
      },
    });
    // Every 250th subject can be valued; the others lack their type (each refused on its own).
    const subjects: ValuationsGetParams[] = Array.from({ length: 2_001 }, (_, i) =>
      i % 250 === 0
        ? { ...cell, bedrooms: 1 + (i % 4) }
        : ({ city: cell.city, purpose: cell.purpose, bedrooms: i % 6 } as ValuationsGetParams),
    );
    const result = await mboa.valuations.batch(subjects);
    expect(requests.filter((u) => u.endsWith('/api/v1/valuations/batch'))).toHaveLength(3);
    expect(result.requests).toBe(3);
    expect(result.data.map((it) => it.index)).toEqual(subjects.map((_, i) => i));
    const valuedAt = result.data.filter((it) => 'data' in it).map((it) => it.index);
    expect(valuedAt).toEqual(subjects.map((_, i) => i).filter((i) => i % 250 === 0));
    for (const it of result.data) {
      if ('data' in it) expect(it.data.subject.bedrooms).toBe(subjects[it.index].bedrooms);
      else expect(it.error.errors[0].path).toBe('type');
    }
    expect(result.valued).toBe(valuedAt.length);
    expect(await storedUsage(t, id)).toBe(valuedAt.length);
  });

  it('throws PlanForbiddenError on Pro', async () => {
    const mboa = new Mboa({ apiKey: t.keys.pro, baseUrl: t.baseUrl, maxRetries: 0 });
    await expect(mboa.valuations.batch([{ ...cell }])).rejects.toBeInstanceOf(PlanForbiddenError);
  });
});
