/** What the webhook tests share: calls with a JSON body, and listings changed as an import changes them. */
import type pg from 'pg';
import { randomId } from '../../server/platform/ids.js';

export async function send(baseUrl: string, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** An active listing of the seeded data with a quarter and contacts, to change. */
export async function aListing(pool: pg.Pool, city = 'Douala') {
  const { rows } = await pool.query<{ id: string; price: string; city: string; neighborhood: string; contact_phone: string | null }>(
    `SELECT id, price::text, city, neighborhood, contact_phone FROM listings
      WHERE status = 'active' AND city = $1 AND neighborhood IS NOT NULL ORDER BY id LIMIT 1 OFFSET floor(random() * 50)::int`,
    [city],
  );
  return rows[0];
}

/** A copy of a listing under a new id and source reference, with private fields set: a new listing from a feed. */
export async function copyListing(pool: pg.Pool, id: string): Promise<string> {
  const fresh = `lst_${randomId('x', 20).slice(2)}`;
  await pool.query(
    `INSERT INTO listings SELECT (jsonb_populate_record(NULL::listings, to_jsonb(l) || jsonb_build_object(
        'id', $2::text, 'source_ref', $2::text, 'contact_phone', '+237 699 00 11 22', 'contact_email', 'owner.secret@example.cm',
        'contact_name', 'Owner Secretname', 'street_address', '12 rue Privée', 'fingerprint', NULL, 'status', 'active', 'removed_at', NULL))).*
       FROM listings l WHERE l.id = $1`,
    [id, fresh],
  );
  return fresh;
}
