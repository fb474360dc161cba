/**
 * A partner's own export, read as it is (`admin import --columns map.json`): their column
 * names, their labels, and the fields their file leaves implicit. The map file:
 *
 *   {
 *     "columns":   { "Prix": "price", "": null, "#7": "title",                 partner column (or "#n": the n-th) → field, null: ignored
 *                    "Adresse": { "split": ",", "parts": { "neighborhood": "1..-3", "city": -2 } } },
 *     "values":    { "type": { "Appartement": "apartment", "Autre": null } },  whole-cell labels (null: unknown)
 *     "match":     { "purpose": [ { "in": "title", "keywords": ["meublé"], "value": "furnished_rent" } ] },
 *     "constants": { "currency": "XAF" },                                      fields every row gets
 *     "defaults":  { "purpose": "rent" },                                      fields a row gets when nothing else gave them
 *     "unknown":   ["NA", "-", "N/D"],                                         labels that mean no value (these three by default)
 *     "reference": { "prefix": "pf-", "from": ["Adresse", "Designation"] }     a source_ref from the row's content
 *   }
 *
 * Names and labels match whatever their case, accents and punctuation (`matchKey`). A map
 * that cannot be right is refused before any row is read, the message naming the bad key
 * and what to write instead.
 */
import { readFileSync } from 'node:fs';
import { STANDINGS } from '../../contract/advert-terms.js';
import { LISTING_STATUSES, PROPERTY_TYPES, PURPOSES } from '../../contract/schemas.js';
import { matchKey } from '../platform/text.js';
import {
  ColumnMapError,
  UNKNOWN_LABELS,
  applySplit,
  contentReference,
  firstMatch,
  isObject,
  quoted,
  readReference,
  readRule,
  readSplit,
  unknownKey,
  type MatchRule,
  type ReferenceSpec,
  type Scalar,
  type SplitSpec,
} from './map-rules.js';
import { RECORD_FIELDS } from './record.js';

export { ColumnMapError } from './map-rules.js';

const FIELDS = new Set<string>(RECORD_FIELDS);
const ENUMS: Record<string, readonly string[]> = { type: PROPERTY_TYPES, purpose: PURPOSES, status: LISTING_STATUSES, standing: STANDINGS };
const TOP_LEVEL = ['columns', 'values', 'match', 'constants', 'defaults', 'unknown', 'reference', 'description'];
const FIELD_LIST = RECORD_FIELDS.join(', ');
/** The key a column the map reads as a whole (split, searched, hashed) has in a row: never a field. */
const RAW = '@';

