/**
 * The API guide's own examples (docs/api.md, linked from the README), pasted as they are into a shell, against a real server with a
 * key per plan (written where demo mode writes them): every command must succeed. Only the
 * server's address and the data folder are swapped for the test's.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'mboa-readme-'));
  writeFileSync(join(dir, 'demo-keys.json'), JSON.stringify(t.keys));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The sh blocks that follow a heading or a paragraph containing `marker`. */
function shBlocks(after: string): string[] {
  const section = README.slice(README.indexOf(after));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Runs a block as pasted; each curl exits non-zero on an HTTP error, and reports its status on stderr. */
async function runVerbatim(script: string): Promise<string[]> {
  const prelude = 'set -euo pipefail\ncurl() { command curl --fail-with-body -sS --write-out "%{stderr}%{http_code}\\n" "$@"; }\n';
  const body = script.replaceAll('./.mboa-data/', `${dir}/`).replaceAll('http://localhost:3000', t.baseUrl);
  const { stderr } = await promisify(execFile)('bash', ['-c', prelude + body], {
    cwd: dir,
    env: { ...process.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stderr.trim().split('\n');
}

it('"Calling the API": every example answers 2xx', async () => {
  const [calls] = shBlocks('## Calling the API');
  expect(calls).toContain('$BASE/market/stats?city=Yaound%C3%A9&purpose=rent');
  const statuses = await runVerbatim(calls);
  const commands = calls.split('\n').filter((l) => /^curl |\$\(curl /.test(l)).length;
  expect(commands).toBeGreaterThanOrEqual(11);
  expect(statuses.length).toBe(commands);
  expect(
    statuses.every((s) => s === '200'),
    statuses.join(' '),
  ).toBe(true);
});

it('the incremental-sync feed and the resumed export answer 2xx', async () => {
  const setup = shBlocks('## Calling the API')[0]
    .split('\n')
    .filter((l) => /^[A-Z]+=/.test(l))
    .join('\n');
  const statuses = await runVerbatim([setup, shBlocks('The incremental-sync feed')[0], shBlocks('**Bulk export**')[0]].join('\n'));
  expect(statuses.length).toBeGreaterThanOrEqual(3);
  expect(
    statuses.every((s) => s === '200'),
    statuses.join(' '),
  ).toBe(true);
});
