/** The route of `POST /valuations/batch`, declared apart from router.ts to keep it readable. */
import { ZProblem } from './errors.js';
import type { EndpointName } from './plans.js';
import {
  VALUATION_BATCH_BODY_BYTES,
  VALUATION_BATCH_MAX,
  VALUATION_BATCH_SUBJECTS_PER_UNIT,
  ZValuationBatchBody,
  ZValuationBatchResponse,
} from './valuations-batch.js';

const n = (x: number) => x.toLocaleString('en-US');

export function valuationBatchRoute<M extends object>(meta: (endpoint: EndpointName) => M) {
  return {
    method: 'POST' as const,
    path: '/valuations/batch',
    body: ZValuationBatchBody,
    responses: { 200: ZValuationBatchResponse, 413: ZProblem, 415: ZProblem },
    summary: 'Value many properties in one call',
    description: [
      `Up to ${n(VALUATION_BATCH_MAX)} subjects valued in one call (a loan book, a portfolio), each exactly as \`GET /valuations\` would value it. The body is JSON (\`{"subjects": [...]}\`, \`Content-Type: application/json\`) or NDJSON (\`Content-Type: application/x-ndjson\`, one subject object per line), at most ${n(VALUATION_BATCH_BODY_BYTES / 1024)} kB; each subject takes the parameters of \`GET /valuations\` (\`near\` or \`lat\` and \`lng\` for a point, or \`listing_id\`). More than ${n(VALUATION_BATCH_MAX)} subjects is a 400 saying so (the SDK's \`valuations.batch()\` pages a longer list).`,
      '',
      "**Answers.** `data` holds one item per subject, in the request's order, with its `index`: `status: 200` and the single answer's `data`, or the status the single call would have answered and its own `error` (`code`, `message`, `errors` per parameter: an unknown place, too few comparables, a point outside its city). One subject's error never fails the others.",
      '',
      `**Counting.** One call of the quota per subject valued (\`meta.valued\`); subjects answered with an error are not charged, and a batch where none is valued costs nothing. Should the quota run out during the batch, the subjects past it are answered 429 \`quota_exceeded\`, not charged.`,
      '',
      `**Cost.** A batch of more than ${n(VALUATION_BATCH_SUBJECTS_PER_UNIT)} subjects is a heavy read of one unit per started ${n(VALUATION_BATCH_SUBJECTS_PER_UNIT)} subjects (10 for ${n(VALUATION_BATCH_MAX)}), on the heavy reads' own connections, so batches never slow single calls. Enterprise only.`,
    ].join('\n'),
    metadata: {
      ...meta('valuations.batch'),
      bodyLimitBytes: VALUATION_BATCH_BODY_BYTES,
      ndjsonField: 'subjects',
    },
  };
}
