/**
 * Prometheus metrics (prom-client), one registry per server so tests can run several:
 * requests and latency by route and status, API refusals by problem code (quota and rate
 * limit among them), database pool connections in use and waiting, and the process's
 * own figures (event-loop lag, memory, CPU) from prom-client's default collectors.
 */
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly latency: Histogram<'route' | 'method' | 'status'>;
  private readonly problems: Counter<'code'>;
  /** The series of each route, method and status, looked up once (labels are hashed on every use otherwise). */
  private readonly series = new Map<string, { requests: { inc(): void }; latency: { observe(seconds: number): void } }>();

  constructor(pool: pg.Pool) {
    collectDefaultMetrics({ register: this.registry, prefix: 'mboa_' });
    this.requests = new Counter({
      name: 'mboa_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'mboa_http_request_duration_seconds',
      help: 'Time from the request to the last byte of the answer, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
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
  }

  /** One answer, written or cut: its route pattern (never the raw path), method, status and duration. */
  record(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { route, method, status: String(status) };
      series = { requests: this.requests.labels(labels), latency: this.latency.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.latency.observe(seconds);
  }

  problem(code: string): void {
    this.problems.inc({ code });
  }
}
