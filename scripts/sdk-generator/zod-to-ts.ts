/**
 * Zod schemas → plain TypeScript declarations, with JSDoc from each schema's OpenAPI
 * `description` (and its `example` and `default`). Small on purpose: it knows the zod
 * constructs the contract uses and refuses any other by name, so a new construct is
 * taught here rather than silently typed `unknown`.
 *
 * A query is typed as what a caller passes (zod's input: a field with a default is
 * optional), a body as what the API answers (zod's output).
 */
import type { ZodTypeAny } from 'zod';
import { jsDoc } from './jsdoc.js';

export type Side = 'input' | 'output';

/** A named string enum of the SDK (`PropertyType`), recognised by its set of values wherever it appears. */
export interface NamedEnum {
  name: string;
  values: readonly string[];
}

export interface TypeNames {
  /** Object schemas the SDK names (`ZListing` → `Listing`), referred to by name in outputs. */
  objects: ReadonlyMap<ZodTypeAny, string>;
  enums: readonly NamedEnum[];
  /** Input fields typed by name rather than by schema (`city` → `City`), when the schema is a plain string. */
  inputFields: Readonly<Record<string, string>>;
}

/** What the OpenAPI annotations (`extendApi`) and zod's `.describe()` say about a schema. */
export interface SchemaDoc {
  description?: string;
  example?: unknown;
  default?: unknown;
}

interface ZodLike {
  _def: { typeName: string; [key: string]: unknown };
  metaOpenApi?: { description?: unknown; example?: unknown };
  description?: string;
}

const WRAPPERS = new Set(['ZodOptional', 'ZodNullable', 'ZodDefault', 'ZodEffects', 'ZodBranded', 'ZodReadonly', 'ZodCatch']);

const def = (schema: ZodTypeAny) => (schema as unknown as ZodLike)._def;
const kind = (schema: ZodTypeAny) => def(schema).typeName;

/** The schema a wrapper wraps (`.optional()`, `.nullable()`, `.default()`, refinements...). */
function inner(schema: ZodTypeAny): ZodTypeAny {
  const d = def(schema);
  return (d.innerType ?? d.schema ?? (d.type as ZodTypeAny | undefined)) as ZodTypeAny;
}

/** Description, example and default of a schema, the outermost annotation first (as the OpenAPI generator merges them). */
export function docOf(schema: ZodTypeAny): SchemaDoc {
  const doc: SchemaDoc = {};
  for (let s: ZodTypeAny | undefined = schema; s; s = WRAPPERS.has(kind(s)) ? inner(s) : undefined) {
    const z = s as unknown as ZodLike;
    const description = z.metaOpenApi?.description ?? z.description;
    if (doc.description === undefined && typeof description === 'string') doc.description = description;
    if (!('example' in doc) && z.metaOpenApi && 'example' in z.metaOpenApi) doc.example = z.metaOpenApi.example;
    if (!('default' in doc) && kind(s) === 'ZodDefault') doc.default = (def(s).defaultValue as () => unknown)();
  }
  return doc;
}

/** The object under refinements (`.superRefine()` wraps the query objects). */
export function objectOf(schema: ZodTypeAny): ZodTypeAny | undefined {
  let s: ZodTypeAny | undefined = schema;
  while (s && kind(s) === 'ZodEffects') s = inner(s);
  return s && kind(s) === 'ZodObject' ? s : undefined;
}

export function shapeOf(object: ZodTypeAny): Record<string, ZodTypeAny> {
  return (def(object).shape as () => Record<string, ZodTypeAny>)();
}

/**
 * Whether a field may be left out: on input, when zod accepts `undefined` (optional, or
 * with a default); on output, when `undefined` is what zod would give (a default fills it).
 */
function isOptionalField(schema: ZodTypeAny, side: Side): boolean {
  const result = schema.safeParse(undefined);
  return result.success && (side === 'input' || result.data === undefined);
}

/** The field's schema without the optionality its `?` already says. */
function withoutOptional(schema: ZodTypeAny): ZodTypeAny {
  let s = schema;
  while (kind(s) === 'ZodOptional' || kind(s) === 'ZodDefault') s = inner(s);
  return s;
}

