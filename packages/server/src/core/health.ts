import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { DbHandle } from '../db/connect';
import { appliedMigrations, migrationNames } from '../db/migrate';
import type { App } from './http';

/** Each readiness check gets this long: a hung database or Redis must not hang the probe. */
export const CHECK_TIMEOUT_MS = 2000;
const NOT_READY = 503;

export type CheckResult = 'ok' | 'failed' | 'timeout' | 'skipped';
export type CheckName = 'database' | 'migrations' | 'redis';

/** Resolves what `p` resolves, or rejects with 'timeout' after `ms`; `p` is left to settle on its own. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

class TimeoutError extends Error {
  constructor() {
    super('timeout');
  }
}

async function check(work: () => Promise<boolean>, ms: number): Promise<CheckResult> {
  try {
    return (await withTimeout(work(), ms)) ? 'ok' : 'failed';
  } catch (err) {
    return err instanceof TimeoutError ? 'timeout' : 'failed';
  }
}

export interface ReadinessOptions {
  db: Pick<DbHandle, 'db' | 'dialect'>;
  /** Checked only when the instance is configured with Redis. */
  redis?: Pick<Redis, 'ping'>;
  log: FastifyBaseLogger;
  timeoutMs?: number;
}

export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  checks: Partial<Record<CheckName, CheckResult>>;
  failing: CheckName[];
}

/**
 * Whether this instance should get traffic: the database answers, its schema has every migration
 * this code knows, Redis answers (when configured), and the instance is not draining.
 */
export class Readiness {
  private draining = false;
  private lastFailing = '';
  private readonly expected: string[];

  constructor(private readonly opts: ReadinessOptions) {
    this.expected = migrationNames(opts.db.dialect);
  }

  /** From now on the instance answers not ready (it is stopping). */
  drain() {
    this.draining = true;
  }

  async report(): Promise<ReadinessReport> {
    if (this.draining) return { ready: false, draining: true, checks: {}, failing: [] };
    const ms = this.opts.timeoutMs ?? CHECK_TIMEOUT_MS;
    const { db } = this.opts.db;
    const redis = this.opts.redis;
    const [database, redisResult] = await Promise.all([
      check(async () => (await sql`select 1 as one`.execute(db)).rows.length === 1, ms),
      redis ? check(async () => (await redis.ping()) === 'PONG', ms) : undefined,
    ]);
    const checks: ReadinessReport['checks'] = { database };
    checks.migrations = database === 'ok' ? await check(() => this.migrationsCurrent(), ms) : 'skipped';
    if (redisResult) checks.redis = redisResult;
    const failing = (Object.entries(checks) as [CheckName, CheckResult][]).filter(([, r]) => r !== 'ok' && r !== 'skipped').map(([name]) => name);
    // Logged when it changes, not on every probe.
    const now = failing.join(',');
    if (now !== this.lastFailing) {
      if (failing.length > 0) this.opts.log.warn({ checks }, 'readiness: not ready');
      else this.opts.log.info('readiness: ready again');
      this.lastFailing = now;
    }
    return { ready: failing.length === 0, draining: false, checks, failing };
  }

  /**
   * The database has run every migration this code has. Migrations it does not know are a newer
   * release's during a rolling upgrade, additive by the rule (db/migrate.ts): this code still serves.
   */
  private async migrationsCurrent(): Promise<boolean> {
    const recorded = new Set(await appliedMigrations(this.opts.db.db as unknown as Kysely<unknown>));
    return this.expected.every((n) => recorded.has(n));
  }
}

/**
 * GET /healthz (the process answers) and GET /readyz (it should get traffic): outside /api, so not
 * rate-limited, and public: they say which part fails, never where it is or what versions run.
 */
export function healthRoutes(app: App, readiness: Readiness) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ code: 200, msg: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const r = await readiness.report();
    reply.header('cache-control', 'no-store');
    if (r.draining) return reply.status(NOT_READY).send({ code: NOT_READY, msg: 'draining' });
    if (!r.ready) return reply.status(NOT_READY).send({ code: NOT_READY, msg: `not ready: ${r.failing.join(', ')}`, data: r.checks });
    return { code: 200, msg: 'ready', data: r.checks };
  });
}
