import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  tsconfig: 'tsconfig.build.json',
  // ESM (dist/index.js) and CommonJS (dist/index.cjs), each with its own .d.ts / .d.cts.
  format: ['esm', 'cjs'],
  // ES2022: every Node.js the package supports (20 and later) and every current browser.
  target: 'es2022',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  // One module for the whole client: small, and nothing to tree-shake across files.
  splitting: false,
  treeshake: true,
});
