// `npm run build`: compiles the server (and what it imports) to dist/ with tsc, bundles
// the market explorer's browser script (scripts/build-explorer.mjs), then copies beside the
// compiled code the files it reads at run time: the dashboard's and the reference page's
// assets, the explorer's bundle, and the Prisma schema with its migrations (for
// `npm run admin:prod -- migrate`), and the gazetteer (contract/gazetteer).
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => `${root}${path}`;

rmSync(at('dist'), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [at('node_modules/typescript/bin/tsc'), '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
const explorer = spawnSync(process.execPath, [at('scripts/build-explorer.mjs')], { stdio: 'inherit' });
if (explorer.status !== 0) process.exit(explorer.status ?? 1);

// `docs/`: the guides /docs/guides serves (server/docs/guides.ts).
for (const assets of ['server/dashboard/assets', 'server/docs/assets', 'server/dashboard/explorer/dist', 'docs']) {
  cpSync(at(assets), at(`dist/${assets}`), { recursive: true });
}
cpSync(at('prisma/schema.prisma'), at('dist/prisma/schema.prisma'));
cpSync(at('contract/gazetteer'), at('dist/contract/gazetteer'), { recursive: true });
cpSync(at('prisma/migrations'), at('dist/prisma/migrations'), { recursive: true });
console.log('built dist/: npm run start:prod (server), npm run admin:prod -- <command> (CLI)');
