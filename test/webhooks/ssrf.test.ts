/**
 * Where deliveries may go: https on public addresses only, checked when the connection is
 * made (every delivery), so a name resolving inside is refused even after it was saved.
 * And the retry schedule: exponential, capped, jittered.
 */
import { describe, expect, it } from 'vitest';
import { addressRefusal, resolvedRefusal, urlRefusal } from '../../server/platform/public-address.js';
import { attempt } from '../../server/webhooks/delivery.js';
import { retryDelayMs } from '../../server/webhooks/worker.js';
import { startReceiver } from './receiver.js';

describe('public addresses', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.5',
    '172.16.3.4',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
  ])('%s is refused', (address) => {
    expect(addressRefusal(address, false)).not.toBeNull();
  });

  it.each(['8.8.8.8', '41.202.219.1', '2001:4860:4860::8888'])('%s is public', (address) => {
    expect(addressRefusal(address, false)).toBeNull();
  });

  it('admits loopback only when the operator allows it, and never the other inside ranges', () => {
    expect(addressRefusal('127.0.0.1', true)).toBeNull();
    expect(addressRefusal('::1', true)).toBeNull();
    expect(addressRefusal('10.0.0.5', true)).not.toBeNull();
    expect(addressRefusal('169.254.169.254', true)).not.toBeNull();
  });

  it('wants https (http only for loopback when allowed), without credentials', async () => {
    expect(urlRefusal('http://example.cm/', false)).toMatch(/https/);
    expect(urlRefusal('https://a:b@example.cm/', false)).toMatch(/password/);
    expect(urlRefusal('https://example.cm/', false)).toBeNull();
    expect(await resolvedRefusal('https://localhost/hook', false)).toMatch(/not a public address/);
    expect(await resolvedRefusal('https://127.0.0.1/hook', false)).toMatch(/not a public address/);
  });

  it('refuses at delivery a receiver on a loopback address when loopback is not allowed: nothing is sent', async () => {
    const receiver = await startReceiver();
    try {
      const inside = receiver.url.replace('http://', 'https://');
      const refused = await attempt(inside, {}, '{}', { timeoutMs: 1_000, allowLoopback: false });
      expect(refused.status).toBeNull();
      expect(refused.error).toMatch(/not a public address/);
      const viaName = await attempt(receiver.url.replace('127.0.0.1', 'localhost'), {}, '{}', { timeoutMs: 1_000, allowLoopback: false });
      expect(viaName.error).toMatch(/https/);
      expect(receiver.received).toHaveLength(0);
      // Allowed: delivered, and a redirect is an answer, never followed.
      receiver.answer([302]);
      const redirected = await attempt(receiver.url, {}, '{}', { timeoutMs: 1_000, allowLoopback: true });
      expect(redirected.status).toBe(302);
      expect(redirected.error).toBe('answered 302');
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('retry schedule', () => {
  it('doubles from the first delay up to the cap, within ±20 % jitter', () => {
    expect(retryDelayMs(1, 5_000, 3_600_000, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(2, 5_000, 3_600_000, () => 0.5)).toBe(10_000);
    expect(retryDelayMs(5, 5_000, 3_600_000, () => 0.5)).toBe(80_000);
    expect(retryDelayMs(30, 5_000, 3_600_000, () => 0.5)).toBe(3_600_000);
    expect(retryDelayMs(3, 5_000, 3_600_000, () => 0)).toBe(16_000);
    expect(retryDelayMs(3, 5_000, 3_600_000, () => 0.999999)).toBe(24_000);
  });
});
