// Builds the @mboa/sdk workspace (sdk/dist), which node_modules/@mboa/sdk links to: the
// examples and the tests import the SDK by its package name, as customers do, and the
// package's `exports` point at dist/.
//
//   node scripts/build-sdk.mjs             build (run by `npm install` after prisma generate)
//   node scripts/build-sdk.mjs --if-stale  build only when a source is newer than the build
//
// Skipped, with a note, when the build tool is absent (`npm ci --omit=dev`): the server
// never imports the SDK.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SDK = join(ROOT, 'sdk');
const OUTPUTS = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'].map((f) => join(SDK, 'dist', f));
const INPUTS = ['package.json', 'tsup.config.ts', 'tsconfig.build.json'].map((f) => join(SDK, f));

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

function stale() {
  if (!OUTPUTS.every((f) => existsSync(f))) return true;
  const built = Math.min(...OUTPUTS.map((f) => statSync(f).mtimeMs));
  return [...INPUTS, ...files(join(SDK, 'src'))].some((f) => statSync(f).mtimeMs > built);
}

if (!existsSync(join(ROOT, 'node_modules', '.bin', 'tsup'))) {
  console.log('Not building @mboa/sdk: tsup is not installed (a production install). The server does not need it.');
  process.exit(0);
}
if (process.argv.includes('--if-stale') && !stale()) process.exit(0);

const result = spawnSync('npm', ['run', 'build', '--workspace', '@mboa/sdk', '--silent'], { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
