import type { Config } from './config.js';

/**
 * The key that signs pagination cursors. Server instances behind one load balancer must
 * share it (MBOA_CURSOR_SECRET); without it, a fixed development value is used, which is
 * fine because a cursor only ever positions its holder's own search.
 */
export function cursorSecret(config: Config): string {
  return config.cursorSecret ?? 'mboa-development-cursor-secret';
}
