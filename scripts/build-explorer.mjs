// Builds the market explorer's script and stylesheet (server/dashboard/explorer/dist/),
// which the dashboard serves itself: the page's TypeScript with d3-delaunay (the
// quarters' shapes) and uPlot (the history chart) bundled in, minified, nothing loaded
// from another server at run time.
//
//   node scripts/build-explorer.mjs             build (run by `npm install` and `npm run build`)
//   node scripts/build-explorer.mjs --if-stale  build only when a source is newer than the build
//
// Skipped, with a note, when esbuild is absent (`npm ci --omit=dev`): such an install runs
// the `dist/` that `npm run build` made, which holds the built files.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'server', 'dashboard', 'explorer');
const OUT = join(SOURCE, 'dist');
const OUTPUTS = ['explorer.js', 'explorer.css'].map((f) => join(OUT, f));
/** What the bundle is made of besides its own folder: the types it reads, and the libraries' versions. */
const INPUTS = [
  join(ROOT, 'package-lock.json'),
  join(ROOT, 'server', 'dashboard', 'explorer-config.ts'),
  join(ROOT, 'server', 'dashboard', 'messages', 'market-client.ts'),
];

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== 'dist')
    .flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)]));
}

function stale() {
  if (!OUTPUTS.every((f) => existsSync(f))) return true;
  const built = Math.min(...OUTPUTS.map((f) => statSync(f).mtimeMs));
  return [...INPUTS, ...sources(SOURCE)].some((f) => statSync(f).mtimeMs > built);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.log('Not building the market explorer: esbuild is not installed (a production install). dist/ from `npm run build` holds it.');
  process.exit(0);
}
if (process.argv.includes('--if-stale') && !stale()) process.exit(0);

await esbuild.build({
  entryPoints: [join(SOURCE, 'main.ts')],
  outfile: join(OUT, 'explorer.js'),
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  legalComments: 'eof',
  logLevel: 'warning',
});
const sizes = OUTPUTS.map((f) => `${f.slice(ROOT.length)} ${(statSync(f).size / 1024).toFixed(1)} kB`).join(', ');
console.log(`built the market explorer: ${sizes}`);
