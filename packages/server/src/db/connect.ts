import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { auditedDialect } from '../core/audit';
import { NamedStatementClient } from './pgNamedStatements';
import { withAsyncBusyWait } from './sqliteBusy';
import { poolSizeFor, type ServerLimits } from './poolSize';
import { sqliteForKysely } from './sqliteForKysely';
import { sqlProfiler } from './sqlProfile';
import type { Database } from './types';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL: where it is and the schema it uses (pg-boss keeps its queue beside it). */
  url?: string;
  schema?: string;
  /** PostgreSQL: the connections this process's pool may open (sized on first use when not given). */
  poolSize?: () => Promise<number>;
  /** PostgreSQL: the pool's connections now (undefined until its first use). */
  poolStats?: () => PoolStats | undefined;
  /** Sees every query with its time (the metrics set it; core/metrics.ts). */
  onQuery?: (event: LogEvent) => void;
  close(): Promise<void>;
}

export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

// int8 (counts, epoch-ms times) as numbers: every value we keep fits in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface ConnectOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  schema?: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
  /** Kysely's query log (the benchmark sums the time spent in SQL with it). */
  log?: (event: LogEvent) => void;
  /** PostgreSQL connections of this process (DATABASE_POOL_SIZE); unset: sized by poolSizeFor. */
  poolSize?: number;
  /** Server processes sharing the database from this instance (HUBLINK_WORKERS; default 1), for poolSizeFor. */
  workers?: number;
  /** PostgreSQL: run statements unnamed, parsed and planned each time (DATABASE_NAMED_STATEMENTS=off). */
  unnamedStatements?: boolean;
}

/** What the server's configuration says about the connection. */
export const connectOptionsOf = (config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize' | 'databaseNamedStatements' | 'workers' | 'sqlProfileFile'>): ConnectOptions => ({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: config.databasePoolSize,
  workers: config.workers,
  unnamedStatements: !config.databaseNamedStatements,
  ...(config.sqlProfileFile ? { log: sqlProfiler(config.sqlProfileFile) } : {}),
});

/** The server's connection limits, read over one short-lived connection. */
async function serverLimits(connectionString: string): Promise<ServerLimits> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ max: number; reserved: number }>(
      `select current_setting('max_connections')::int as max,
              current_setting('superuser_reserved_connections')::int + coalesce(current_setting('reserved_connections', true)::int, 0) as reserved`,
    );
    return { maxConnections: rows[0]!.max, reserved: rows[0]!.reserved };
  } finally {
    await client.end();
  }
}

function connectPostgres(opts: ConnectOptions & { databaseUrl: string }): DbHandle {
  let created: pg.Pool | undefined;
  const poolOf = (max: number) =>
    (created = new pg.Pool({ connectionString: opts.databaseUrl, max, ...(opts.unnamedStatements ? {} : { Client: NamedStatementClient }), ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}) }));
  // Sized on first use: connect() stays synchronous for its callers, and a process that never
  // queries never asks the server.
  let pool: Promise<pg.Pool> | undefined;
  const sized = () =>
    (pool ??= (opts.poolSize !== undefined ? Promise.resolve(opts.poolSize) : serverLimits(opts.databaseUrl).then((l) => poolSizeFor(opts.workers ?? 1, l))).then(
      poolOf,
      (err: unknown) => {
        pool = undefined; // the next query tries again
        throw err;
      },
    ));
  const handle: DbHandle = {
    db: new Kysely<Database>({ dialect: auditedDialect(new PostgresDialect({ pool: sized })), log: (e) => logTo(opts, handle, e) }),
    dialect: 'postgres',
    url: opts.databaseUrl,
    schema: opts.schema,
    poolSize: async () => (await sized()).options.max,
    poolStats: () =>
      created && { max: created.options.max, total: created.totalCount, idle: created.idleCount, waiting: created.waitingCount },
    close: async () => {
      await handle.db.destroy();
      // Sized by poolSize() but never queried through Kysely, the pool is still open.
      const open = pool && (await pool.catch(() => undefined));
      if (open && !open.ended) await open.end();
    },
  };
  return handle;
}

function logTo(opts: ConnectOptions, handle: DbHandle, event: LogEvent) {
  opts.log?.(event);
  handle.onQuery?.(event);
}

export function connect(opts: ConnectOptions): DbHandle {
  if (opts.databaseUrl) return connectPostgres({ ...opts, databaseUrl: opts.databaseUrl });
  const file = opts.sqliteFile ?? 'hublink.sqlite';
  if (file !== ':memory:') fs.mkdirSync(opts.dataDir, { recursive: true });
  const sqlite = new SQLite(file === ':memory:' ? file : path.join(opts.dataDir, file));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const handle: DbHandle = {
    db: new Kysely<Database>({ dialect: auditedDialect(withAsyncBusyWait(new SqliteDialect({ database: sqliteForKysely(sqlite) }), sqlite)), log: (e) => logTo(opts, handle, e) }),
    dialect: 'sqlite',
    close: () => handle.db.destroy(),
  };
  return handle;
}
