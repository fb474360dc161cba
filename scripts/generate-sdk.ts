// Writes the SDK's types and places from the contract (sdk/src/generated/): run after any
// change to contract/ (a field, a description, an endpoint, a place).
//
//   npm run generate:sdk             write the files
//   npm run generate:sdk -- --check  only say whether the committed files are up to date (exit 1 if not)
//
// `npm test` runs the same check (test/sdk/generated.test.ts).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GENERATED_DIR, generateSdkFiles, ROOT } from './sdk-generator/files.js';

const check = process.argv.includes('--check');
const files = await generateSdkFiles();
const wanted = new Set(files.map((f) => f.path));
const dir = join(ROOT, GENERATED_DIR);
const strays = existsSync(dir)
  ? readdirSync(dir)
      .map((name) => `${GENERATED_DIR}/${name}`)
      .filter((p) => !wanted.has(p))
  : [];
const stale = files.filter((f) => !existsSync(join(ROOT, f.path)) || readFileSync(join(ROOT, f.path), 'utf8') !== f.content);

if (check) {
  for (const f of stale) console.error(`${f.path} is not what the contract generates`);
  for (const p of strays) console.error(`${p} is not generated from the contract`);
  if (stale.length || strays.length) {
    console.error('Run `npm run generate:sdk` and commit the result.');
    process.exit(1);
  }
  console.log(`${files.length} generated SDK files are up to date.`);
} else {
  for (const f of stale) {
    mkdirSync(dirname(join(ROOT, f.path)), { recursive: true });
    writeFileSync(join(ROOT, f.path), f.content);
  }
  for (const p of strays) rmSync(join(ROOT, p));
  console.log(`${stale.length} of ${files.length} generated SDK files written${strays.length ? `, ${strays.length} removed` : ''}.`);
}
