import type { Database } from 'better-sqlite3';
import type { DatabaseConnection, Dialect } from 'kysely';
import { wrapConnections } from './wrapConnections';

/** How long a statement waits for another process's write lock in all before its SQLITE_BUSY is thrown. */
export const WRITE_LOCK_WAIT_MS = 10_000;
/** The longest pause between two tries (the first ones are 1, 2, 4… ms). */
const MAX_PAUSE_MS = 25;

const isBusy = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SQLITE_BUSY');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SQLite without its own busy wait: a statement refused because another process (a second worker, the
 * CLI) holds the write lock is tried again after a timer, so the waiting worker's event loop goes on
 * serving requests and device messages. SQLite's busy_timeout sleeps inside the call and holds the
 * whole process meanwhile.
 *
 * Only what failed outside a transaction is tried again (a `begin immediate` or a statement on its
 * own): it changed nothing. A transaction holds the write lock from its begin, so nothing in it waits.
 */
export function withAsyncBusyWait(dialect: Dialect, sqlite: Database, waitMs = WRITE_LOCK_WAIT_MS): Dialect {
  sqlite.pragma('busy_timeout = 0');
  return wrapConnections(dialect, (connection) => retrying(connection, sqlite, waitMs));
}

function retrying(connection: DatabaseConnection, sqlite: Database, waitMs: number): DatabaseConnection {
  const execute = connection.executeQuery.bind(connection);
  return {
    streamQuery: connection.streamQuery.bind(connection),
    executeQuery: async (query) => {
      const deadline = Date.now() + waitMs;
      for (let attempt = 0; ; attempt++) {
        try {
          return await execute(query);
        } catch (err) {
          if (!isBusy(err) || sqlite.inTransaction || Date.now() >= deadline) throw err;
          await pause(Math.min(MAX_PAUSE_MS, 2 ** attempt));
        }
      }
    },
  };
}
