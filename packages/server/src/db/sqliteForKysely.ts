import type { Database, Statement } from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept per connection; the SQL Kysely writes for our queries is a few hundred texts. */
const MAX_STATEMENTS = 500;

/** Statements that can change the schema: a cached statement's columns would no longer hold. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * A reading statement that returns rows as arrays and names them here: better-sqlite3 sets each
 * column of an object row from C++, which costs about 40% more than this loop for our queries.
 */
function readingStatement(stmt: Statement): SqliteStatement {
  stmt.raw(true);
  const names = stmt.columns().map((c) => c.name);
  const toRow = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    all: (parameters) => (stmt.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => stmt.run(parameters),
    *iterate(parameters) {
      for (const values of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

/**
 * The database as Kysely's SqliteDialect sees it, with two changes that matter at scale:
 * - Prepared statements are reused by their SQL text. Kysely prepares every query anew, and
 *   SQLite's prepare costs more than running an indexed read. Sharing one is safe: Kysely runs one
 *   query at a time on its single SQLite connection. A statement that may change the schema
 *   (migrations) empties the cache first.
 * - Rows are built in JavaScript (readingStatement).
 * - Transactions begin IMMEDIATE: they take the write lock first, waiting for it (sqliteBusy.ts), so
 *   that with several server processes on one file (HUBLINK_WORKERS) a transaction that read and then
 *   writes is never refused with SQLITE_BUSY because another process wrote in between.
 */
export function sqliteForKysely(sqlite: Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(sql: string): SqliteStatement {
      if (sql === 'begin') sql = 'begin immediate';
      let stmt = cache.get(sql);
      if (stmt) {
        // Map order is insertion order: moving a hit to the end keeps the least used first.
        cache.delete(sql);
      } else {
        if (SCHEMA_CHANGE.test(sql)) {
          cache.clear();
          return sqlite.prepare(sql);
        }
        const prepared = sqlite.prepare(sql);
        stmt = prepared.reader ? readingStatement(prepared) : prepared;
        if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}
