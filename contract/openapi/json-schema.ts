/**
 * Zod → OpenAPI 3.0 schemas, with the contract's shared schemas as named components.
 * A schema that is, field for field, one of the named ones becomes a `$ref` to it (the
 * same zod object always generates the same JSON), so the document names `Listing`,
 * `Quota` or `Problem` once and refers to them everywhere.
 */
import { generateSchema } from '@anatine/zod-openapi';
import type { ZodTypeAny } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * OpenAPI 3.0 `nullable: true` adds null to the type only: an enum must list `null` itself,
 * or a row with `"type": null` does not validate against its own document. And it needs a
 * type: a schema of any value (`z.unknown()`), null included, is `{}` without it.
 */
function withNullInEnums(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullInEnums);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'default' ? v : withNullInEnums(v);
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (out.nullable === true && out.type === undefined) delete out.nullable;
  return out;
}

/** The OpenAPI schema of a zod schema, as the API writes it (outputs) or reads it (inputs). */
export function toJsonSchema(schema: ZodTypeAny, side: 'output' | 'input' = 'output'): JsonSchema {
  return withNullInEnums(generateSchema(schema, side === 'output')) as JsonSchema;
}

export class SchemaRegistry {
  private readonly generated = new Map<string, JsonSchema>();
  private readonly byJson = new Map<string, string>();

  constructor(named: Record<string, ZodTypeAny>) {
    for (const [name, schema] of Object.entries(named)) {
      const json = toJsonSchema(schema);
      this.generated.set(name, json);
      this.byJson.set(JSON.stringify(json), name);
    }
  }

  /** `{ $ref }` when `json` is a named schema (other than `self`), else `json` with its parts referenced. */
  reference(json: JsonSchema, self?: string): JsonSchema {
    const name = this.byJson.get(JSON.stringify(json));
    if (name !== undefined && name !== self) return { $ref: `#/components/schemas/${name}` };
    return this.referenceParts(json, self);
  }

  private referenceParts(json: JsonSchema, self?: string): JsonSchema {
    const out: JsonSchema = { ...json };
    if (json.properties && typeof json.properties === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(json.properties as Record<string, JsonSchema>).map(([k, v]) => [k, this.reference(v, self)]),
      );
    }
    if (json.items && typeof json.items === 'object') out.items = this.reference(json.items as JsonSchema, self);
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      if (Array.isArray(json[key])) out[key] = (json[key] as JsonSchema[]).map((s) => this.reference(s, self));
    }
    return out;
  }

  /** `components.schemas`: every named schema, its own parts referenced. */
  components(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.generated].map(([name, json]) => [name, this.referenceParts(json, name)]));
  }

  ref(name: string): JsonSchema {
    if (!this.generated.has(name)) throw new Error(`no schema named ${name}`);
    return { $ref: `#/components/schemas/${name}` };
  }
}
