import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts', 'test/sdk/build-sdk.ts'],
    setupFiles: ['test/setup-env.ts'],
    // Files share one seeded database and run one after another; tests inside a file
    // may still be concurrent where they say so.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
