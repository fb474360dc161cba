/** MBOA_WEBHOOKS_ALLOW_LOOPBACK, parsed like every setting (platform/config.ts), never read elsewhere. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/platform/config.js';
import { PRODUCTION_ENV } from './production-env.js';

const production = PRODUCTION_ENV;

describe('loopback webhook receivers', () => {
  it('are refused in production unless MBOA_WEBHOOKS_ALLOW_LOOPBACK=1, and allowed in demo mode', () => {
    expect(loadConfig(production).webhooksAllowLoopback).toBe(false);
    expect(loadConfig({ ...production, MBOA_WEBHOOKS_ALLOW_LOOPBACK: '0' }).webhooksAllowLoopback).toBe(false);
    expect(loadConfig({ ...production, MBOA_WEBHOOKS_ALLOW_LOOPBACK: '1' }).webhooksAllowLoopback).toBe(true);
    expect(loadConfig({}).webhooksAllowLoopback).toBe(true);
  });

  it('refuses another value, naming the setting', () => {
    expect(() => loadConfig({ ...production, MBOA_WEBHOOKS_ALLOW_LOOPBACK: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, MBOA_WEBHOOKS_ALLOW_LOOPBACK: 'yes' })).toThrow(
      /MBOA_WEBHOOKS_ALLOW_LOOPBACK: must be 0 or 1/,
    );
  });
});