const literal = (value: unknown) => JSON.stringify(value);
const needsParens = (type: string) => /[|&]/.test(type) && !/^[[{(]/.test(type);

export class TypeWriter {
  constructor(private readonly names: TypeNames) {}

  /** A TypeScript type for `schema`; `path` names it in errors (`ListingSearchParams.city`). */
  type(schema: ZodTypeAny, side: Side, path: string, indent = ''): string {
    const d = def(schema);
    switch (d.typeName) {
      case 'ZodOptional':
        return `${this.type(inner(schema), side, path, indent)} | undefined`;
      case 'ZodNullable':
        return `${this.type(inner(schema), side, path, indent)} | null`;
      case 'ZodDefault':
        return side === 'input'
          ? `${this.type(inner(schema), side, path, indent)} | undefined`
          : this.type(inner(schema), side, path, indent);
      case 'ZodEffects': {
        const effect = (d.effect as { type: string }).type;
        if (effect === 'transform' && side === 'output') throw new Error(`${path}: a transform's output cannot be typed from its schema`);
        return this.type(inner(schema), side, path, indent);
      }
      case 'ZodPipeline':
        return this.type((side === 'input' ? d.in : d.out) as ZodTypeAny, side, path, indent);
      case 'ZodBranded':
      case 'ZodReadonly':
      case 'ZodCatch':
        return this.type(inner(schema), side, path, indent);
      case 'ZodString':
        return 'string';
      case 'ZodNumber':
        return 'number';
      case 'ZodBoolean':
        return 'boolean';
      case 'ZodNull':
        return 'null';
      case 'ZodUnknown':
      case 'ZodAny':
        return 'unknown';
      case 'ZodLiteral':
        return literal(d.value);
      case 'ZodEnum':
        return this.enumType(d.values as string[]);
      case 'ZodArray': {
        const item = this.type(d.type as ZodTypeAny, side, `${path}[]`, indent);
        // A union of objects starts with a brace but still binds looser than `[]`.
        const union = ['ZodUnion', 'ZodDiscriminatedUnion'].includes(def(d.type as ZodTypeAny).typeName as string);
        return union || needsParens(item) ? `(${item})[]` : `${item}[]`;
      }
      case 'ZodUnion':
      case 'ZodDiscriminatedUnion':
        return (d.options as ZodTypeAny[]).map((option, i) => this.type(option, side, `${path}|${i}`, indent)).join(' | ');
      case 'ZodIntersection': {
        const parts = [d.left, d.right].map((part) => this.type(part as ZodTypeAny, side, path, indent));
        return parts.map((p) => (needsParens(p) ? `(${p})` : p)).join(' & ');
      }
      case 'ZodRecord':
        return `Record<string, ${this.type(d.valueType as ZodTypeAny, side, `${path}{}`, indent)}>`;
      case 'ZodTuple':
        return `[${(d.items as ZodTypeAny[]).map((item, i) => this.type(item, side, `${path}[${i}]`, indent)).join(', ')}]`;
      case 'ZodObject': {
        const name = side === 'output' ? this.names.objects.get(schema) : undefined;
        return name ?? `{\n${this.members(schema, side, path, `${indent}  `)}${indent}}`;
      }
      default:
        throw new Error(`${path}: cannot type a ${d.typeName}; teach scripts/sdk-generator/zod-to-ts.ts`);
    }
  }

  /** The members of an object type, one per line with its JSDoc; `skip` leaves out inherited ones. */
  members(object: ZodTypeAny, side: Side, path: string, indent = '  ', skip: ReadonlySet<string> = new Set()): string {
    let out = '';
    for (const [key, field] of Object.entries(shapeOf(object))) {
      if (skip.has(key)) continue;
      const optional = isOptionalField(field, side);
      const named = side === 'input' ? this.names.inputFields[key] : undefined;
      const bare = withoutOptional(field);
      let type = named && this.type(bare, side, `${path}.${key}`) === 'string' ? named : this.type(bare, side, `${path}.${key}`, indent);
      if (optional && side === 'input') type = `${type} | undefined`;
      const doc = docOf(field);
      out += jsDoc(doc.description, { example: doc.example, default: side === 'input' ? doc.default : undefined }, indent);
      out += `${indent}${propertyKey(key)}${optional ? '?' : ''}: ${type};\n`;
    }
    return out;
  }

  /** A named enum for its exact values; a named enum plus the extra literals for a wider set (`ListingStatus | 'any'`). */
  enumType(values: readonly string[]): string {
    const set = new Set(values);
    const fits = this.names.enums
      .filter((e) => e.values.length >= 2 && e.values.every((v) => set.has(v)))
      .sort((a, b) => b.values.length - a.values.length)[0];
    if (!fits) return values.map(literal).join(' | ');
    const rest = values.filter((v) => !fits.values.includes(v));
    return [fits.name, ...rest.map(literal)].join(' | ');
  }
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : literal(key);
}
