/**
 * `POST /valuations/batch`: many subjects valued as `GET /valuations` values one (Enterprise).
 * Each subject is checked like the single call's query (its schema, control characters,
 * places) and valued with the same code; its refusal (400, 404, 422) is its own item, never
 * the batch's. A batch is valued with one model and at one instant throughout, and the
 * candidates of a cell (city, quarter, purpose, type) are read once for all its subjects.
 *
 * Counting: the chain admitted one call, counted once the answer is out; each further
 * subject valued takes one more call of the quota (not of the per-minute limit), settled
 * with the answer. A batch that valued nothing frees its call. When the quota runs out,
 * the subjects valued past it are answered `quota_exceeded` instead, uncharged.
 */
import type { contract } from '../../../contract/router.js';
import { ZValuationQuery } from '../../../contract/valuations.js';
import type { z } from 'zod';
import type { ZValuationBatchItem } from '../../../contract/valuations-batch.js';
import { ApiError } from '../../platform/errors.js';
import type { Admission, Ticket } from '../../quota/admission.js';
import { effectiveFilters } from '../../domain/listing/filters.js';
import type { Model } from '../../domain/valuations/model.js';
import { candidateRows, type CandidateRow } from '../../domain/valuations/sql.js';
import { type CandidateSource, valuation as valueOne } from '../../domain/valuations/valuation.js';
import { callMeta, type RequestContext } from '../context.js';
import type { ApiResponse, RouteHandler } from '../handler.js';
import { controlCharacterErrors, validationProblemOf } from '../problem.js';
import type { Reader } from '../reader.js';

type Item = z.infer<typeof ZValuationBatchItem>;

/** Subjects valued at once: each holds a connection for its few reads; the pool queues the rest. */
const CONCURRENCY = 4;
/** The single call's parameter names, for the suggestions of an unknown one. */
const PARAMETERS = Object.keys(ZValuationQuery.innerType().shape);

const errorItem = (index: number, err: ApiError): Item => ({
  index,
  status: err.status,
  error: { code: err.code, message: err.detail, errors: err.options.errors ?? [] },
});

/** What every subject of a batch shares: one model, one instant, and the candidates of each cell read once. */
interface BatchRun {
  reader: Reader;
  model: Model;
  now: Date;
  rowsOf: CandidateSource;
}

/** The candidates SQL, each cell (city, quarter, purpose, type, listing left out) read once per batch. */
function memoisedCandidates(): CandidateSource {
  const memo = new Map<string, Promise<CandidateRow[]>>();
  return (data, where, asOf) => {
    const key = JSON.stringify([where.cityKey, where.neighborhoodKey, where.purpose, where.type, where.excludeId]);
    let rows = memo.get(key);
    if (!rows) memo.set(key, (rows = candidateRows(data, where, asOf)));
    return rows;
  };
}

/** One subject's answer: its value, or the refusal the single call would have answered. */
async function answerOne(subject: unknown, index: number, { reader, model, now, rowsOf }: BatchRun): Promise<Item> {
  if (subject === null || typeof subject !== 'object' || Array.isArray(subject)) {
    const message = 'must be an object with the parameters of GET /valuations';
    return errorItem(index, new ApiError('validation_error', `subject: ${message}`, { errors: [{ path: 'subject', message }] }));
  }
  const raw = subject as Record<string, unknown>;
  const control = controlCharacterErrors(raw);
  const query = ZValuationQuery.safeParse(raw);
  // As the single call: a quarter the gazetteer lacks is valued at its city's level.
  const refused = new Set(['neighborhood', ...control.map((e) => e.path)]);
  if (!query.success) for (const issue of query.error.issues) refused.add(String(issue.path[0]));
  const places = await reader.places.errorsOfQuery(raw, refused);
  if (!query.success || control.length > 0 || places.length > 0) {
    const problem = validationProblemOf({ path: null, query: query.success ? null : query.error, control, places }, PARAMETERS);
    return errorItem(index, problem);
  }
  try {
    // The filters exactly as the front handler works them out for the single call.
    const data = await valueOne(reader.data, query.data, effectiveFilters(query.data as never), model, now, rowsOf);
    return { index, status: 200, data };
  } catch (err) {
    // A subject's own refusal; anything else (the database away) fails the batch, uncharged.
    if (err instanceof ApiError && err.status < 500) return errorItem(index, err);
    throw err;
  }
}

async function answerAll(subjects: unknown[], run: BatchRun): Promise<Item[]> {
  const items: Item[] = new Array<Item>(subjects.length);
  let next = 0;
  const worker = async () => {
    while (next < subjects.length) {
      const i = next++;
      items[i] = await answerOne(subjects[i], i, run);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, subjects.length) }, worker));
  return items;
}

const QUOTA_GONE = (ctx: RequestContext) =>
  new ApiError(
    'quota_exceeded',
    `Monthly quota of ${ctx.caller!.monthlyQuota} calls used up during this batch: this subject was not valued nor charged. It resets at ${ctx.quota?.resets_at}.`,
  );

/**
 * Takes one call of the quota per subject valued beyond the first (the chain's call), settled
 * with the answer; the valued subjects past the quota become `quota_exceeded` items. Returns
 * how many stay valued.
 */
async function charge(items: Item[], admission: Admission, ctx: RequestContext, res: ApiResponse): Promise<number> {
  const valued = items.filter((it) => it.status === 200);
  // A test key's calls and the explorer's are never counted.
  if (!ctx.ticket) return valued.length;
  if (valued.length === 0) {
    void admission.settle(ctx.ticket, false);
    return 0;
  }
  const caller = { ...ctx.caller!, ratePerMinute: null };
  const now = new Date();
  // Only what the quota has left is asked for: a call past it would wait for calls in flight before being refused.
  let wanted = valued.length - 1;
  if (caller.monthlyQuota !== null) wanted = Math.min(wanted, Math.max(0, caller.monthlyQuota - (await admission.peek(caller, now))));
  const more = await Promise.all(Array.from({ length: wanted }, () => admission.admit(caller, 'valuations.batch', true, now)));
  const tickets = more.flatMap((m) => (m.outcome === 'admitted' && m.ticket ? [m.ticket] : []));
  const kept = 1 + tickets.length;
  for (const it of valued.slice(kept)) items[it.index] = errorItem(it.index, QUOTA_GONE(ctx));
  const first = ctx.onEnd;
  const settleAll = (answered: boolean) => tickets.forEach((t: Ticket) => void admission.settle(t, answered));
  ctx.onEnd = (finished) => {
    first?.(finished);
    settleAll(finished && res.statusCode >= 200 && res.statusCode < 300);
  };
  return kept;
}

export const valuationBatch =
  (admission: Admission): RouteHandler<typeof contract.valuations.batch> =>
  async ({ body, reader, ctx, res }) => {
    // The model in hand, or a 503 valuations_warming_up at once for the whole batch.
    const model = reader.valuations.model();
    const items = await answerAll(body.subjects, { reader, model, now: new Date(), rowsOf: memoisedCandidates() });
    const valued = await charge(items, admission, ctx, res);
    return { status: 200 as const, body: { data: items, meta: { ...callMeta(ctx), subjects: items.length, valued } } };
  };
