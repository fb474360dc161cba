/**
 * The server no longer runs a zod pass over each answer (it costs every call), so the
 * guarantee moves here: on every route of the contract, with contact details planted in
 * the rows it reads, each answer is exactly the contract's 200 schema (no field more, at
 * any depth) and holds none of the planted values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodTypeAny } from 'zod';
import { contract } from '../../contract/router.js';
import { ROUTE_CASES } from '../helpers/routes.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';

/** The schema with every object strict, however deep: an unknown key anywhere fails. */
function deepStrict(schema: ZodTypeAny): ZodTypeAny {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, ZodTypeAny>).map(([k, v]) => [k, deepStrict(v)]));
    return z.object(shape).strict();
  }
  if (schema instanceof z.ZodArray) return z.array(deepStrict(schema.element));
  if (schema instanceof z.ZodNullable) return deepStrict(schema.unwrap()).nullable();
  if (schema instanceof z.ZodOptional) return deepStrict(schema.unwrap()).optional();
  if (schema instanceof z.ZodDefault) return deepStrict(schema.removeDefault());
  if (schema instanceof z.ZodUnion)
    return z.union((schema.options as ZodTypeAny[]).map(deepStrict) as [ZodTypeAny, ZodTypeAny, ...ZodTypeAny[]]);
  if (schema instanceof z.ZodEffects) return deepStrict(schema.innerType());
  return schema;
}

const routes: Record<string, { responses: Record<number, unknown> }> = {
  'exports.listings': contract.exports.listings,
  'listings.search': contract.listings.search,
  'listings.get': contract.listings.get,
  'market.stats': contract.market.stats,
  'market.trends': contract.market.trends,
  'market.history': contract.market.history,
  'valuations.get': contract.valuations.get,
  ping: contract.ping,
};

const planted = {
  name: 'Planted Contact Ngono',
  phone: '+237 699 00 11 22',
  email: 'planted.contact@leak.example',
  street: '12 rue Planted, Bonapriso',
};

let t: TestServer;
let listingId: string;
beforeAll(async () => {
  t = await startTestServer();
  // Every Douala listing carries contact details, and the first routes' rows among them.
  const { rows } = await t.db.pool.query<{ id: string }>(
    `UPDATE listings SET contact_name = $1, contact_phone = $2, contact_email = $3, street_address = $4
     WHERE city = 'Douala' RETURNING id`,
    [planted.name, planted.phone, planted.email, planted.street],
  );
  expect(rows.length).toBeGreaterThan(0);
  listingId = rows[0].id;
});
afterAll(async () => {
  await t.db.pool.query(
    `UPDATE listings SET contact_name = NULL, contact_phone = NULL, contact_email = NULL, street_address = NULL WHERE contact_email = $1`,
    [planted.email],
  );
  await t.close();
});

describe.each(ROUTE_CASES)('$name', (route) => {
  it('answers exactly the contract 200 schema, with no planted contact detail', async () => {
    const res = await get(t.baseUrl, route.path(listingId), t.keys.enterprise);
    expect(res.status).toBe(200);
    const declared = routes[route.name].responses[200] as ZodTypeAny | { body: ZodTypeAny };
    // NDJSON: every line is the declared body; JSON: the whole answer is.
    const schema = deepStrict('body' in declared ? declared.body : declared);
    const bodies: unknown[] = route.ndjson
      ? (res.text as string)
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [res.body];
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      const parsed = schema.safeParse(body);
      expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
    }
    if (Array.isArray(res.body?.data)) expect(res.body.data.length).toBeGreaterThan(0);
    for (const value of [...Object.values(planted), 'contact_', 'street_address', 'source_ref', 'mboa-seed']) {
      expect(res.text).not.toContain(value);
    }
  });
});

it('the strict schema does catch an extra field (the check above can fail)', async () => {
  const schema = deepStrict(routes['listings.get'].responses[200] as ZodTypeAny);
  const res = await get(t.baseUrl, `/api/v1/listings/${listingId}`, t.keys.enterprise);
  expect(schema.safeParse(res.body).success).toBe(true);
  const leaked = {
    ...res.body,
    data: { ...res.body.data, price_history: [{ ...res.body.data.price_history[0], contact_email: planted.email }] },
  };
  expect(schema.safeParse(leaked).success).toBe(false);
});
