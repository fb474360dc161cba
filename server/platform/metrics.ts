/**
 * Prometheus metrics (prom-client), one registry per server so tests can run several:
 * requests and latency by route and status, API refusals by problem code (quota and rate
 * limit among them), database pool connections in use and waiting, the change feed's state
 * (live or not, and how often it was lost), and the process's
 * own figures (event-loop lag, memory, CPU) from prom-client's default collectors.
 */
import type pg from 'pg';
import type { ChangeFeed } from './change-feed.js';
import type { ReadCounts } from './read-routing.js';
import type { ReplicaSet, ReplicaState } from './replicas.js';
import {
  Counter,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValueWithName,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';

type RequestLabel = 'route' | 'method' | 'status';
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One route, method and status: its answers, their total time, and how many fell in each bucket. */
interface Series {
  labels: Record<RequestLabel, string>;
  count: number;
  sum: number;
  /** Answers at most BUCKETS[i] seconds (and more than the bucket before); the last: more than all. */
  buckets: Float64Array;
}

const LATENCY = 'mboa_http_request_duration_seconds';
const LATENCY_HELP = 'Time from the request to the last byte of the answer, by route pattern, method and status.';

/**
 * The request latency histogram, kept as one bucket array per series and read at scrape
 * time. prom-client's labeled `observe` validates and hashes the labels on every call
 * (about 3 µs a request on the API's hot path, bench/README.md); this is a map lookup and
 * two additions. It is a prom-client Histogram for the registry, whose values it replaces.
 */
class LatencyHistogram extends Histogram<RequestLabel> {
  constructor(
    registry: Registry,
    private readonly series: Map<string, Series>,
  ) {
    super({
      name: LATENCY,
      help: LATENCY_HELP,
      labelNames: ['route', 'method', 'status'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: Array<MetricValueWithName<string>> = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i];
        values.push({ metricName: `${LATENCY}_bucket`, labels: { le, ...s.labels }, value: cumulative });
      });
      values.push({ metricName: `${LATENCY}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count });
      values.push({ metricName: `${LATENCY}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${LATENCY}_count`, labels: s.labels, value: s.count });
    }
    // prom-client's types give `type` as a numeric enum; at run time it is the string the text format prints.
    return { name: LATENCY, help: LATENCY_HELP, type: 'histogram', aggregator: 'sum', values } as unknown as MetricObjectWithValues<
      MetricValueWithName<string>
    >;
  }

  /** What the registry reads for the text format: the same values (their labels already merged). */
  getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    return this.get();
  }
}

export class Metrics {
  readonly registry = new Registry();
  private readonly problems: Counter<'code'>;
  /** Answers by route, method and status (`{route} {method} {status}`): both request metrics read them. */
  private readonly series = new Map<string, Series>();

  constructor(pool: pg.Pool, feed?: ChangeFeed) {
    collectDefaultMetrics({ register: this.registry, prefix: 'mboa_' });
    const series = this.series;
    new Counter({
      name: 'mboa_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const s of series.values()) this.inc(s.labels, s.count);
      },
    });
    new LatencyHistogram(this.registry, series);
    this.problems = new Counter({
      name: 'mboa_api_problems_total',
      help: 'API answers that were problems, by code: quota_exceeded and rate_limited are the refusals.',
      labelNames: ['code'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'mboa_db_pool_connections',
      help: 'PostgreSQL pool connections of this instance: in use, idle, and requests waiting for one.',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    if (feed) {
      new Gauge({
        name: 'mboa_change_feed_live',
        help: '1 while the change feed delivers (its heartbeat comes back) and caches serve; 0 while it is deaf or reconnecting and caches are bypassed.',
        registers: [this.registry],
        collect() {
          this.set(feed.live ? 1 : 0);
        },
      });
      new Counter({
        name: 'mboa_change_feed_losses_total',
        help: 'Times the live change feed was lost: deaf (a heartbeat did not come back in time) or dropped (its connection failed).',
        labelNames: ['reason'],
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc({ reason: 'deaf' }, feed.losses.deaf);
          this.inc({ reason: 'dropped' }, feed.losses.dropped);
        },
      });
    }
  }

  /**
   * What the alerts of deploy/alerts.yml read besides the requests: whether this instance is
   * ready (as /readyz says), whether its quota counts fell back from Redis to PostgreSQL, and
   * how long ago Redis's counts last reached PostgreSQL.
   */
  watch(o: { ready: () => Promise<boolean>; quotaFallback: () => boolean; flushAgeSeconds: () => number | null }): void {
    new Gauge({
      name: 'mboa_ready',
      help: '1 when this instance is ready (as /readyz says: database reachable and migrated, not draining), else 0.',
      registers: [this.registry],
      async collect() {
        this.set((await o.ready().catch(() => false)) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'mboa_quota_redis_fallback',
      help: '1 while Redis is configured but unreachable, so the rate limit and quota are kept in PostgreSQL, else 0.',
      registers: [this.registry],
      collect() {
        this.set(o.quotaFallback() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'mboa_quota_flush_age_seconds',
      help: 'Seconds since the counts waiting in Redis last reached PostgreSQL (every second normally; 0 without Redis).',
      registers: [this.registry],
      collect() {
        this.set(o.flushAgeSeconds() ?? 0);
      },
    });
  }

  /** The read replicas' state and lag, and where the API's reads went (platform/replicas.ts). */
  replicas(set: ReplicaSet, counts: ReadCounts): void {
    const states: ReplicaState[] = ['ok', 'lagging', 'unreachable', 'unknown'];
    new Gauge({
      name: 'mboa_db_replica_lag_seconds',
      help: 'Replay lag of each read replica at its last check (absent while unreachable); over the bound, the replica is skipped.',
      labelNames: ['replica'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const s of set.status()) if (s.lag_seconds !== null) this.set({ replica: s.name }, s.lag_seconds);
      },
    });
    new Gauge({
      name: 'mboa_db_replica_state',
      help: '1 for the state of each read replica at its last check: ok (in use), lagging or unreachable (skipped), unknown (not checked yet).',
      labelNames: ['replica', 'state'],
      registers: [this.registry],
      collect() {
        for (const s of set.status()) for (const state of states) this.set({ replica: s.name, state }, s.state === state ? 1 : 0);
      },
    });
    new Gauge({
      name: 'mboa_db_replica_max_lag_seconds',
      help: 'The replay lag past which a read replica is skipped (REPLICA_MAX_LAG_SECONDS).',
      registers: [this.registry],
      collect() {
        this.set(set.maxLagSeconds);
      },
    });
    new Counter({
      name: 'mboa_db_reads_total',
      help: "The API's reads by where they were answered: replica, or primary (no replica in use, or retried there after a replica failed: retried counts those too).",
      labelNames: ['target'],
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ target: 'replica' }, counts.replica);
        this.inc({ target: 'primary' }, counts.primary);
        this.inc({ target: 'retried' }, counts.retried);
      },
    });
  }

  /** One answer, written or cut: its route pattern (never the raw path), method, status and duration. */
  record(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { route, method, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length + 1) };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]) bucket++;
    series.buckets[bucket]++;
    series.count++;
    series.sum += seconds;
  }

  problem(code: string): void {
    this.problems.inc({ code });
  }
}
