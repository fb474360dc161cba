/**
 * fast-check arbitraries of requests to a Mboa server: every /api/v1 route and the
 * operations endpoints, with query strings of valid, nearly valid and worthless values
 * (dates with impossible offsets, year 0000, numbers past any bound, unicode, repeated
 * and unknown parameters, broken percent-encoding), keys of every kind, odd methods and
 * headers, and raw bytes no HTTP client would send.
 */
import fc from 'fast-check';
import { CITIES as CATALOG } from '../../contract/places.js';

/** What the requests are made of: keys and ids that exist on the server under test. */
export interface FuzzWorld {
  keys: {
    /** Keys that work, by kind (`starter`, `pro`, `enterprise`, `test`...): several per kind so rate limits bite less. */
    valid: Record<string, string[]>;
    /** Keys that exist but must be refused (revoked, suspended, unverified). */
    refused: string[];
  };
  /** A listing id that exists (its private contact data must never leave the server). */
  plantedId: string;
  /** Another existing listing id. */
  listingId: string;
  /** A cursor issued by the server (for `listings?limit=5&city=Douala`). */
  cursor: string;
}

export interface FuzzRequest {
  /** `http` through node:http; `raw` bytes over TCP. */
  via: 'http' | 'raw';
  /** The route aimed at (for the tally), e.g. `listings.search`, `healthz`, `unmatched`. */
  route: string;
  method: string;
  /** Path and query as sent (http), or the request line's target (raw). */
  path: string;
  headers: Record<string, string | string[]>;
  body?: string;
  /** Raw mode: the bytes sent. */
  raw?: string;
}

/** Without control characters (what node:http refuses to put in a header or on a request line), but those in `keep`. */
const printable = (s: string, keep = '') =>
  [...s].filter((c) => keep.includes(c) || (c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)).join('');

/** encodeURIComponent that never throws: a lone surrogate goes out as U+FFFD's UTF-8 bytes, as a browser sends it. */
export function pct(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.!~*'()]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const b62 = (n: number) => fc.string({ unit: fc.constantFrom(...BASE62), minLength: n, maxLength: n });
const lower36 = (n: number) => fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: n, maxLength: n });

const CITIES = CATALOG.map((c) => c.name);
const NEIGHBORHOODS = CATALOG.flatMap((c) => c.neighborhoods.slice(0, 3).map((n) => n.name));

/** Unicode text of every plane, including what is not printable or not even paired. */
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
  fc.constantFrom('\u0000', '\uFFFD', '\uD800', '\u202E', 'é', 'Yaoundé', 'YAOUNDE', '🏠', '\u0301e', 'ﬀ', 'Ⅻ', '٣', '𝟙𝟚𝟛'),
);

const garbage = fc.oneof(
  anyText,
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '-Infinity',
    'true',
    '[]',
    '{}',
    '%',
    '%%',
    "' OR '1'='1",
    "'; DROP TABLE listings; --",
    '\\',
    '*',
    '_%',
    '$1',
    '${x}',
    '{{x}}',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    'a'.repeat(101),
    'x'.repeat(2001),
    '__proto__',
    'constructor',
  ),
);

const digits = (min: number, max: number) => fc.integer({ min, max }).map(String);

/** Whole numbers: in range, at the edges, past them, and written every wrong way. */
const wholeNumber = (max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: digits(0, Math.min(max, 2 ** 31)) },
    fc.constantFrom(
      '0',
      String(max),
      String(max + 1),
      '00000000000000000000001',
      '-1',
      '-0',
      '+5',
      ' 5',
      '5 ',
      '1e3',
      '1E3',
      '0x10',
      '0b1',
      '0o7',
      '1.0',
      '1.',
      '.5',
      '1_000',
      '1,000',
    ),
    fc.constantFrom(
      '9007199254740993',
      '99999999999999999999999999999999',
      '1' + '0'.repeat(400),
      '18446744073709551616',
      '2147483648',
      '-2147483649',
    ),
    fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
    garbage,
  );

