/** DATABASE_READ_URL and the replica settings, parsed like every setting (platform/config.ts). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/platform/config.js';
import { PRODUCTION_ENV } from './production-env.js';

const production = PRODUCTION_ENV;

describe('read replica settings', () => {
  it('reads one address or several, with a 10 s lag bound and a 2 s check by default', () => {
    expect(loadConfig({ ...production, DATABASE_READ_URL: 'postgresql://u@haproxy:5433/mboa' }).readReplicas).toEqual({
      urls: ['postgresql://u@haproxy:5433/mboa'],
      maxLagSeconds: 10,
      checkIntervalMs: 2000,
    });
    const two = loadConfig({
      ...production,
      DATABASE_READ_URL: 'postgresql://u@r1/mboa,postgres://u@r2:5434/mboa',
      REPLICA_MAX_LAG_SECONDS: '2.5',
      REPLICA_CHECK_SECONDS: '0.5',
    });
    expect(two.readReplicas).toEqual({
      urls: ['postgresql://u@r1/mboa', 'postgres://u@r2:5434/mboa'],
      maxLagSeconds: 2.5,
      checkIntervalMs: 500,
    });
  });

  it('has none without the variable, nor in demo mode', () => {
    expect(loadConfig(production).readReplicas.urls).toEqual([]);
    expect(loadConfig({ DATABASE_READ_URL: 'postgresql://u@r1/mboa' }).readReplicas.urls).toEqual([]);
  });

  it('refuses what is not a list of PostgreSQL addresses, or a negative bound, naming the variable', () => {
    for (const [name, value] of [
      ['DATABASE_READ_URL', 'mysql://r1/mboa'],
      ['DATABASE_READ_URL', 'postgresql://u@r1/mboa, postgresql://u@r2/mboa'],
      ['REPLICA_MAX_LAG_SECONDS', '-1'],
      ['REPLICA_CHECK_SECONDS', '0'],
    ])
      expect(() => loadConfig({ ...production, [name]: value })).toThrow(new RegExp(`${name}`));
    expect(() => loadConfig({ ...production, DATABASE_READ_URL: 'x' })).toThrow(ConfigError);
  });
});
