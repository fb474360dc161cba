import { defineConfig } from 'vitest/config';
import { testWorkers } from './test/workers.js';

const workers = testWorkers();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts', 'test/sdk/build-sdk.ts'],
    setupFiles: ['test/setup-env.ts'],
    // Files run side by side, each worker on its own copy of the seeded database and its own
    // Redis database (test/global-setup.ts); tests inside a file may be concurrent where
    // they say so.
    maxWorkers: workers,
    fileParallelism: workers > 1,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
