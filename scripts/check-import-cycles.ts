/**
 * Fails on any import circle in server/, contract/ and sdk/src (`npm run lint`): a module
 * that, through its imports, ends up importing itself. Type-only imports count too: a
 * circle of names means they live in the wrong files, whether or not it survives compiling.
 *
 *   node --import tsx scripts/check-import-cycles.ts [folder ...]
 *
 * Reads each file's imports with TypeScript's own scanner (static, dynamic and re-exports);
 * only relative ones can close a circle inside these folders.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['server', 'contract', 'sdk/src'];
const SOURCE = /\.(ts|tsx|mts|cts)$/;

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names, as TypeScript resolves it (`./x.js` is `./x.ts`); null when outside the set. */
function resolveImport(from: string, specifier: string, files: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, join(base, 'index.ts')];
  return candidates.find((c) => files.has(c)) ?? null;
}

/** Each file's imports among `files`. */
export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((i) => resolveImport(file, i.fileName, known)).filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The circles of a graph: one per strongly connected component of more than one module
 * (or a module importing itself), each given as a path that comes back to its start.
 */
export function findCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative: no recursion depth to run out of.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) components.push(component);
      }
    }
  }
  return components.map((component) => circleThrough(graph, new Set(component)));
}

/** One circle inside a component: the shortest way from its first module back to itself. */
function circleThrough(graph: Map<string, string[]>, component: Set<string>): string[] {
  const start = [...component].sort()[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** The import circles among the source files of `folders` (relative to the repository), and how many files were read. */
export function cyclesIn(folders: string[] = FOLDERS): { files: number; cycles: string[][] } {
  const files = folders.flatMap((f) => sourceFiles(resolve(ROOT, f)));
  return { files: files.length, cycles: findCycles(importGraph(files)).map((c) => c.map((f) => relative(ROOT, f))) };
}

function main(): void {
  const folders = process.argv.length > 2 ? process.argv.slice(2) : FOLDERS;
  const { files, cycles } = cyclesIn(folders);
  for (const cycle of cycles) console.error(`import circle: ${cycle.join(' → ')}`);
  if (cycles.length) {
    console.error(`${cycles.length} import circle(s): move the names the modules share into a module they both import.`);
    process.exit(1);
  }
  console.log(`no import circle in ${files} modules (${folders.join(', ')})`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
