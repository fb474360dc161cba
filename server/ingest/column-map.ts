/**
 * A partner's own export, read as it is (`admin import --columns map.json`): their column
 * names, their labels, and the fields their file leaves implicit. The map file:
 *
 *   {
 *     "columns":   { "Prix": "price", "Ville": "city", "Agence": null },   partner column → Mboa field (null: ignored)
 *     "values":    { "type": { "Appartement": "apartment" }, "purpose": { "A louer": "rent" } },
 *     "constants": { "city": "Douala" }                                    fields every row gets
 *   }
 *
 * Names and labels match whatever their case, accents and punctuation (`matchKey`). A map
 * that cannot be right is refused before any row is read, the message naming the bad key.
 */
import { readFileSync } from 'node:fs';
import { LISTING_STATUSES, PROPERTY_TYPES, PURPOSES } from '../../contract/schemas.js';
import { matchKey } from '../platform/text.js';
import { RECORD_FIELDS } from './record.js';

export class ColumnMapError extends Error {}

const FIELDS = new Set<string>(RECORD_FIELDS);
const ENUMS: Record<string, readonly string[]> = { type: PROPERTY_TYPES, purpose: PURPOSES, status: LISTING_STATUSES };
const TOP_LEVEL = ['columns', 'values', 'constants', 'description'];
type Scalar = string | number;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const quoted = (name: string) => JSON.stringify(name);

export class ColumnMap {
  /** matchKey(partner column) → field, or null for a column to ignore. */
  private readonly columns = new Map<string, string | null>();
  /** field → matchKey(label) → value. */
  private readonly labels = new Map<string, Map<string, Scalar>>();
  private readonly constants: Array<[string, Scalar]> = [];
  /** Fields the constants give every row: the file need not have their columns. */
  readonly provided = new Set<string>();

  /** Reads and checks a map file; a ColumnMapError names what is wrong. */
  static load(path: string): ColumnMap {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new ColumnMapError(`cannot read the column map ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text.replace(/^\ufeff/, ''));
    } catch (err) {
      throw new ColumnMapError(
        `the column map ${path} is not valid JSON: ${(err as Error).message.replace(/,?\s*".*"(\.\.\.)? is not valid JSON$/s, '')}`,
      );
    }
    try {
      return new ColumnMap(json);
    } catch (err) {
      if (err instanceof ColumnMapError) throw new ColumnMapError(`column map ${path}: ${err.message}`);
      throw err;
    }
  }

  constructor(json: unknown) {
    if (!isObject(json)) throw new ColumnMapError('must be a JSON object with "columns", "values" and/or "constants"');
    for (const key of Object.keys(json)) {
      if (!TOP_LEVEL.includes(key)) throw new ColumnMapError(`unknown key ${quoted(key)}: the keys are ${TOP_LEVEL.join(', ')}`);
    }
    this.readColumns(json.columns);
    this.readValues(json.values);
    this.readConstants(json.constants);
  }

  private readColumns(columns: unknown): void {
    if (columns === undefined) return;
    if (!isObject(columns)) throw new ColumnMapError('"columns" must be an object: { "partner column": "field" or null }');
    const byField = new Map<string, string>();
    for (const [name, field] of Object.entries(columns)) {
      const at = `columns.${quoted(name)}`;
      const key = matchKey(name);
      if (key === '') throw new ColumnMapError(`${at}: a column name needs a letter or digit`);
      if (this.columns.has(key)) throw new ColumnMapError(`${at}: the same column as another name of "columns" (case and accents aside)`);
      if (field !== null && (typeof field !== 'string' || !FIELDS.has(field))) {
        throw new ColumnMapError(
          `${at}: ${JSON.stringify(field)} is not a field; the fields are ${RECORD_FIELDS.join(', ')} (or null to ignore the column)`,
        );
      }
      if (field !== null) {
        const other = byField.get(field);
        if (other !== undefined) throw new ColumnMapError(`${at}: ${quoted(other)} already gives ${field}`);
        byField.set(field, name);
      }
      this.columns.set(key, field);
    }
  }

  private readValues(values: unknown): void {
    if (values === undefined) return;
    if (!isObject(values)) throw new ColumnMapError('"values" must be an object: { "field": { "partner label": "value" } }');
    for (const [field, labels] of Object.entries(values)) {
      const at = `values.${quoted(field)}`;
      if (!FIELDS.has(field)) throw new ColumnMapError(`${at}: not a field; the fields are ${RECORD_FIELDS.join(', ')}`);
      if (!isObject(labels)) throw new ColumnMapError(`${at} must be an object: { "partner label": "value" }`);
      const byKey = new Map<string, Scalar>();
      for (const [label, value] of Object.entries(labels)) {
        const key = matchKey(label);
        if (byKey.has(key)) throw new ColumnMapError(`${at}.${quoted(label)}: the same label as another of ${at} (case and accents aside)`);
        byKey.set(key, checkedValue(`${at}.${quoted(label)}`, field, value));
      }
      this.labels.set(field, byKey);
    }
  }

  private readConstants(constants: unknown): void {
    if (constants === undefined) return;
    if (!isObject(constants)) throw new ColumnMapError('"constants" must be an object: { "field": value }');
    const fromColumns = new Set([...this.columns.values()]);
    for (const [field, value] of Object.entries(constants)) {
      const at = `constants.${quoted(field)}`;
      if (!FIELDS.has(field)) throw new ColumnMapError(`${at}: not a field; the fields are ${RECORD_FIELDS.join(', ')}`);
      if (fromColumns.has(field)) throw new ColumnMapError(`${at}: a column of "columns" already gives ${field}`);
      this.constants.push([field, checkedValue(at, field, value)]);
      this.provided.add(field);
    }
  }

  /** The field a CSV header cell names: mapped, a field's own name (any case), null (ignored), or undefined (unknown). */
  fieldOf(name: string): string | null | undefined {
    const mapped = this.columns.get(matchKey(name));
    if (mapped !== undefined) return mapped;
    const own = matchKey(name).replace(/ /g, '_');
    return FIELDS.has(own) ? own : undefined;
  }

  /**
   * One row in Mboa's terms, in place: NDJSON keys renamed (`renameKeys`; a CSV's were at
   * its header), constants added, labels turned into values.
   */
  apply(value: Record<string, unknown>, renameKeys: boolean): void {
    if (renameKeys && this.columns.size > 0) {
      for (const key of Object.keys(value)) {
        const field = this.columns.get(matchKey(key));
        if (field === undefined || field === key) continue;
        if (field !== null) value[field] = value[key];
        delete value[key];
      }
    }
    for (const [field, constant] of this.constants) value[field] = constant;
    for (const [field, byKey] of this.labels) {
      const cell = value[field];
      if (typeof cell !== 'string') continue;
      const mapped = byKey.get(matchKey(cell));
      if (mapped !== undefined) value[field] = mapped;
    }
  }
}

function checkedValue(at: string, field: string, value: unknown): Scalar {
  if (typeof value !== 'string' && typeof value !== 'number') throw new ColumnMapError(`${at}: must be a string or a number`);
  const allowed = ENUMS[field];
  if (allowed && !allowed.includes(value as string)) {
    throw new ColumnMapError(`${at}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  }
  return value;
}

/**
 * The value of an enumerated field as partners write it, whatever the case and spacing
 * (`Apartment`, `Furnished rent`), when no label of the map names it.
 */
export function enumValue(field: string, cell: string): string | undefined {
  const allowed = ENUMS[field];
  if (!allowed) return undefined;
  const key = matchKey(cell).replace(/ /g, '_');
  return allowed.includes(key) ? key : undefined;
}
