import { defineConfig } from 'vitest/config';

// `npm run test:unit`: the fast layer, no database, no server (cursor codec, filter
// builder, month and billing arithmetic, quota view, validation). `npm test` runs these too.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
  },
});