export class ColumnMap {
  /** matchKey(partner column) or `#n` → field, null (ignored), or a RAW key (a column read as a whole). */
  private readonly columns = new Map<string, string | null>();
  private readonly splits = new Map<string, SplitSpec>();
  /** field → matchKey(label) → value (null: unknown). */
  private readonly labels = new Map<string, Map<string, Scalar | null>>();
  private readonly rules = new Map<string, MatchRule[]>();
  private readonly constants: Array<[string, Scalar]> = [];
  private readonly defaults: Array<[string, Scalar]> = [];
  private unknown = new Set(UNKNOWN_LABELS.map(unknownKey));
  private reference: ReferenceSpec | null = null;
  /** Content references given in this file (reset at each CSV header). */
  private readonly referenced = new Map<string, number>();
  /** Fields rows get without a column of their own: the file need not have them. */
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
    if (!isObject(json)) throw new ColumnMapError('must be a JSON object with "columns", "values", "match", "constants" and/or "defaults"');
    for (const key of Object.keys(json)) {
      if (!TOP_LEVEL.includes(key)) throw new ColumnMapError(`unknown key ${quoted(key)}: the keys are ${TOP_LEVEL.join(', ')}`);
    }
    this.readColumns(json.columns);
    this.readUnknown(json.unknown);
    this.readValues(json.values);
    this.readMatch(json.match);
    this.readConstants(json.constants);
    this.readDefaults(json.defaults);
    if (json.reference !== undefined && json.reference !== false) {
      this.reference = readReference('reference', json.reference, (n) => this.inKey(n));
      this.provided.add('source_ref');
    }
  }

  /** The key of a column in `columns` (`#3` positional, `""` the unnamed one). */
  private static columnKey(name: string): string {
    return /^#\d+$/.test(name.trim()) ? name.trim() : matchKey(name);
  }

  private readColumns(columns: unknown): void {
    if (columns === undefined) return;
    if (!isObject(columns)) throw new ColumnMapError('"columns" must be an object: { "partner column": "field" or null }');
    const byField = new Map<string, string>();
    const gives = (at: string, field: string, name: string) => {
      const other = byField.get(field);
      if (other !== undefined) throw new ColumnMapError(`${at}: ${quoted(other)} already gives ${field}; map one of them to null`);
      byField.set(field, name);
    };
    for (const [name, field] of Object.entries(columns)) {
      const at = `columns.${quoted(name)}`;
      const key = ColumnMap.columnKey(name);
      if (key === '' && name.trim() !== '') {
        throw new ColumnMapError(`${at}: a column name needs a letter or digit (write "" for an unnamed column, or "#1" for the first)`);
      }
      if (key === '#0') throw new ColumnMapError(`${at}: columns are counted from 1 ("#1" is the first)`);
      if (this.columns.has(key))
        throw new ColumnMapError(`${at}: the same column as another name of "columns" (case and accents aside): keep one`);
      if (isObject(field)) {
        const spec = readSplit(at, field, (f) => FIELDS.has(f), FIELD_LIST);
        for (const [f] of spec.parts) gives(`${at}.parts.${quoted(f)}`, f, name);
        if (spec.field) gives(`${at}.field`, spec.field, name);
        for (const [f] of spec.parts) this.provided.add(f);
        this.splits.set(RAW + key, spec);
        this.columns.set(key, RAW + key);
        continue;
      }
      if (field !== null && (typeof field !== 'string' || !FIELDS.has(field))) {
        throw new ColumnMapError(
          `${at}: ${JSON.stringify(field)} is not a field; the fields are ${FIELD_LIST} (or null to ignore the column, or { "split": ..., "parts": ... })`,
        );
      }
      if (field !== null) gives(at, field, name);
      this.columns.set(key, field);
    }
  }

  /**
   * A column or field a rule or the reference reads: a field by its name, a column the
   * map gives a field by that field, else the column's own text (kept whole as RAW).
   */
  private inKey(name: string): string | undefined {
    const key = ColumnMap.columnKey(name);
    const mapped = this.columns.get(key);
    if (mapped === undefined) return FIELDS.has(name) ? name : undefined;
    if (mapped === null) this.columns.set(key, RAW + key);
    return mapped ?? RAW + key;
  }

  private readUnknown(unknown: unknown): void {
    if (unknown === undefined) return;
    if (!Array.isArray(unknown) || unknown.some((u) => typeof u !== 'string')) {
      throw new ColumnMapError('"unknown" must be a list of the labels that mean no value, e.g. ["NA", "-", "N/D"] ([] for none)');
    }
    this.unknown = new Set((unknown as string[]).map(unknownKey));
  }

  private readValues(values: unknown): void {
    if (values === undefined) return;
    if (!isObject(values)) throw new ColumnMapError('"values" must be an object: { "field": { "partner label": "value" } }');
    for (const [field, labels] of Object.entries(values)) {
      const at = `values.${quoted(field)}`;
      if (!FIELDS.has(field)) throw new ColumnMapError(`${at}: not a field; the fields are ${FIELD_LIST}`);
      if (!isObject(labels)) throw new ColumnMapError(`${at} must be an object: { "partner label": "value" }`);
      const byKey = new Map<string, Scalar | null>();
      for (const [label, value] of Object.entries(labels)) {
        const key = matchKey(label);
        if (byKey.has(key))
          throw new ColumnMapError(`${at}.${quoted(label)}: the same label as another of ${at} (case and accents aside): keep one`);
        byKey.set(key, value === null ? null : checkedValue(`${at}.${quoted(label)}`, field, value));
      }
      this.labels.set(field, byKey);
    }
  }

  private readMatch(match: unknown): void {
    if (match === undefined) return;
    if (!isObject(match))
      throw new ColumnMapError('"match" must be an object: { "field": [ { "in": "column", "keywords": [...], "value": ... } ] }');
    for (const [field, rules] of Object.entries(match)) {
      const at = `match.${quoted(field)}`;
      if (!FIELDS.has(field)) throw new ColumnMapError(`${at}: not a field; the fields are ${FIELD_LIST}`);
      if (!Array.isArray(rules) || rules.length === 0) {
        throw new ColumnMapError(`${at}: must be a list of rules, tried in order: [ { "in": "title", "keywords": [...], "value": ... } ]`);
      }
      const check = (where: string, v: unknown) => (v === null ? null : checkedValue(where, field, v));
      this.rules.set(
        field,
        rules.map((rule, i) => readRule(`${at}[${i}]`, rule, (n) => this.inKey(n), check)),
      );
      this.provided.add(field);
    }
  }

  private readConstants(constants: unknown): void {
    if (constants === undefined) return;
    if (!isObject(constants)) throw new ColumnMapError('"constants" must be an object: { "field": value }');
    const fromColumns = new Set([...this.columns.values(), ...[...this.splits.values()].flatMap((s) => s.parts.map(([f]) => f))]);
    for (const [field, value] of Object.entries(constants)) {
      const at = `constants.${quoted(field)}`;
      if (!FIELDS.has(field)) throw new ColumnMapError(`${at}: not a field; the fields are ${FIELD_LIST}`);
      if (fromColumns.has(field))
        throw new ColumnMapError(`${at}: a column of "columns" already gives ${field}; use "defaults" for a value when the cell is empty`);
      this.constants.push([field, checkedValue(at, field, value)]);
      this.provided.add(field);
    }
  }

  private readDefaults(defaults: unknown): void {
    if (defaults === undefined) return;
    if (!isObject(defaults)) throw new ColumnMapError('"defaults" must be an object: { "field": value }');
    for (const [field, value] of Object.entries(defaults)) {
      const at = `defaults.${quoted(field)}`;
      if (!FIELDS.has(field)) throw new ColumnMapError(`${at}: not a field; the fields are ${FIELD_LIST}`);
      if (this.constants.some(([f]) => f === field))
        throw new ColumnMapError(`${at}: "constants" already gives ${field} to every row; keep one`);
      this.defaults.push([field, checkedValue(at, field, value)]);
      this.provided.add(field);
    }
  }

  /**
   * The field a CSV header cell names (`index` its position from 0): mapped by position
   * or name, a field's own name (any case), null (ignored), or undefined (unknown).
   */
  fieldOf(name: string, index?: number): string | null | undefined {
    if (index === 0) this.referenced.clear(); // a new file: its content references count anew
    const positional = index === undefined ? undefined : this.columns.get(`#${index + 1}`);
    if (positional !== undefined) return positional;
    const mapped = this.columns.get(matchKey(name));
    if (mapped !== undefined) return mapped;
    const own = matchKey(name).replace(/ /g, '_');
    return FIELDS.has(own) ? own : undefined;
  }

  /**
   * One row in Mboa's terms, in place: NDJSON keys renamed (`renameKeys`; a CSV's were at
   * its header), unknown labels dropped, columns split, the reference written, constants
   * added, labels and rules turned into values, defaults filling what is still missing.
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
    for (const [key, cell] of Object.entries(value)) {
      if (typeof cell === 'string' && this.unknown.has(unknownKey(cell))) delete value[key];
    }
    for (const [key, spec] of this.splits) {
      const cell = value[key];
      if (typeof cell === 'string') applySplit(spec, cell, value);
    }
    if (this.reference && (value.source_ref === undefined || value.source_ref === '')) {
      value.source_ref = contentReference(this.reference, value, this.referenced);
    }
    for (const [field, constant] of this.constants) value[field] = constant;
    for (const [field, byKey] of this.labels) {
      const cell = value[field];
      if (typeof cell !== 'string') continue;
      const mapped = byKey.get(matchKey(cell));
      if (mapped === null) delete value[field];
      else if (mapped !== undefined) value[field] = mapped;
    }
    for (const [field, rules] of this.rules) {
      if (value[field] !== undefined && enumValue(field, String(value[field])) !== undefined) continue;
      const rule = firstMatch(rules, value);
      if (rule?.value === null) delete value[field];
      else if (rule) value[field] = rule.value;
    }
    for (const [field, fallback] of this.defaults) if (value[field] === undefined) value[field] = fallback;
    for (const key of Object.keys(value)) if (key.startsWith(RAW)) delete value[key];
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
