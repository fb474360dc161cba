/**
 * `/api/v1`, answered in front of the Express app. Every paid call takes this path, so it
 * does the least it can: an exact route table built from the ts-rest contract, the path
 * and query checked with the route's own zod schemas, the request chain (key, plan, rate
 * limit, quota), the handler, one JSON write. Express, which serves the dashboard, the
 * reference and the operations endpoints, costs about 60 µs of CPU per request here before
 * any work (bench/README.md): more than the whole API chain, and the difference between
 * meeting the bare server's throughput or not. Answers and errors are the same either way
 * (one problem writer, one request start).
 *
 * What every route of a kind needs is done here once, where the route table is read: for a
 * route whose query names places (`city`, `neighborhood`), the places are checked with the
 * other parameters, before admission (an unknown one is a 400 with suggestions, in the same
 * answer as any other mistake, never charged) and the filters worked out as the database
 * applies them. A handler receives them as arguments, with the dataset its
 * caller's key reads (`reader`), and is typed by the contract (`defineHandlers`): a
 * route's query and params as its schemas parse them, its 200 body as declared.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { parse as parseQuery } from 'node:querystring';
import { type AppRoute, type AppRouter, isAppRoute, type ServerInferRequest, type ServerInferResponses } from '@ts-rest/core';
import { ZodEffects, ZodObject, type ZodTypeAny } from 'zod';
import type { RouteInputs, RouteMetadata } from '../../contract/router.js';
import { ApiError, NotReadyError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Metrics } from '../platform/metrics.js';
import type { Readiness } from '../platform/readiness.js';
import type { Drain } from '../http/drain.js';
import type { Admission } from '../quota/admission.js';
import type { FailureLog } from '../platform/failure-log.js';
import type { HeavyReads } from '../quota/heavy-reads.js';
import { countsAgainstAvailability } from '../accounts/availability.js';
import { costOf, HEAVY_CAPS, type ReadKind } from './costs.js';
import { heavyRefusal } from './heavy-refusal.js';
import type { RequestContext } from './context.js';
import { type EffectiveFilters, effectiveFilters } from '../domain/listing/filters.js';
import type { Reader } from './reader.js';
import { controlCharacterErrors, releaseOnError, toApiError, validationProblemOf, writeProblem } from './problem.js';
import { startRequest } from '../http/request-start.js';
import { AnswerHeaders } from '../http/answer-headers.js';
import { readRouteBody, routeForMethod } from './request-body.js';

/** What the request chain and handlers see of a request. */
export interface ApiRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  raw: IncomingMessage;
}

export type ApiResponse = ServerResponse & { locals: RequestContext };

type Input<R extends AppRoute> = ServerInferRequest<R>;
export type RouteHandler<R extends AppRoute> = (args: {
  query: 'query' extends keyof Input<R> ? Input<R>['query'] : Record<string, never>;
  params: 'params' extends keyof Input<R> ? Input<R>['params'] : Record<string, never>;
  /** The JSON body as the route's schema parses it (routes that take one). */
  body: 'body' extends keyof Input<R> ? Input<R>['body'] : undefined;
  /** The query's filters as the database applies them, its places checked (none for a route without places). */
  filters: EffectiveFilters;
  /** The dataset the caller's key reads: the live data, or the public sample for a test key. */
  reader: Reader;
  ctx: RequestContext;
  req: ApiRequest;
  res: ApiResponse;
}) => Promise<ServerInferResponses<R, 200 | 201> | { status: 'streamed' }>;

export type Handlers<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteHandler<T[K]> : T[K] extends AppRouter ? Handlers<T[K]> : never;
};

/** Type-checks an implementation of every route of the contract. */
export function defineHandlers<T extends AppRouter>(_contract: T, handlers: Handlers<T>): Handlers<T> {
  return handlers;
}

export type Chain = (req: ApiRequest, res: ApiResponse, metadata: RouteMetadata) => Promise<void>;

interface CompiledRoute {
  route: AppRoute;
  metadata: RouteMetadata;
  handler: RouteHandler<AppRoute>;
  segments: string[];
  /** What its contract entry declares resolved before the handler (places checked, filters worked out). */
  inputs: RouteInputs | undefined;
  /** Its query parameters' names, for the suggestions of an unknown one. */
  parameters: string[];
  /** Its 200 is a stream of another media type (NDJSON), compressed for speed rather than size. */
  streaming: boolean;
}

/** The names of a route's query parameters (through its refinements). */
function queryParameterNames(route: AppRoute): string[] {
  let schema = route.query as ZodTypeAny | null | undefined;
  while (schema instanceof ZodEffects) schema = schema.innerType() as ZodTypeAny;
  return schema instanceof ZodObject ? Object.keys(schema.shape as object) : [];
}

