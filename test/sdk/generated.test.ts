/**
 * The SDK's types and places are generated from the contract (`npm run generate:sdk`):
 * the committed files must be what a fresh generation writes, the places must be the
 * catalogue's, and every description of the contract must reach the published `.d.ts`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { CITY_NAMES, NEIGHBORHOODS_BY_CITY } from '../../contract/places.js';
import { contract } from '../../contract/router.js';
import { GENERATED_HEADER, routesOf } from '../../scripts/sdk-generator/emit-types.js';
import { GENERATED_DIR, generateSdkFiles, ROOT } from '../../scripts/sdk-generator/files.js';
import { OBJECTS } from '../../scripts/sdk-generator/names.js';
import { docOf, objectOf, shapeOf } from '../../scripts/sdk-generator/zod-to-ts.js';

const files = await generateSdkFiles();

describe("the SDK's generated files", () => {
  it.each(files.map((f) => [f.path, f.content]))('%s is what the contract generates', (path, content) => {
    const committed = readFileSync(join(ROOT, path), 'utf8');
    expect(committed, `${path} is stale: run \`npm run generate:sdk\` and commit the result`).toBe(content);
  });

  it('are all generated, and say so on their first lines', () => {
    expect(readdirSync(join(ROOT, GENERATED_DIR)).sort()).toEqual(files.map((f) => basename(f.path)).sort());
    for (const f of files) expect(f.content.startsWith(GENERATED_HEADER), f.path).toBe(true);
  });
});

/** The string literals of a type, as the compiler sees it (a union of them, or one). */
function literals(type: ts.Type): string[] {
  const parts = type.isUnion() ? type.types : [type];
  return parts.map((t) => {
    if (!t.isStringLiteral()) throw new Error(`not a string literal: ${t.flags}`);
    return t.value;
  });
}

describe("the SDK's places", () => {
  // Read by the TypeScript compiler from the SDK's entry file, as an editor reads them.
  const file = join(ROOT, 'sdk/src/places.ts');
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
  const typeOf = (name: string) => {
    const symbol = exported.find((s) => s.name === name)!;
    return checker.getDeclaredTypeOfSymbol(symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  };

  it("KnownCity lists exactly the catalogue's cities", () => {
    expect(CITY_NAMES.length).toBeGreaterThan(0);
    expect(literals(typeOf('KnownCity')).sort()).toEqual([...CITY_NAMES].sort());
  });

  it("NeighborhoodsByCity lists exactly each city's neighbourhoods in the catalogue", () => {
    const byCity = typeOf('NeighborhoodsByCity');
    const sdk = Object.fromEntries(checker.getPropertiesOfType(byCity).map((p) => [p.name, literals(checker.getTypeOfSymbol(p)).sort()]));
    const catalogue = Object.fromEntries(Object.entries(NEIGHBORHOODS_BY_CITY).map(([city, names]) => [city, [...new Set(names)].sort()]));
    expect(sdk).toEqual(catalogue);
    expect(literals(typeOf('KnownNeighborhood')).sort()).toEqual([...new Set(Object.values(NEIGHBORHOODS_BY_CITY).flat())].sort());
  });
});

/** Every description the contract gives a field of the SDK's types: named values, queries, path parameters. */
function contractDescriptions(): string[] {
  const objects: ZodTypeAny[] = OBJECTS.map((o) => o.schema);
  for (const { route } of routesOf(contract)) {
    for (const part of ['query', 'pathParams'] as const) {
      const schema = part in route ? (route as unknown as Record<string, ZodTypeAny>)[part] : undefined;
      const object = schema && objectOf(schema);
      if (object) objects.push(object);
    }
  }
  return objects.flatMap((o) => Object.values(shapeOf(o)).flatMap((field) => docOf(field).description ?? []));
}

it("the published .d.ts carries the contract's description of every field", () => {
  // Built from the sources by the suite's global setup (test/sdk/build-sdk.ts).
  const dts = readFileSync(join(ROOT, 'sdk/dist/index.d.ts'), 'utf8');
  const prose = dts.replace(/\n\s*\* ?/g, ' ').replace(/\s+/g, ' ');
  const descriptions = contractDescriptions();
  expect(descriptions.length).toBeGreaterThan(50);
  const missing = descriptions.filter((d) => !prose.includes(d.replace(/\s+/g, ' ')));
  expect(missing).toEqual([]);
});
