import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Quota } from '../src/index.js';
import { API, client, listing, page, ping, problem, quota, server, useMockServer } from './helpers.js';

useMockServer();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Answers each ping with the next quota of `quotas`. */
function pings(quotas: Quota[]) {
  let i = 0;
  server.use(http.get(`${API}/ping`, () => ping(quotas[Math.min(i++, quotas.length - 1)])));
}

const NOV = '2026-12-01T00:00:00.000Z';
const DEC = '2027-01-01T00:00:00.000Z';

describe('quota reporting', () => {
  it('mboa.quota holds the quota of the latest answer', async () => {
    const mboa = client();
    expect(mboa.quota).toBeUndefined();
    pings([quota({ used: 10 }), quota({ used: 11 })]);
    await mboa.ping();
    expect(mboa.quota?.used).toBe(10);
    await mboa.ping();
    expect(mboa.quota).toEqual(quota({ used: 11 }));
  });

  it('every result and every error carries meta.quota', async () => {
    const q = quota({ used: 99 });
    server.use(
      http.get(`${API}/listings`, () => page([listing(1)], null, { quota: q })),
      http.get(`${API}/market/trends`, () => problem(403, 'plan_forbidden', { quota: q })),
    );
    const mboa = client();
    expect((await mboa.listings.search()).meta.quota).toEqual(q);
    const error = await mboa.market.trends().catch((e: unknown) => e);
    expect(error).toMatchObject({ meta: { quota: q }, quota: q });
  });

  it('calls onQuota on each answer, errors included', async () => {
    const onQuota = vi.fn();
    const mboa = client({ onQuota, maxRetries: 0 });
    pings([quota({ used: 1 })]);
    await mboa.ping();
    server.use(http.get(`${API}/ping`, () => problem(429, 'rate_limited', { quota: quota({ used: 2 }) })));
    await mboa.ping().catch(() => undefined);
    // An error before the caller is known (bad key) has no quota to report.
    server.use(http.get(`${API}/ping`, () => problem(401, 'invalid_api_key')));
    await mboa.ping().catch(() => undefined);

    expect(onQuota.mock.calls.map(([q]) => (q as Quota).used)).toEqual([1, 2]);
    expect(mboa.quota?.used).toBe(2);
  });

  it('keeps the newest quota when answers arrive out of order', async () => {
    const mboa = client();
    pings([quota({ used: 20 }), quota({ used: 19 }), quota({ used: 3, resets_at: DEC })]);
    await mboa.ping();
    await mboa.ping();
    expect(mboa.quota?.used).toBe(20);
    await mboa.ping();
    expect(mboa.quota).toMatchObject({ used: 3, resets_at: DEC });
  });
});

describe('quota warning', () => {
  it('warns once per quota month when used/limit reaches quotaWarningAt', async () => {
    const onQuotaWarning = vi.fn();
    const mboa = client({ quotaWarningAt: 0.9, onQuotaWarning });
    pings([
      quota({ used: 8_999, resets_at: NOV }),
      quota({ used: 9_000, resets_at: NOV }),
      quota({ used: 9_500, resets_at: NOV }),
      quota({ used: 9_999, resets_at: NOV }),
      quota({ used: 9_100, resets_at: DEC }),
      quota({ used: 9_200, resets_at: DEC }),
    ]);
    for (let i = 0; i < 4; i++) await mboa.ping();
    expect(onQuotaWarning).toHaveBeenCalledTimes(1);
    expect(onQuotaWarning).toHaveBeenCalledWith(quota({ used: 9_000, resets_at: NOV }), 0.9);

    for (let i = 0; i < 2; i++) await mboa.ping();
    expect(onQuotaWarning).toHaveBeenCalledTimes(2);
    expect(onQuotaWarning.mock.calls[1]![0]).toMatchObject({ resets_at: DEC });
  });

  it('never warns on an unlimited plan', async () => {
    const onQuotaWarning = vi.fn();
    const mboa = client({ quotaWarningAt: 0.01, onQuotaWarning });
    pings([quota({ plan: 'enterprise', limit: null, remaining: null, used: 5_000_000 })]);
    await mboa.ping();
    expect(onQuotaWarning).not.toHaveBeenCalled();
  });

  it('is off unless asked for', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    pings([quota({ used: 10_000, remaining: 0 })]);
    await client().ping();
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns on the console by default, with the numbers', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    pings([quota({ used: 9_500, remaining: 500 })]);
    const mboa = client({ quotaWarningAt: 0.9 });
    await mboa.ping();
    await mboa.ping();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/95% .*starter.*9500 of 10000.*2026-12-01/);
  });

  it('counts a quota_exceeded error as crossing the threshold', async () => {
    const onQuotaWarning = vi.fn();
    server.use(http.get(`${API}/ping`, () => problem(429, 'quota_exceeded', { quota: quota({ used: 10_000, remaining: 0 }) })));
    await client({ quotaWarningAt: 0.8, onQuotaWarning })
      .ping()
      .catch(() => undefined);
    expect(onQuotaWarning).toHaveBeenCalledTimes(1);
  });
});