function compile(contract: AppRouter, handlers: Record<string, unknown>, out: CompiledRoute[] = []): CompiledRoute[] {
  for (const [name, node] of Object.entries(contract)) {
    if (isAppRoute(node)) {
      const handler = handlers[name];
      if (typeof handler !== 'function') throw new Error(`no handler for route ${name}`);
      const ok = (node.responses as Record<number, unknown>)[200];
      const streaming = typeof ok === 'object' && ok !== null && 'contentType' in ok;
      const parameters = queryParameterNames(node);
      const inputs = (node.metadata as RouteMetadata).inputs;
      // A place named but never checked would reach the database as typed: refused at start-up.
      if (!inputs && (parameters.includes('city') || parameters.includes('neighborhood'))) {
        throw new Error(`route ${node.path} takes places but declares no inputs in its contract metadata`);
      }
      out.push({
        route: node,
        metadata: node.metadata as RouteMetadata,
        handler: handler as RouteHandler<AppRoute>,
        segments: node.path.split('/'),
        inputs,
        parameters,
        streaming,
      });
    } else {
      compile(node as AppRouter, handlers[name] as Record<string, unknown>, out);
    }
  }
  return out;
}

function match(route: CompiledRoute, segments: string[]): Record<string, string> | null {
  if (route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const expected = route.segments[i];
    if (!expected.startsWith(':')) {
      if (expected !== segments[i]) return null;
      continue;
    }
    if (segments[i] === '') return null;
    try {
      params[expected.slice(1)] = decodeURIComponent(segments[i]);
    } catch {
      return null;
    }
  }
  return params;
}

export interface ApiHandlerDeps {
  contract: AppRouter;
  handlers: object;
  /** Who calls and whether the plan includes the route (before the request is validated). */
  identify: Chain;
  /** Rate limit and quota (only for valid requests: a 400 never takes a slot). */
  admit: Chain;
  /** The quota as it stands, for an invalid request's answer. */
  showQuota: Chain;
  admission: Admission;
  /** 5xx answers per account, for the availability it is shown. */
  failures: FailureLog;
  /** What a live key's calls read, and a test key's. */
  readers: { live: Reader; sample: Reader };
  /** Heavy reads' own pool (api/costs.ts), and their admission per account. */
  heavyPool: pg.Pool;
  heavyReads: HeavyReads;
  /** The statement timeout of each kind of read (ms), as its pool has it. */
  statementTimeouts: Record<ReadKind, number>;
  drain: Drain;
  readiness: Readiness;
  logger: Logger;
  metrics: Metrics;
  /** Whether a request came over https (directly, or through a trusted proxy). */
  isSecure: (req: IncomingMessage) => boolean;
  /** gzip or brotli, Express-middleware style; called only when the client accepts one. */
  compress: Compress;
  /** The same at the fastest levels, for streams (a bulk export must not wait on the compressor). */
  compressStream: Compress;
  /** Paths under the prefix that the Express app serves (the OpenAPI document). */
  passThrough: Set<string>;
}

type Compress = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const PREFIX = '/api/v1/';
/** The filters of a route without places. */
const NO_FILTERS: EffectiveFilters = Object.freeze({});

/**
 * The account a failed answer counts against: a live key's; none for a test key or the
 * explorer (whose calls are not in the usage the availability is read against); when the
 * key could not be resolved (database unreachable), the account it last resolved to.
 */
function accountFailedFor(ctx: RequestContext): string | undefined {
  if (ctx.explorer) return undefined;
  if (ctx.caller) return ctx.dataset === 'live' ? ctx.caller.accountId : undefined;
  return ctx.failureAccount;
}

