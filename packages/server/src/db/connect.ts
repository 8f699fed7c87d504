import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogConfig } from 'kysely';
import pg from 'pg';
import { sqliteForKysely } from './sqliteForKysely';
import type { Database } from './types';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL: where it is and the schema it uses (pg-boss keeps its queue beside it). */
  url?: string;
  schema?: string;
  close(): Promise<void>;
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
  log?: LogConfig;
}

export function connect(opts: ConnectOptions): DbHandle {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: opts.log });
    return { db, dialect: 'postgres', url: opts.databaseUrl, schema: opts.schema, close: () => db.destroy() };
  }
  const file = opts.sqliteFile ?? 'hublink.sqlite';
  if (file !== ':memory:') fs.mkdirSync(opts.dataDir, { recursive: true });
  const sqlite = new SQLite(file === ':memory:' ? file : path.join(opts.dataDir, file));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqliteForKysely(sqlite) }), log: opts.log });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