const limitValue = fc.oneof(
  { weight: 5, arbitrary: digits(1, 200) },
  fc.constantFrom('0', '201', '200', '1', '-1', '20.0', '2e2', ''),
  wholeNumber(10_000),
);

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Dates and timestamps: real ones, impossible ones, and ones that only look like dates. */
const instant = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record({
        y: fc.integer({ min: 1970, max: 2100 }),
        mo: fc.integer({ min: 1, max: 12 }),
        d: fc.integer({ min: 1, max: 28 }),
        t: fc.boolean(),
      })
      .map(({ y, mo, d, t }) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}${t ? 'T08:30:00Z' : ''}`),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        y: fc.integer({ min: 0, max: 9999 }),
        mo: fc.integer({ min: 0, max: 99 }),
        d: fc.integer({ min: 0, max: 99 }),
        h: fc.integer({ min: 0, max: 99 }),
        mi: fc.integer({ min: 0, max: 99 }),
        s: fc.integer({ min: 0, max: 99 }),
        frac: fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 12 }), { nil: undefined }),
        zone: fc.oneof(
          fc.constant('Z'),
          fc.constant('z'),
          fc.constant(''),
          fc
            .record({
              sign: fc.constantFrom('+', '-', '±'),
              oh: fc.integer({ min: 0, max: 99 }),
              om: fc.integer({ min: 0, max: 99 }),
              colon: fc.boolean(),
            })
            .map(({ sign, oh, om, colon }) => `${sign}${pad(oh, 2)}${colon ? ':' : ''}${pad(om, 2)}`),
        ),
      })
      .map(
        ({ y, mo, d, h, mi, s, frac, zone }) =>
          `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${frac ? `.${frac}` : ''}${zone}`,
      ),
  },
  fc.constantFrom(
    '2026-01-01T00:00:00+99:99',
    '2026-01-01T00:00:00+24:00',
    '2026-01-01T00:00:00+00:60',
    '2026-01-01T00:00:00-12:01',
    '2026-01-01T00:00:00+14:01',
    '2026-01-01T00:00:00+14:00',
    '2026-01-01T00:00:00-12:00',
    '2026-01-01T00:00:00+0100',
    '0000-01-01',
    '0000-00-00T00:00:00Z',
    '1969-12-31T23:59:59Z',
    '2101-01-01',
    '9999-12-31T23:59:59.999999999Z',
    '2026-02-29',
    '2028-02-29',
    '2026-02-30',
    '2026-13-01',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:59:60Z',
    '2026-01-01T00:00:00.1234567891Z',
    '2026-01-01T00:00Z',
    '2026-01-01 00:00:00Z',
    '2026-1-1',
    '20260101',
    '+002026-01-01',
    '-2026-01-01',
    '1700000000',
    'now',
    'today',
    '２０２６-01-01',
    '2026-01-01T00:00:00+01:00\u0000',
  ),
  garbage,
);

const enumValue = (values: readonly string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...values) },
    fc.constantFrom(...values).map((v) => v.toUpperCase()),
    fc.constantFrom(...values).map((v) => ` ${v}`),
    fc.constantFrom(...values).map((v) => `${v}s`),
    garbage,
  );

const place = (names: string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...names) },
    fc.constantFrom(...names).map((n) => n.toUpperCase()),
    fc.constantFrom(...names).map((n) => n.normalize('NFD')),
    fc.constantFrom(...names).map((n) => n.slice(0, -1)),
    fc.constantFrom('Doula', 'Yaounde', 'yaoundé', 'Bastos', 'Bonapriso', 'Paris', 'Lagos', 'Douala ', ' ', '%', '_'),
    garbage,
  );

const SORTS = ['-listed_at', 'listed_at', 'price', '-price', 'updated_at'];

function cursorValue(world: FuzzWorld) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(world.cursor) },
    fc
      .nat({ max: world.cursor.length - 1 })
      .map((i) => world.cursor.slice(0, i) + (world.cursor[i] === 'A' ? 'B' : 'A') + world.cursor.slice(i + 1)),
    fc.nat({ max: world.cursor.length - 1 }).map((i) => world.cursor.slice(0, i)),
    fc.constant(`${world.cursor}.${world.cursor}`),
    fc.constant(world.cursor.split('.').reverse().join('.')),
    b62(40).map((s) => `${s}.${s}`),
    fc.string({ unit: 'grapheme-ascii', maxLength: 300 }).map((s) => Buffer.from(s).toString('base64url')),
    fc.constant(Buffer.from(JSON.stringify({ v: 1, k: [1e308, 'lst_x'], t: -1 })).toString('base64url') + '.AAAA'),
    garbage,
  );
}

const listingIdValue = (world: FuzzWorld) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(world.plantedId, world.listingId) },
    lower36(20).map((s) => `lst_${s}`),
    fc.constantFrom(
      'lst_',
      'lst_' + 'a'.repeat(21),
      world.plantedId.toUpperCase(),
      `${world.plantedId}%00`,
      `${world.plantedId}/`,
      '%2e%2e',
      '..',
      '%',
      '%E9',
      '%C3%A9',
      'lst_%00%00',
      '%252F',
    ),
    garbage.map((g) => pct(g)),
  );

type Params = Record<string, fc.Arbitrary<string>>;

const TYPES = ['villa', 'house', 'apartment', 'studio', 'duplex', 'room', 'land', 'office', 'shop', 'warehouse'];
const PURPOSES = ['sale', 'rent', 'furnished_rent'];
const STATUSES = ['active', 'withdrawn', 'sold', 'rented', 'any'];

/** Only values the API accepts (each alone): so that whole requests get past validation and into the handlers. */
function validParamsOf(route: string, world: FuzzWorld): Params {
  const offset = fc
    .record({ sign: fc.constantFrom('+', '-'), h: fc.integer({ min: 0, max: 12 }), m: fc.constantFrom(0, 30, 45) })
    .map(({ sign, h, m }) => `${sign}${pad(h, 2)}:${pad(m, 2)}`);
  const when = fc.oneof(
    fc
      .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    fc
      .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')),
    fc
      .tuple(fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true }), offset)
      .map(([d, o]) => d.toISOString().slice(0, 19) + o),
  );
  const filters: Params = {
    city: fc.oneof(
      fc.constantFrom(...CITIES),
      fc.constantFrom(...CITIES).map((c) =>
        c
          .toLowerCase()
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, ''),
      ),
    ),
    neighborhood: fc.constantFrom(...NEIGHBORHOODS),
    type: fc.constantFrom(...TYPES),
    purpose: fc.constantFrom(...PURPOSES),
    min_price: digits(0, 200_000_000),
    max_price: digits(1_000_000, 10 ** 12),
    min_surface: digits(0, 300),
    max_surface: digits(100, 10 ** 8),
    min_bedrooms: digits(0, 6),
    min_bathrooms: digits(0, 4),
    listed_after: when,
    updated_after: when,
    status: fc.constantFrom(...STATUSES),
    currency: fc.constantFrom('XAF', 'EUR'),
  };
  const pick = (names: string[]) => Object.fromEntries(names.map((n) => [n, filters[n]]));
  switch (route) {
    case 'listings.search':
      return { ...filters, sort: fc.constantFrom(...SORTS), limit: digits(1, 200), cursor: fc.constant(world.cursor) };
    case 'exports.listings':
      return { ...filters, after: fc.constantFrom(world.plantedId, world.listingId) };
    case 'listings.get':
      return pick(['currency']);
    case 'market.stats':
    case 'market.trends':
    case 'market.history':
    case 'valuations.get':
      return pick(['city', 'neighborhood', 'purpose', 'type', 'currency']);
    default:
      return {};
  }
}

function paramsOf(route: string, world: FuzzWorld): Params {
  const filters: Params = {
    city: place(CITIES),
    neighborhood: place(NEIGHBORHOODS),
    type: enumValue(TYPES),
    purpose: enumValue(PURPOSES),
    min_price: wholeNumber(10 ** 15),
    max_price: wholeNumber(10 ** 15),
    min_surface: wholeNumber(10 ** 8),
    max_surface: wholeNumber(10 ** 8),
    min_bedrooms: wholeNumber(1000),
    min_bathrooms: wholeNumber(1000),
    listed_after: instant,
    updated_after: instant,
    status: enumValue(STATUSES),
    currency: enumValue(['XAF', 'EUR']),
  };
  switch (route) {
    case 'listings.search':
      return { ...filters, sort: enumValue(SORTS), limit: limitValue, cursor: cursorValue(world) };
    case 'exports.listings':
      return { ...filters, after: listingIdValue(world) };
    case 'listings.get':
      return { currency: filters.currency };
    case 'market.stats':
      return {
        city: filters.city,
        neighborhood: filters.neighborhood,
        purpose: filters.purpose,
        type: filters.type,
        currency: filters.currency,
      };
    case 'market.trends':
    case 'market.history':
    case 'valuations.get':
      return {
        city: filters.city,
        neighborhood: filters.neighborhood,
        purpose: filters.purpose,
        type: filters.type,
        currency: filters.currency,
        ...(route === 'market.history' ? { bedrooms: filters.min_bedrooms, months: filters.min_bedrooms } : {}),
        ...(route === 'valuations.get' ? { surface: filters.min_surface, bedrooms: filters.min_bedrooms } : {}),
      };
    default:
      return {};
  }
}

/** How one value goes into the query string: encoded as a client would, or not quite. */
const encoding = fc.constantFrom('component', 'component', 'component', 'component', 'plus', 'latin1', 'raw-safe', 'double', 'broken');

function encodeValue(value: string, how: string): string {
  switch (how) {
    case 'plus':
      return pct(value).replace(/%20/g, '+');
    case 'latin1':
      // Each UTF-16 unit as one %XX byte when it fits: invalid UTF-8 on the wire.
      return [...value].map((ch) => (ch.charCodeAt(0) < 256 ? `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}` : pct(ch))).join('');
    case 'raw-safe':
      // As typed, minus what node:http would refuse to put on a request line.
      return printable(value.replace(/\s/g, '')).replace(/[^\u0021-\u00ff]/g, (c) => pct(c));
    case 'double':
      return pct(pct(value));
    case 'broken':
      return `${pct(value)}%${value.length % 2 ? 'G' : ''}`;
    default:
      return pct(value);
  }
}

function queryString(route: string, world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: anyQueryString(paramsOf(route, world)) },
    { weight: 1, arbitrary: validQueryString(validParamsOf(route, world), REQUIRED[route]) },
  );
}

/** A few distinct valid parameters, each given once, encoded as a client would. */
/** Parameters a route answers 2xx only with (the others are optional). */
const REQUIRED: Record<string, string[]> = {
  'market.history': ['city', 'purpose'],
  'valuations.get': ['city', 'type', 'purpose'],
};

function validQueryString(params: Params, required: string[] = []): fc.Arbitrary<string> {
  const names = Object.keys(params);
  if (!names.length) return fc.constant('');
  const optional = names.filter((n) => !required.includes(n));
  return fc
    .uniqueArray(fc.constantFrom(...optional), { maxLength: 3 })
    .map((chosen) => [...required, ...chosen])
    .chain((chosen) => fc.tuple(...chosen.map((name) => params[name].map((value) => `${name}=${pct(value)}`))))
    .map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

function anyQueryString(params: Params): fc.Arbitrary<string> {
  const names = Object.keys(params);
  const known = names.length
    ? fc.constantFrom(...names).chain((name) => fc.tuple(fc.constant(name), params[name], encoding))
    : fc.tuple(fc.constantFrom('limit', 'city'), garbage, encoding);
  const unknown = fc.tuple(
    fc.oneof(
      fc.constantFrom(
        'q',
        'page',
        'offset',
        'sort_by',
        'City',
        'limit ',
        'cursor[]',
        'city[0]',
        'a[b]',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        '',
        '=',
        '&',
      ),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    ),
    garbage,
    encoding,
  );
  const pair = fc.oneof({ weight: 8, arbitrary: known }, { weight: 1, arbitrary: unknown });
  return fc
    .record({
      pairs: fc.array(pair, { maxLength: 6 }),
      repeat: fc.boolean(),
      shape: fc.constantFrom('plain', 'plain', 'plain', 'plain', 'bare-name', 'empty-pairs', 'semicolons', 'trailing-amp', 'no-query'),
    })
    .map(({ pairs, repeat, shape }) => {
      if (shape === 'no-query') return '';
      const list = repeat && pairs.length ? [...pairs, pairs[0]] : pairs;
      const parts = list.map(
        ([name, value, how]) => `${encodeValue(name, how === 'latin1' ? 'component' : how)}=${encodeValue(value, how)}`,
      );
      if (shape === 'bare-name' && list.length) parts.push(pct(list[0][0]));
      if (shape === 'empty-pairs') parts.splice(0, 0, '', '=', '&');
      const query = shape === 'semicolons' ? parts.join(';') : parts.join('&');
      return shape === 'trailing-amp' ? `?${query}&` : query === '' ? '' : `?${query}`;
    });
}

const ROUTES: Array<{ route: string; weight: number; path: (world: FuzzWorld) => fc.Arbitrary<string> }> = [
  { route: 'listings.search', weight: 28, path: () => fc.constant('/api/v1/listings') },
  { route: 'listings.get', weight: 12, path: (w) => listingIdValue(w).map((id) => `/api/v1/listings/${id}`) },
  { route: 'market.stats', weight: 12, path: () => fc.constant('/api/v1/market/stats') },
  { route: 'market.trends', weight: 10, path: () => fc.constant('/api/v1/market/trends') },
  { route: 'market.history', weight: 6, path: () => fc.constant('/api/v1/market/history') },
  { route: 'valuations.get', weight: 12, path: () => fc.constant('/api/v1/valuations') },
  { route: 'exports.listings', weight: 5, path: () => fc.constant('/api/v1/exports/listings') },
  { route: 'ping', weight: 6, path: () => fc.constant('/api/v1/ping') },
  { route: 'openapi', weight: 2, path: () => fc.constant('/api/v1/openapi.json') },
  { route: 'healthz', weight: 3, path: () => fc.constant('/healthz') },
  { route: 'readyz', weight: 3, path: () => fc.constant('/readyz') },
  {
    route: 'unmatched',
    weight: 6,
    path: () =>
      fc.oneof(
        fc.constantFrom(
          '/api/v1/listings/',
          '/api/v1/',
          '/api/v1',
          '/api/',
          '/api/v2/listings',
          '/api/v1/LISTINGS',
          '/api/v1/Listings/lst_aaaaaaaaaaaaaaaaaaaa',
          '/api/v1/listings/../ping',
          '/api/v1/%2e%2e/ping',
          '/api/v1/listings/lst_aaaaaaaaaaaaaaaaaaaa/history',
          '//api/v1/ping',
          '/api/v1//ping',
          '/api/v1/ping;x=1',
          '/api/v1/ping/',
          '/api/v1/market',
          '/api/v1/market/stats/',
          '/api/v1/exports',
          '/api/v1/%00',
          '/api/v1/%',
          '/api/v1/%E9',
          '/healthz/x',
          '/readyz.json',
          '/nowhere',
          '/api/v1/' + 'x'.repeat(3000),
        ),
        fc
          .array(fc.oneof(lower36(6), fc.string({ unit: 'grapheme', maxLength: 8 }).map(pct)), { minLength: 1, maxLength: 4 })
          .map((s) => `/api/v1/${s.join('/')}`),
      ),
  },
];

function keyHeader(world: FuzzWorld): fc.Arbitrary<string | string[] | undefined> {
  const valid = Object.values(world.keys.valid).flat();
  const anyValid = fc.constantFrom(...valid);
  const byKind = Object.entries(world.keys.valid).map(([kind, keys]) => ({
    weight: kind === 'enterprise' ? 20 : 4,
    arbitrary: fc.constantFrom(...keys),
  }));
  return fc.oneof(
    { weight: 40, arbitrary: fc.oneof(...byKind) },
    { weight: 4, arbitrary: fc.constantFrom(...world.keys.refused) },
    { weight: 8, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom('', ' ', '\t') },
    { weight: 3, arbitrary: b62(32).map((s) => `mboa_live_${s}`) },
    { weight: 2, arbitrary: b62(32).map((s) => `mboa_test_${s}`) },
    { weight: 2, arbitrary: anyValid.map((k) => ` ${k} `) },
    { weight: 2, arbitrary: anyValid.map((k) => k.slice(0, -1)) },
    { weight: 2, arbitrary: anyValid.map((k) => `${k}x`) },
    { weight: 2, arbitrary: anyValid.map((k) => k.toUpperCase()) },
    { weight: 2, arbitrary: anyValid.map((k) => [k, k]) },
    { weight: 1, arbitrary: fc.tuple(anyValid, anyValid).map(([a, b]) => `${a},${b}`) },
    { weight: 1, arbitrary: fc.constantFrom('Bearer x', 'null', 'mboa_live_', 'mboa_live_' + 'x'.repeat(5000), 'mboa_live_%41%41') },
    // Header values go out as bytes: unicode as its UTF-8 bytes, read back as Latin-1.
    { weight: 3, arbitrary: anyText.map((s) => printable(Buffer.from(s, 'utf8').toString('latin1'), '\t')) },
  );
}

const acceptEncoding = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  fc.constantFrom(
    'gzip',
    'br',
    'deflate',
    'gzip, deflate, br',
    'br;q=1.0, gzip;q=0.8, *;q=0.1',
    '*',
    'identity',
    'identity;q=0',
    '*;q=0',
    'zstd',
    'gzip;q=abc',
    'compress',
    ',,,',
    'x'.repeat(500),
  ),
);

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'accept',
    'x-request-id',
    'content-type',
    'range',
    'if-none-match',
    'origin',
    'x-forwarded-for',
    'x-forwarded-proto',
    'cookie',
    'authorization',
    'expect',
    'x-http-method-override',
    'accept-language',
    'user-agent',
  ),
  fc.oneof(
    fc.constantFrom(
      'application/json',
      'text/html',
      '*/*',
      'application/problem+json',
      'bytes=0-10',
      'bytes=-5',
      '*',
      'https://evil.example',
      '127.0.0.1, 10.0.0.1',
      'https',
      'POST',
      'DELETE',
      'fr-CM,fr;q=0.9',
      'req_abcdefgh12345678',
      'short',
      'x'.repeat(80),
      'mboa_session=abc',
      'Bearer abc',
      '100-continue',
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => printable(s)),
  ),
  { maxKeys: 3 },
);

const method = fc.oneof(
  { weight: 20, arbitrary: fc.constant('GET') },
  { weight: 4, arbitrary: fc.constant('HEAD') },
  { weight: 4, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'SEARCH', 'QUERY') },
);

function httpRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const route = fc.oneof(
    ...ROUTES.map((r) => ({ weight: r.weight, arbitrary: fc.tuple(fc.constant(r.route), r.path(world), queryString(r.route, world)) })),
  );
  return fc
    .record({
      target: route,
      method,
      key: keyHeader(world),
      acceptEncoding,
      extra: extraHeaders,
      body: fc.option(fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('{"city":"Douala"}', 'city=Douala', '\u0000\u0001')), {
        freq: 8,
        nil: undefined,
      }),
      close: fc.boolean(),
    })
    .map(({ target: [route, path, query], method, key, acceptEncoding, extra, body, close }) => {
      const headers: Record<string, string | string[]> = { ...extra };
      if (key !== undefined) headers['x-api-key'] = key;
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      if (close) headers.connection = 'close';
      if (body !== undefined && method !== 'GET' && method !== 'HEAD') headers['content-type'] ??= 'application/json';
      return {
        via: 'http' as const,
        route,
        method,
        path: `${path}${query}`,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
      };
    });
}

/** Bytes no HTTP client sends: raw UTF-8 and Latin-1 in the URL, broken request lines, bad headers, huge headers. */
function rawRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const key = fc.constantFrom(...Object.values(world.keys.valid).flat());
  const target = fc.oneof(
    fc.constantFrom(
      '/api/v1/market/stats?city=Yaoundé',
      '/api/v1/listings?city=Ngaoundéré&limit=2',
      '/api/v1/listings?city=Dou ala',
      '/api/v1/ping',
      '/healthz',
      '/readyz',
    ),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => `/api/v1/listings?city=${Buffer.from(bytes).toString('latin1')}`),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => `/api/v1/market/stats?neighborhood=${s}`),
  );
  const line = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(fc.constantFrom('GET', 'HEAD', 'POST'), target, fc.constant('HTTP/1.1')).map(([m, t, v]) => `${m} ${t} ${v}`),
    },
    fc
      .tuple(target, fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'HTTP/9.9', 'http/1.1', ''))
      .map(([t, v]) => `GET ${t} ${v}`.trimEnd()),
    fc.constantFrom(
      'GET',
      'GET /api/v1/ping',
      '/api/v1/ping HTTP/1.1',
      'G\u00c9T /api/v1/ping HTTP/1.1',
      'GET\t/api/v1/ping\tHTTP/1.1',
      'GET  /api/v1/ping  HTTP/1.1',
      'CONNECT localhost:80 HTTP/1.1',
      'GET * HTTP/1.1',
      'GET http://evil.example/api/v1/ping HTTP/1.1',
      '\u0000\u0001\u0002',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, '')),
  );
  const header = fc.oneof(
    { weight: 4, arbitrary: key.map((k) => `X-API-Key: ${k}`) },
    fc.constantFrom(
      'Host: localhost',
      'Accept-Encoding: gzip, br',
      'X-API-Key : mboa_live_x',
      'X API Key: x',
      'X-API-Key: \u00e9\u00e9',
      'X-API-Key:\u0007bell',
      ' folded: continued',
      'Content-Length: 5',
      'Content-Length: -1',
      'Content-Length: abc',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked, identity',
      'Content-Length: 0\r\nContent-Length: 7',
      `X-Big: ${'a'.repeat(17_000)}`,
      ': no-name',
      'NoColon',
      'Expect: 100-continue',
      'Upgrade: websocket\r\nConnection: Upgrade',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')),
  );
  return fc.record({ line, headers: fc.array(header, { maxLength: 3 }), lf: fc.boolean() }).map(({ line, headers, lf }) => {
    const eol = lf ? '\n' : '\r\n';
    const raw = [line, 'Host: localhost', ...headers, 'Connection: close', '', ''].join(eol);
    return { via: 'raw' as const, route: 'raw', method: line.split(/\s/)[0] ?? '', path: line, headers: {}, raw };
  });
}

/** Requests of every kind: mostly well-formed HTTP over every route, some raw bytes. */
export function fuzzRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 19, arbitrary: httpRequest(world) }, { weight: 1, arbitrary: rawRequest(world) });
}

/** Every route the generator aims at (the API's, by contract name, and the operations endpoints). */
export const FUZZED_ROUTES = ROUTES.map((r) => r.route);
