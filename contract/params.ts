/**
 * Builders of query parameters. A query string carries text: each builder says exactly
 * which text it accepts, so that the server, the OpenAPI document and the README agree
 * (`min_price=1e3`, `0x10`, `+5` or ` 5` are not whole numbers written in digits).
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { CURRENCIES } from './currency.js';
import { INSTANT_MAX_YEAR, INSTANT_MIN_YEAR, INSTANT_PATTERN, parseInstant } from './instants.js';

/** An enum whose error lists the allowed values: `must be one of: sale, rent, furnished_rent`. */
export function oneOf<const T extends string>(values: readonly [T, ...T[]]) {
  return z.enum(values as [T, ...T[]], {
    errorMap: (issue, ctx) =>
      issue.code === 'invalid_enum_value' ? { message: `must be one of: ${values.join(', ')}` } : { message: ctx.defaultError },
  });
}

/** The canonical spelling of an enum value given in any case (`Villa`, `EUR`, `-PRICE`); anything else as given. */
function canonicalOf<T extends string>(values: readonly T[], value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const folded = value.trim().toLowerCase();
  return values.find((v) => v.toLowerCase() === folded) ?? value;
}

/**
 * A query parameter taking one of `values`, in any case: `type=Villa` is `villa`,
 * `currency=eur` is `EUR`. Typed clients see the enum itself.
 */
export function enumParam<const T extends string>(values: readonly [T, ...T[]]) {
  const schema = z.preprocess((value) => canonicalOf(values, value), oneOf(values));
  return schema as unknown as z.ZodEffects<z.ZodEnum<[T, ...T[]]>, T, T>;
}

/** The values of each list parameter (see `enumListParam`), for the OpenAPI document. */
const LIST_VALUES = new WeakMap<z.ZodTypeAny, readonly string[]>();

/** The values a list parameter takes, through `.optional()`; undefined for any other schema. */
export function listParamValues(schema: z.ZodTypeAny): readonly string[] | undefined {
  let s: z.ZodTypeAny = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s._def.innerType as z.ZodTypeAny;
  return LIST_VALUES.get(s);
}

/**
 * A query parameter taking one or several of `values`, in any case, separated by commas
 * (`purpose=sale,rent`): a listing matches any of them. Parsed as the sorted list of the
 * distinct values; typed clients pass one value or an array (written with commas).
 */
export function enumListParam<const T extends string>(values: readonly [T, ...T[]], description: string) {
  const allowed = `must be one or more of: ${values.join(', ')} (several separated by commas)`;
  const item = oneOf(values);
  const list = z
    .union([item, z.array(item).min(1, allowed)], {
      errorMap: (issue, ctx) => (issue.code === 'invalid_union' ? { message: allowed } : { message: ctx.defaultError }),
    })
    .transform((v) => [...new Set(Array.isArray(v) ? v : [v])].sort());
  const schema = z.preprocess((value, ctx) => {
    if (typeof value === 'string') return value.split(',').map((v) => canonicalOf(values, v));
    if (Array.isArray(value)) {
      // On the wire a repeated parameter (`purpose=sale&purpose=rent`): one, with commas, is the form.
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be given once; ${allowed.replace('must be ', '')}` });
      return z.NEVER;
    }
    return value;
  }, list);
  const documented = extendApi(schema, {
    description: `${description} One value or several separated by commas (\`${values[0]},${values[1]}\`), in any case.`,
    example: values[0],
  }) as unknown as z.ZodEffects<typeof list, T[], T | T[]>;
  LIST_VALUES.set(documented, values);
  return documented;
}

const DIGITS = /^[0-9]+$/;

/**
 * A whole number from `min` to `max`, written in decimal digits only. Typed clients pass
 * numbers (the SDK writes them out in digits), hence the input type `number`; on the wire
 * the value is text, checked here before it becomes a number.
 */
export function wholeNumber(min: number, max: number) {
  const range = `must be between ${min} and ${max}`;
  const schema = z.preprocess(
    (value, ctx) => {
      if (typeof value === 'number') return value;
      if (typeof value === 'string' && DIGITS.test(value)) return Number(value);
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: Array.isArray(value)
          ? 'must be given once'
          : 'must be a whole number written in digits (no sign, decimal point or exponent)',
      });
      return z.NEVER;
    },
    z.number().int('must be a whole number').min(min, range).max(max, range),
  );
  return schema as unknown as z.ZodEffects<z.ZodNumber, number, number>;
}

/** A whole-number parameter with its documentation. */
export const wholeNumberParam = (description: string, example: number, min: number, max: number) =>
  extendApi(wholeNumber(min, max), {
    description: `${description} A whole number written in digits, ${min} to ${max.toLocaleString('en-US')}.`,
    example,
  });

/**
 * A string parameter's own type check: on the wire a repeated parameter (`city=a&city=b`)
 * arrives as a list, which is said as such rather than as the schema library's type names.
 */
const oneString = () =>
  z.string({
    errorMap: (issue, ctx) =>
      issue.code === 'invalid_type' && issue.received === 'array' ? { message: 'must be given once' } : { message: ctx.defaultError },
  });

/** A free-text parameter (a place name). */
export const textParam = (description: string, example: string) =>
  extendApi(oneString().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'), { description, example });

/** A date or timestamp parameter, checked as a real instant (see instants.ts). */
export const instantParam = (description: string, example: string) =>
  extendApi(
    oneString().superRefine((value, ctx) => {
      const parsed = parseInstant(value);
      if (!parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: parsed.message });
    }),
    {
      description:
        `${description} A date (\`2026-11-01\`, midnight UTC) or a timestamp with \`Z\` or a UTC offset ` +
        `(\`2026-11-01T08:30:00+01:00\`; offsets from -12:00 to +14:00, seconds required, up to 9 decimals). ` +
        `Years ${INSTANT_MIN_YEAR} to ${INSTANT_MAX_YEAR}; the day must exist. Anything else is a 400 naming the parameter.`,
      example,
      pattern: INSTANT_PATTERN,
    },
  );

/** `currency`: the currency of every amount in the answer. */
export const currencyParam = (amounts: string) =>
  extendApi(enumParam(CURRENCIES), {
    description:
      `Currency of ${amounts} in the answer: \`XAF\` (default, whole francs) or \`EUR\` (at the fixed parity ` +
      '655.957 XAF = 1 EUR, each amount rounded half up to the cent).',
    example: 'EUR',
  }).default('XAF');
