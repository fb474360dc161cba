/**
 * The rules by which the SDK generator turns zod into TypeScript: what a caller may leave
 * out, what the API may leave out, which names it uses, what documentation it writes, and
 * what it refuses rather than type loosely.
 */
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZProblem } from '../../contract/errors.js';
import { ZListing } from '../../contract/schemas.js';
import { typesSource } from '../../scripts/sdk-generator/emit-types.js';
import { jsDoc } from '../../scripts/sdk-generator/jsdoc.js';
import { TypeWriter } from '../../scripts/sdk-generator/zod-to-ts.js';

const ZThing = z.object({ id: z.string() });
const writer = new TypeWriter({
  objects: new Map([[ZThing, 'Thing']]),
  enums: [
    { name: 'Colour', values: ['red', 'green'] },
    { name: 'Shade', values: ['red', 'green', 'blue'] },
  ],
  inputFields: { city: 'City' },
});
/** Members without their JSDoc, one per line. */
const fields = (schema: z.ZodTypeAny, side: 'input' | 'output') =>
  writer
    .members(schema, side, 'T')
    .split('\n')
    .filter((l) => l && !/^\s*(\/\*\*|\*)/.test(l))
    .map((l) => l.trim());

describe('fields', () => {
  const schema = z.object({
    sort: z.enum(['a', 'b']).default('a'),
    limit: z.number().optional(),
    gone: z.string().nullable(),
    maybe: z.string().nullable().optional(),
  });

  it('a query (input): a default or optional field may be left out, and says it may be undefined', () => {
    expect(fields(schema, 'input')).toEqual([
      'sort?: "a" | "b" | undefined;',
      'limit?: number | undefined;',
      'gone: string | null;',
      'maybe?: string | null | undefined;',
    ]);
  });

  it('a body (output): a default is always there; an optional field may be missing', () => {
    expect(fields(schema, 'output')).toEqual(['sort: "a" | "b";', 'limit?: number;', 'gone: string | null;', 'maybe?: string | null;']);
  });

  it('looks through refinements and preprocessing to the type they check', () => {
    const digits = z.preprocess((v) => Number(v), z.number().int());
    const refined = z.string().superRefine(() => undefined);
    expect(fields(z.object({ n: digits, s: refined }), 'input')).toEqual(['n: number;', 's: string;']);
  });

  it('types a named input field by its name only when the contract has a plain string', () => {
    expect(fields(z.object({ city: z.string().trim().optional() }), 'input')).toEqual(['city?: City | undefined;']);
    expect(fields(z.object({ city: z.enum(['x', 'y']) }), 'input')).toEqual(['city: "x" | "y";']);
    expect(fields(z.object({ city: z.string() }), 'output')).toEqual(['city: string;']);
  });

  it('quotes keys that are not identifiers', () => {
    expect(fields(z.object({ 'x-quota': z.number() }), 'output')).toEqual(['"x-quota": number;']);
  });
});

describe('names', () => {
  it('an enum with exactly the values of a named one is that name; a wider one adds its extras', () => {
    expect(writer.enumType(['green', 'red'])).toBe('Colour');
    expect(writer.enumType(['red', 'green', 'blue', 'any'])).toBe('Shade | "any"');
    expect(writer.enumType(['red', 'pink'])).toBe('"red" | "pink"');
  });

  it('a named object is its name in bodies, and written out in queries', () => {
    expect(writer.type(z.array(ZThing).nullable(), 'output', 'T')).toBe('Thing[] | null');
    expect(writer.type(ZThing, 'input', 'T')).toBe('{\n  id: string;\n}');
    expect(writer.type(z.array(z.union([z.string(), z.number()])), 'output', 'T')).toBe('(string | number)[]');
  });
});

describe('refusals', () => {
  it('names the field of a construct it cannot type', () => {
    expect(() => writer.type(z.object({ at: z.date() }), 'output', 'Thing')).toThrow('Thing.at: cannot type a ZodDate');
  });

  it("refuses to guess a transform's output", () => {
    expect(() => writer.type(z.string().transform(Number), 'output', 'T.n')).toThrow("T.n: a transform's output cannot be typed");
    expect(writer.type(z.string().transform(Number), 'input', 'T.n')).toBe('string');
  });
});

describe('documentation', () => {
  it("a field's JSDoc is its contract description, with its default (queries only) and example", () => {
    const schema = z.object({ limit: extendApi(z.number(), { description: 'Page size.', example: 50 }).default(20) });
    expect(writer.members(schema, 'input', 'T')).toBe(
      '  /**\n   * Page size.\n   * @default 20\n   * @example 50\n   */\n  limit?: number | undefined;\n',
    );
    expect(writer.members(schema, 'output', 'T')).toBe('  /**\n   * Page size.\n   * @example 50\n   */\n  limit: number;\n');
  });

  it('wraps long text at 100 columns, never inside a code span, and cannot be closed early', () => {
    const text = `${'word '.repeat(15)}\`GET /api/v1/market/stats\` ${'more '.repeat(20)}ends */ here`;
    const doc = jsDoc(text, {}, '  ');
    for (const line of doc.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(doc).toContain('`GET /api/v1/market/stats`');
    expect(doc).toContain('ends *\\/ here');
    expect(doc.match(/\*\//g)).toHaveLength(1);
    expect(jsDoc(undefined)).toBe('');
  });
});

describe('routes', () => {
  const c = initContract();
  const router = c.router(
    {
      valuations: c.router({
        estimate: {
          method: 'GET',
          path: '/valuations/:id',
          pathParams: z.object({ id: z.string() }),
          query: z.object({ city: z.string().optional() }).strict(),
          responses: { 200: z.array(ZListing) },
          summary: 'Estimate',
          description: 'What it is worth.',
        },
      }),
    },
    { pathPrefix: '/api/v1', commonResponses: { 400: ZProblem } },
  );

  it("a new route's types are named from its key, with its path, summary and description", () => {
    const source = typesSource(router);
    expect(source).toContain('export interface ValuationsEstimateParams {');
    expect(source).toContain('export interface ValuationsEstimatePathParams {');
    expect(source).toContain('export type ValuationsEstimateResponse = Listing[];');
    expect(source).toContain(
      'Query parameters of `GET /api/v1/valuations/{id}` (`valuations.estimate`): Estimate.\n *\n * What it is worth.',
    );
    expect(source).toMatch(/^import type \{ City \} from '\.\/places\.js';$/m);
  });

  it('refuses two types of one name', () => {
    const route = { method: 'GET', path: '/s', responses: { 200: z.object({ id: z.string() }) } } as const;
    const clash = c.router({ market: c.router({ stats: route }), marketStats: route });
    expect(() => typesSource(clash)).toThrow('MarketStatsResponse declared twice');
  });

  it('refuses an error body it has no name for', () => {
    const bad = c.router({ x: { method: 'GET', path: '/x', responses: { 200: ZListing, 404: z.object({ oops: z.string() }) } } });
    expect(() => typesSource(bad)).toThrow('x: the 404 body is not a named schema');
  });
});
