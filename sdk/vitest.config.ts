import { defineConfig } from 'vitest/config';

// The SDK's unit tests need no database: this config runs them without the root
// config's global setup (`npx vitest run --config sdk/vitest.config.ts`).
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
  },
});
