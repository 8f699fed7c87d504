import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogEvent } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db, PoolStats } from '../db/connect';

/**
 * The Prometheus metrics of one app (HUBLINK_METRICS=1): a registry of its own (tests run several apps
 * in one process; each worker of HUBLINK_WORKERS has one, the primary sums them), with Node's process
 * metrics and HubLink's own under `hublink_`. Labels are bounded: route patterns, job names, device
 * message types, query kinds; never a URL, a tenant or a member.
 */

/** The route label of a request no route matched (404s, scanners): one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
const LAG_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];
const JOB_SECONDS = [0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];
const DEVICE_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** What a gauge reads at scrape time; a source that fails or is slow reports nothing rather than failing the scrape. */
export interface MetricSources {
  pool?: () => PoolStats | undefined;
  devices?: () => number;
  /** Seconds the oldest due event delivery has waited (0 when none). */
  eventWait?: () => Promise<number>;
}

export class AppMetrics {
  readonly registry = new Registry();
  private readonly sources: MetricSources = {};

  readonly httpRequests = new Counter({
    name: 'hublink_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'hublink_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly queryDuration = new Histogram({
    name: 'hublink_db_query_duration_seconds',
    help: 'Database query time, by kind of statement and outcome',
    labelNames: ['kind', 'outcome'] as const,
    buckets: QUERY_SECONDS,
    registers: [this.registry],
  });
  readonly eventLag = new Histogram({
    name: 'hublink_event_dispatch_lag_seconds',
    help: 'Time from an event being written to its first delivery to a subscriber starting',
    buckets: LAG_SECONDS,
    registers: [this.registry],
  });
  readonly eventDeliveries = new Counter({
    name: 'hublink_event_deliveries_total',
    help: 'Event deliveries to subscribers, by outcome (done, retry, dead)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'hublink_job_runs_total',
    help: 'Job runs, by job and outcome (ok, failed, given_back)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'hublink_job_duration_seconds',
    help: 'Job run time, by job',
    labelNames: ['job'] as const,
    buckets: JOB_SECONDS,
    registers: [this.registry],
  });
  readonly deviceMessages = new Counter({
    name: 'hublink_gateway_messages_total',
    help: 'Device messages handled by the gateway, by message type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  readonly deviceMessageDuration = new Histogram({
    name: 'hublink_gateway_message_duration_seconds',
    help: 'Time from receiving a device message to the end of its handling, by message type',
    labelNames: ['type'] as const,
    buckets: DEVICE_SECONDS,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const sources = this.sources;
    new Gauge({
      name: 'hublink_gateway_connected_devices',
      help: 'Devices with a live gateway session on this instance',
      registers: [this.registry],
      collect() {
        if (sources.devices) this.set(sources.devices());
      },
    });
    new Gauge({
      name: 'hublink_db_pool_connections',
      help: 'PostgreSQL pool connections of this process, by state (total, idle, waiting clients, max)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = sources.pool?.();
        if (!p) return;
        this.set({ state: 'total' }, p.total);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'waiting' }, p.waiting);
        this.set({ state: 'max' }, p.max);
      },
    });
    new Gauge({
      name: 'hublink_event_oldest_due_seconds',
      help: 'How long the oldest due event delivery has waited for dispatch (0 when none)',
      registers: [this.registry],
      // Every instance reads the same table: the cluster's value is the largest, not the sum.
      aggregator: 'max',
      async collect() {
        if (!sources.eventWait) return;
        try {
          this.set(await sources.eventWait());
        } catch {
          this.reset();
        }
      },
    });
  }

  watch(sources: MetricSources) {
    Object.assign(this.sources, sources);
  }

  readonly observeRequest = (req: FastifyRequest, reply: FastifyReply) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    this.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    this.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  };

  readonly observeQuery = (event: LogEvent) => {
    this.queryDuration.observe({ kind: kindOf(event.query.query.kind), outcome: event.level === 'query' ? 'ok' : 'error' }, event.queryDurationMillis / 1000);
  };

  readonly observeDelivery = (outcome: 'done' | 'retry' | 'dead', firstAttempt: boolean, lagMs: number) => {
    if (firstAttempt) this.eventLag.observe(Math.max(0, lagMs) / 1000);
    this.eventDeliveries.inc({ outcome });
  };

  readonly observeJob = (job: string, outcome: string, ms: number) => {
    this.jobRuns.inc({ job, outcome });
    this.jobDuration.observe({ job }, ms / 1000);
  };

  readonly observeDeviceMessage = (type: string, ms: number) => {
    this.deviceMessages.inc({ type });
    this.deviceMessageDuration.observe({ type }, ms / 1000);
  };

  /** The text a scrape gets, and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

const KINDS: Record<string, string> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
  RawNode: 'raw',
};
const kindOf = (node: string) => KINDS[node] ?? 'other';

/** Seconds the oldest due pending delivery has waited (its due time, not its event's: retries wait their backoff first). */
export async function oldestDueDeliverySeconds(db: Db): Promise<number> {
  const now = Date.now();
  const row = await db.selectFrom('event_delivery').select((eb) => eb.fn.min('next_at').as('due')).where('state', '=', 'pending').where('next_at', '<=', now).executeTakeFirst();
  const due = row?.due == null ? undefined : Number(row.due);
  return due === undefined ? 0 : Math.max(0, now - due) / 1000;
}

/** The metrics of an app, found from its context (jobs, events and the gateway see only the context). */
const byCtx = new WeakMap<object, AppMetrics>();

export function attachMetrics(ctx: object, metrics: AppMetrics) {
  byCtx.set(ctx, metrics);
}

export function metricsOf(ctx: unknown): AppMetrics | undefined {
  return typeof ctx === 'object' && ctx !== null ? byCtx.get(ctx) : undefined;
}
