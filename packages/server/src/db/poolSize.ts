/*
 * How many PostgreSQL connections one server process keeps (docs/performance.md, "The pool").
 *
 * The server's max_connections is shared by everything that talks to the database: every worker of
 * every instance, pg-boss beside each of them, `hublink migrate` and `hublink ops`, backups, psql. A
 * fixed 10 per process runs out at 10 workers on PostgreSQL's default of 100; a bigger pool does not
 * make one process faster, whose one JavaScript thread keeps only a few queries in flight at a time.
 */

/** Connections per process at most: more do not raise one process's throughput (docs/performance.md). */
export const POOL_MAX = 10;
/** Connections per process at least: a call's parallel queries, and a transaction beside a read. */
export const POOL_MIN = 2;
/** pg-boss's own pool in each process (core/jobsPgBoss.ts). */
export const JOBS_POOL = 3;
/** The share of the server's connections one instance's workers may take; the rest is for other instances and tools. */
export const INSTANCE_SHARE = 0.5;

export interface ServerLimits {
  /** The server's max_connections. */
  maxConnections: number;
  /** Connections kept for superusers (superuser_reserved_connections, and reserved_connections from PostgreSQL 16). */
  reserved: number;
}

/**
 * The pool of one process when DATABASE_POOL_SIZE is not set: half of the connections left for
 * ordinary roles, split among the workers, less each worker's pg-boss pool, within POOL_MIN..POOL_MAX.
 * With the default 100 (3 reserved) that is 10 for up to 3 workers, 5 at 6 workers, 3 at 8.
 */
export function poolSizeFor(workers: number, limits: ServerLimits): number {
  const usable = Math.max(0, limits.maxConnections - limits.reserved);
  const perWorker = Math.floor((usable * INSTANCE_SHARE) / Math.max(1, workers)) - JOBS_POOL;
  return Math.min(POOL_MAX, Math.max(POOL_MIN, perWorker));
}
