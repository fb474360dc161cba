/**
 * The dashboard's forms and query parameters under bad input: every field of every form
 * with a NUL byte, the other control bytes, DEL and line breaks (where one line is
 * expected) is refused with a 400 page that says why, before anything reaches the
 * database; then a property-based fuzz (fast-check, fixed seed, printed; MBOA_FUZZ_SEED
 * replays another) of the forms and queries: never a 5xx, and a control byte always a 400.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, csrfOf, type DashboardServer, signUp, startDashboardServer, textOf } from '../dashboard/helpers.js';
import { pct } from '../helpers/fuzz-requests.js';
import {
  CONTROL_BYTES,
  DASHBOARD_FORMS,
  DASHBOARD_QUERIES,
  type DashboardForm,
  fuzzedForm,
  fuzzedQuery,
  LINE_BREAKS,
  refusable,
} from '../helpers/fuzz-forms.js';

const SEED = process.env.MBOA_FUZZ_SEED ? Number(process.env.MBOA_FUZZ_SEED) : 20_261_125;
const SAYS = 'held a control character';

let t: DashboardServer;
let customer: Client;
beforeAll(async () => {
  t = await startDashboardServer();
  customer = t.client();
  await signUp(t, customer, { plan: 'pro' });
}, 60_000);
afterAll(() => t?.close());

/** Posts `form` with `fields` as a browser would: the page's token first (a fresh visitor for visitors' forms). */
async function submit(form: DashboardForm, fields: Record<string, string>) {
  const client = form.session ? customer : t.client();
  const page = await client.get(form.page);
  return client.post(form.action, { _csrf: csrfOf(page.text), ...fields });
}

describe('control characters in the dashboard', () => {
  it('refuses one in any field of any form with a 400 that says so, and keeps a text area’s line breaks', async () => {
    const seen: string[] = [];
    for (const form of DASHBOARD_FORMS) {
      for (const field of [...Object.keys(form.fields), 'extra']) {
        const multiline = form.multiline?.includes(field) ?? false;
        for (const bad of [...CONTROL_BYTES, ...(multiline ? [] : LINE_BREAKS)]) {
          const res = await submit(form, { ...form.fields, [field]: `a${bad}b` });
          const what = `${form.action} ${field}=${JSON.stringify(bad)}`;
          expect(res.status, what).toBe(400);
          expect(textOf(res.text), what).toContain(SAYS);
          seen.push(what);
        }
      }
    }
    expect(seen.length).toBeGreaterThan(300);
    const sales = DASHBOARD_FORMS.find((f) => f.action === '/dashboard/contact-sales')!;
    const kept = await submit(sales, { ...sales.fields, message: 'Two lines\r\nand a\ttab' });
    expect(kept.status).toBe(201);
  });

  it('refuses one in a query parameter or a path segment with the same 400', async () => {
    for (const target of DASHBOARD_QUERIES) {
      for (const bad of ['%00', '%01', '%1B', '%7F', '%0A']) {
        const res = await customer.get(target.path(`x${bad}y`));
        expect(res.status, target.path(bad)).toBe(400);
        expect(textOf(res.text)).toContain(SAYS);
      }
    }
    const revoke = await customer.post('/dashboard/keys/key%00x/revoke', { _csrf: csrfOf((await customer.get('/dashboard/keys')).text) });
    expect(revoke.status).toBe(400);
  });

  it('fuzz: never a 5xx, and a control byte where the field refuses it is a 400', async () => {
    console.info(`dashboard fuzz seed ${SEED} (MBOA_FUZZ_SEED replays another)`);
    const statuses = new Map<number, number>();
    const tally = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    await fc.assert(
      fc.asyncProperty(fuzzedForm, async ({ form, replace }) => {
        const fields = { ...form.fields, ...replace };
        const res = await submit(form, fields);
        tally(res.status);
        const what = `${form.action} ${JSON.stringify(fields)}: ${res.status}`;
        expect(res.status, what).toBeLessThan(500);
        const refused = Object.entries(fields).some(([name, v]) => refusable(v, form.multiline?.includes(name) ?? false));
        if (refused) expect(res.status, what).toBe(400);
        else expect(res.text, what).not.toContain(SAYS);
      }),
      { seed: SEED, numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fuzzedQuery, async ({ target, value }) => {
        const path = target.path(pct(value));
        const res = await customer.get(path);
        tally(res.status);
        expect(res.status, `${path}: ${res.status}`).toBeLessThan(500);
        if (refusable(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'), false)) expect(res.status, path).toBe(400);
      }),
      { seed: SEED, numRuns: 200 },
    );
    console.info(`dashboard fuzz answers: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  }, 300_000);
});
