/**
 * The import-circle check of `npm run lint` (scripts/check-import-cycles.ts): it finds a
 * circle however it is closed (type-only imports, re-exports, dynamic imports, a module
 * importing itself), passes a tree without one, and server/, contract/ and sdk/src have none.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cyclesIn, findCycles, importGraph } from '../../scripts/check-import-cycles.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Writes the files of a small tree and returns the circles found in it, as file names. */
function cyclesOf(files: Record<string, string>): string[][] {
  const root = mkdtempSync(join(tmpdir(), 'mboa-cycles-'));
  dir = root;
  const paths = Object.entries(files).map(([name, text]) => {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  });
  return findCycles(importGraph(paths)).map((cycle) => cycle.map((p) => p.slice(root.length + 1)));
}

describe('import circles', () => {
  it('finds a circle of three closed by type-only imports, and names it in order', () => {
    const cycles = cyclesOf({
      'a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
      'b.ts': "import { c } from './c.js';\nexport type B = typeof c;\n",
      'c.ts': "import type { A } from './a.js';\nexport const c = 1 as unknown as A;\n",
      'd.ts': "import { c } from './c.js';\nexport const d = c;\n",
    });
    expect(cycles).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('follows re-exports, dynamic imports, folders with an index and the parent folder', () => {
    const cycles = cyclesOf({
      'x/index.ts': "export * from './y.js';\n",
      'x/y.ts': "export const load = () => import('../z.js');\n",
      'z.ts': "export { load } from './x';\n",
    });
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(4);
    expect(new Set(cycles[0])).toEqual(new Set(['x/index.ts', 'x/y.ts', 'z.ts']));
  });

  it('finds a module importing itself, and each of two separate circles', () => {
    const cycles = cyclesOf({
      'self.ts': "import './self.js';\n",
      'p.ts': "import './q.js';\n",
      'q.ts': "import './p.js';\n",
      'r.ts': "import './s.js';\n",
      's.ts': "import './r.js';\n",
    });
    expect(cycles.map((c) => c.join(' ')).sort()).toEqual(['p.ts q.ts p.ts', 'r.ts s.ts r.ts', 'self.ts self.ts']);
  });

  it('passes a tree whose imports only go down, and ignores packages and names in comments or strings', () => {
    const cycles = cyclesOf({
      'top.ts': "import { mid } from './mid.js';\nimport { z } from 'zod';\nexport const top = [mid, z];\n",
      'mid.ts': "import { low } from './low.js';\nexport const mid = low;\n",
      'low.ts': "// import { top } from './top.js';\nexport const low = \"import './top.js'\";\n",
    });
    expect(cycles).toEqual([]);
  });

  it('server/, contract/ and sdk/src have none', () => {
    const { files, cycles } = cyclesIn();
    expect(files).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  });
});