/** Returns a request listener step: true when it took the request, false to hand it to Express. */
export function createApiHandler(deps: ApiHandlerDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  // The routes of each path (one per method).
  const byPath = new Map<string, CompiledRoute[]>();
  for (const r of compile(deps.contract, deps.handlers as Record<string, unknown>))
    byPath.set(r.route.path, [...(byPath.get(r.route.path) ?? []), r]);
  const exact = new Map([...byPath].filter(([path]) => !path.includes(':')));
  const parametric = [...byPath].filter(([path]) => path.includes(':')).map(([, group]) => group);
  // A test key's reads (the small public sample) are always cheap.
  const heavyReader = deps.readers.live.through(deps.heavyPool);

  const find = (path: string) => {
    const hit = exact.get(path);
    if (hit) return { routes: hit, compiled: hit[0], params: {} as Record<string, string> };
    const segments = path.split('/');
    for (const group of parametric) {
      const params = match(group[0], segments);
      if (params) return { routes: group, compiled: group[0], params };
    }
    return null;
  };

  const serve = async (
    req: ApiRequest,
    res: ApiResponse,
    ctx: RequestContext,
    rawQuery: string,
    found: NonNullable<ReturnType<typeof find>> | null,
  ) => {
    if (!deps.drain.enter(res)) throw new NotReadyError('shutting down');
    if (!deps.readiness.schemaReady) throw new NotReadyError('database schema not migrated');
    if (!found) throw new ApiError('not_found', `No endpoint at ${req.path}. See /docs.`);
    const compiled = routeForMethod(found.routes, req.method, ctx.headers!);
    const { route } = compiled;
    const params = route.pathParams ? (route.pathParams as ZodTypeAny).safeParse(found.params) : { success: true as const, data: {} };
    const rawParams = parseQuery(rawQuery);
    const query = route.query ? (route.query as ZodTypeAny).safeParse(rawParams) : { success: true as const, data: {} };
    const control = controlCharacterErrors({ ...found.params, ...rawParams });
    await deps.identify(req, res, compiled.metadata);
    let reader = deps.readers[ctx.dataset!];
    const { bodyLimitBytes, ndjsonField } = compiled.metadata;
    const body = await readRouteBody(req.raw, route, { limit: bodyLimitBytes, ndjsonField }).catch(async (err: unknown) => {
      await deps.showQuota(req, res, compiled.metadata);
      throw err;
    });
    // Places are checked with the rest, before admission: one answer names every mistake, uncharged.
    const refused = new Set([...(query.success ? [] : query.error.issues.map((i) => String(i.path[0]))), ...control.map((e) => e.path)]);
    // A valuation's quarter may be one the gazetteer lacks: it is valued at the city's level, its name echoed.
    if (compiled.inputs?.places === 'lenient') refused.add('neighborhood');
    const places = compiled.inputs ? await reader.places.errorsOfQuery(rawParams, refused) : [];
    if (!params.success || !query.success || !body.success || control.length > 0 || places.length > 0) {
      await deps.showQuota(req, res, compiled.metadata);
      throw validationProblemOf(
        {
          path: params.success ? null : params.error,
          query: query.success ? null : query.error,
          body: body.success ? null : body.error,
          control,
          places,
        },
        compiled.parameters,
      );
    }
    // A heavy read is admitted by its cost before the per-minute limit and the quota: refused, it takes neither.
    const heavy = ctx.dataset === 'live' ? costOf(compiled.metadata.endpoint, query.data, reader, body.data).heavy : null;
    let release: (() => void) | undefined;
    if (heavy) {
      const entered = deps.heavyReads.enter(ctx.caller!.accountId, HEAVY_CAPS[ctx.caller!.plan], heavy.units, Date.now());
      if (!entered.admitted) {
        await deps.showQuota(req, res, compiled.metadata);
        throw heavyRefusal(entered, heavy);
      }
      release = entered.release;
      ctx.heavy = heavy;
      reader = heavyReader;
    }
    try {
      await deps.admit(req, res, compiled.metadata);
      // The places were checked with the other parameters.
      const filters = compiled.inputs ? effectiveFilters(query.data, compiled.inputs.radiusDefault) : NO_FILTERS;
      // A stream writes its own status and headers: the ones gathered go on the response first.
      if (compiled.streaming) ctx.headers!.applyTo(res);
      const result = await compiled.handler({
        query: query.data,
        params: params.data,
        body: body.data as never,
        filters,
        reader,
        ctx,
        req,
        res,
      });
      if (result.status !== 'streamed') writeJson(res, ctx, result);
    } finally {
      release?.();
    }
  };

  const writeJson = (res: ApiResponse, ctx: RequestContext, result: { status: number; body: unknown }) => {
    const json = JSON.stringify(result.body);
    ctx.headers!.writeHead(
      res,
      result.status,
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      String(Buffer.byteLength(json)),
    );
    res.end(json);
  };

  return (raw, response) => {
    const url = raw.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!path.startsWith(PREFIX) || deps.passThrough.has(path)) return false;
    const res = response as ApiResponse;
    const found = find(path);
    const headers = new AnswerHeaders();
    const ctx = startRequest<RequestContext>(raw, res, deps, {
      path,
      secure: deps.isSecure(raw),
      routeOf: () => (found ? found.compiled.route.path : 'unmatched'),
      headers,
    });
    headers.setHeader('Cache-Control', 'no-store');
    const req: ApiRequest = { method: raw.method ?? 'GET', path, headers: raw.headers, raw };
    const run = () => {
      serve(req, res, ctx, q < 0 ? '' : url.slice(q + 1), found)
        .catch(async (err: unknown) => {
          const problem = toApiError(err, ctx, deps.logger, path, deps.statementTimeouts[ctx.heavy ? 'heavy' : 'cheap']);
          // The slot is free before the answer leaves: the caller's next call sees the quota without this one.
          await releaseOnError(res, ctx, deps.admission);
          // A live key's call answered 5xx by Mboa's failure: not charged, and it counts against its availability.
          const failedFor = accountFailedFor(ctx);
          const mboas = countsAgainstAvailability({
            status: problem.status,
            code: problem.code,
            heavyReadTimedOut: !!ctx.heavy && !!ctx.timedOutAfterMs,
          });
          if (mboas && failedFor) deps.failures.note(failedFor, new Date());
          writeProblem(res, ctx, problem, deps.metrics);
        })
        .catch((err: Error) => deps.logger.error({ err: err.message, path }, 'error answer failed'));
    };
    if (raw.headers['accept-encoding']) (found?.compiled.streaming ? deps.compressStream : deps.compress)(raw, res, run);
    else run();
    return true;
  };
}
