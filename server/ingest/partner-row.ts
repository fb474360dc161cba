/**
 * A feed row as partners write it, brought to Mboa's terms before the import rules
 * (validate.ts) check it: the column map's renames, constants and labels (column-map.ts),
 * prices in words and spaces (`130 000 FCFA`, money.ts), counts and surfaces in words
 * (`3 Chambres`, `120 m²`, room-counts.ts), French and English labels of the types and
 * purposes. A row whose price is given on request is not a listing one can price: it is
 * skipped, apart from rejections. Every refusal names its field.
 */
import type { ColumnMap } from './column-map.js';
import { enumValue } from './column-map.js';
import { readPrice } from './money.js';
import { NeighborhoodResolver } from './neighborhoods.js';
import { readRoomCount, readSurface } from './room-counts.js';
import { validateRow, type Validated } from './validate.js';
import { matchKey } from '../platform/text.js';

export type CheckedRow = Validated | { ok: false; skipped: string; sourceRef?: string };

/** What French and English exports commonly write, when the map does not say otherwise. */
const COMMON_LABELS: Record<string, Record<string, string>> = {
  type: {
    appartement: 'apartment',
    appart: 'apartment',
    flat: 'apartment',
    maison: 'house',
    'maison individuelle': 'house',
    chambre: 'room',
    'chambre moderne': 'room',
    terrain: 'land',
    plot: 'land',
    bureau: 'office',
    bureaux: 'office',
    boutique: 'shop',
    magasin: 'shop',
    'local commercial': 'shop',
    entrepot: 'warehouse',
  },
  purpose: {
    'a louer': 'rent',
    location: 'rent',
    louer: 'rent',
    'for rent': 'rent',
    'a vendre': 'sale',
    vente: 'sale',
    vendre: 'sale',
    'for sale': 'sale',
    meuble: 'furnished_rent',
    'location meublee': 'furnished_rent',
    'a louer meuble': 'furnished_rent',
    furnished: 'furnished_rent',
  },
};

const REPLACEMENT = '\ufffd';

/**
 * Checks one raw row: `columns` the partner's map if any, `renameKeys` for NDJSON (a
 * CSV's columns were renamed at its header).
 */
export function checkPartnerRow(
  value: Record<string, unknown>,
  resolver: NeighborhoodResolver,
  columns: ColumnMap | undefined,
  renameKeys: boolean,
): CheckedRow {
  columns?.apply(value, renameKeys);
  const ref = typeof value.source_ref === 'string' && value.source_ref.trim() ? value.source_ref.trim() : undefined;
  const problems = new Map<string, string>();
  for (const [field, cell] of Object.entries(value)) {
    if (typeof cell === 'string' && cell.includes(REPLACEMENT)) {
      problems.set(field, 'holds bytes that are not UTF-8 (the file is in another encoding: try --encoding windows-1252)');
    }
  }
  if (typeof value.price === 'string' && !problems.has('price')) {
    const price = readPrice(value.price);
    if (price.kind === 'on_request') return { ok: false, skipped: 'price: given on request', sourceRef: ref };
    if (price.kind === 'amount') value.price = price.xaf;
    else problems.set('price', price.reason);
  }
  for (const field of ['bedrooms', 'bathrooms'] as const) {
    const cell = value[field];
    if (typeof cell !== 'string' || cell.trim() === '' || problems.has(field)) continue;
    const count = readRoomCount(field, cell);
    if (count.ok) value[field] = count.value;
    else problems.set(field, count.reason);
  }
  if (typeof value.surface === 'string' && value.surface.trim() !== '' && !problems.has('surface')) {
    const surface = readSurface(value.surface);
    if (surface.ok) value.surface = surface.value;
    else problems.set('surface', surface.reason);
  }
  for (const field of ['type', 'purpose']) {
    const cell = value[field];
    if (typeof cell !== 'string' || problems.has(field)) continue;
    const known = enumValue(field, cell) ?? COMMON_LABELS[field][matchKey(cell)];
    if (known) value[field] = known;
  }
  if (problems.size === 0) return validateRow(value, resolver);
  // The other fields are still checked, so the report gives every reason at once.
  // (With a resolver of its own: a rejected row's quarter is no unresolved name of the import.)
  for (const field of problems.keys()) delete value[field];
  const checked = validateRow(value, new NeighborhoodResolver());
  const others = checked.ok ? [] : checked.reason.split('; ').filter((r) => !problems.has(r.slice(0, r.indexOf(':'))));
  const reasons = [...[...problems].map(([field, why]) => `${field}: ${why}`), ...others];
  return { ok: false, reason: reasons.join('; '), sourceRef: ref };
}
