/**
 * A point or a box outside the area Mboa covers finds nothing: most often latitude and
 * longitude swapped. It is a 400 that says so (and suggests the swap when the swapped
 * value would be inside), never an empty answer that is charged.
 */
import { describe, expect, it } from 'vitest';
import { COVERED_AREA } from '../../contract/geo.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('enterprise');

describe('points and boxes outside the covered area', () => {
  it.each([
    ['/api/v1/listings?near=9.7043,4.0483', 'near', 'did you mean near=4.0483,9.7043?'],
    ['/api/v1/market/history?city=Douala&purpose=rent&near=9.7043,4.0483', 'near', 'did you mean near=4.0483,9.7043?'],
    ['/api/v1/listings?bbox=4.03,9.68,4.07,9.73', 'bbox', 'did you mean bbox=9.68,4.03,9.73,4.07'],
    ['/api/v1/exports/listings?near=9.7043,4.0483', 'near', 'did you mean near=4.0483,9.7043?'],
  ])('%s is a 400 suggesting the swap, uncharged', async (path, parameter, suggestion) => {
    const before = await storedUsage(t, t.caller.id);
    const res = await get(t.baseUrl, path, t.key);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].path).toBe(parameter);
    expect(res.body.errors[0].message).toContain('is outside Cameroon');
    expect(res.body.errors[0].message).toContain(suggestion);
    expect(await storedUsage(t, t.caller.id)).toBe(before);
  });

  it('does not suggest a swap that would be outside too (Paris, either way round)', async () => {
    for (const path of ['/api/v1/listings?near=48.85,2.35', '/api/v1/listings?bbox=2.2,48.8,2.4,48.9']) {
      const res = await get(t.baseUrl, path, t.key);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toContain('is outside Cameroon');
      expect(res.body.errors[0].message).not.toContain('did you mean');
    }
  });

  it("answers for the country's extreme corners and a box that only overlaps it", async () => {
    // A box from the Gulf of Guinea over Douala: it meets Cameroon, so it is a search.
    for (const path of [
      `/api/v1/listings?near=${COVERED_AREA.minLat},${COVERED_AREA.minLng}&limit=1`,
      `/api/v1/listings?near=${COVERED_AREA.maxLat},${COVERED_AREA.maxLng}&limit=1`,
      '/api/v1/listings?bbox=7.0,2.0,9.75,4.1&limit=1',
    ]) {
      const res = await get(t.baseUrl, path, t.key);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
  });
});
