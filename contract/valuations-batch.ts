/**
 * `POST /valuations/batch`: many subjects valued in one call (a loan book), each answered
 * in order with the single valuation's `data` or its own error, counted once per subject
 * valued. Declared apart from valuations.ts, which describes one valuation.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ERROR_CODE_NAMES, ZFieldError } from './errors.js';
import { oneOf } from './params.js';
import { ZSingleMeta } from './schemas.js';
import { ZValuation } from './valuations.js';

/** Most subjects in one batch (the SDK pages a longer list in batches of this size). */
export const VALUATION_BATCH_MAX = 1000;
/** Largest body of a batch: 1,000 subjects of about 200 bytes each fit with room to spare. */
export const VALUATION_BATCH_BODY_BYTES = 1024 * 1024;
/** Subjects above which a batch is a heavy read, and the subjects per unit of its cost. */
export const VALUATION_BATCH_SUBJECTS_PER_UNIT = 100;

export const ZValuationBatchBody = z
  .object({
    subjects: extendApi(
      z
        .array(z.unknown())
        .min(1, 'must hold at least one subject')
        .max(
          VALUATION_BATCH_MAX,
          `holds more than ${VALUATION_BATCH_MAX.toLocaleString('en-US')} subjects: send at most ${VALUATION_BATCH_MAX.toLocaleString('en-US')} per batch (the SDK's valuations.batch() pages a longer list)`,
        ),
      {
        description: `1 to ${VALUATION_BATCH_MAX.toLocaleString('en-US')} subjects, each an object with the parameters of \`GET /valuations\` (\`city\`, \`neighborhood\`, \`near\` or \`lat\` and \`lng\`, \`type\`, \`purpose\`, \`bedrooms\`… or \`listing_id\`), as JSON strings, numbers or booleans. A subject that is not valid gets its own error; the others are valued.`,
        example: [
          { city: 'Douala', neighborhood: 'Bonapriso', type: 'apartment', purpose: 'rent', bedrooms: 3 },
          { city: 'Yaoundé', near: '3.8667,11.5167', type: 'house', purpose: 'sale' },
        ],
      },
    ),
  })
  .strict();

export const ZValuationBatchError = z.object({
  code: extendApi(oneOf(ERROR_CODE_NAMES), {
    description: 'The problem code the single `GET /valuations` would have answered.',
    example: 'insufficient_data',
  }),
  message: extendApi(z.string(), {
    description: 'What is wrong, for a human (the `detail` of the single answer).',
    example: 'city: is required without listing_id',
  }),
  errors: extendApi(z.array(ZFieldError), { description: 'One entry per parameter at fault (empty when the problem is not a parameter).' }),
});

export const ZValuationBatchItem = z.union([
  z.object({
    index: extendApi(z.number().int().min(0), { description: 'Position of the subject in the request (0 first).', example: 0 }),
    status: extendApi(z.literal(200), { description: 'Valued: `data` is the single answer’s `data`.' }),
    data: ZValuation,
  }),
  z.object({
    index: extendApi(z.number().int().min(0), { description: 'Position of the subject in the request (0 first).', example: 1 }),
    status: extendApi(z.number().int().min(400), {
      description: 'The status the single `GET /valuations` would have answered.',
      example: 422,
    }),
    error: ZValuationBatchError,
  }),
]);

export const ZValuationBatchResponse = z.object({
  data: extendApi(z.array(ZValuationBatchItem), { description: 'One answer per subject, in the order of the request.' }),
  meta: ZSingleMeta.extend({
    subjects: extendApi(z.number().int().min(0), { description: 'Subjects in the request.', example: 1000 }),
    valued: extendApi(z.number().int().min(0), { description: 'Subjects valued: the calls counted in the quota.', example: 987 }),
  }),
});
