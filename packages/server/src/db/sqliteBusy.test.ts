import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withAsyncBusyWait } from './sqliteBusy';
import { sqliteForKysely } from './sqliteForKysely';

/** Two handles on one file stand for two processes (a second worker, the CLI): each has its own write lock to wait for. */
describe('SQLite waiting for another process’s write lock', () => {
  const opened: Kysely<object>[] = [];
  let dir = '';
  const open = (waitMs?: number) => {
    const raw = new SQLite(path.join(dir, 'busy.sqlite'));
    raw.pragma('journal_mode = WAL');
    const db = new Kysely<object>({ dialect: withAsyncBusyWait(new SqliteDialect({ database: sqliteForKysely(raw) }), raw, waitMs) });
    opened.push(db);
    return db;
  };
  const rows = async (db: Kysely<object>) => (await sql<{ x: number }>`select x from t order by x`.execute(db)).rows.map((r) => r.x);
  /** Holds the write lock (a transaction that wrote) until the returned release is called. */
  const holdLock = async (db: Kysely<object>) => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const done = db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
      inside();
      await released;
    });
    await entered;
    return { release, done };
  };
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 1));
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.destroy()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('waits without holding the event loop, and writes once the lock is free', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-busy-'));
    const first = open();
    const second = open();
    await sql`create table t (x integer)`.execute(first);
    const lock = await holdLock(first);
    let settled = false;
    const single = sql`insert into t values (2)`.execute(second).finally(() => (settled = true));
    const inTransaction = second.transaction().execute(async (trx) => {
      await sql`insert into t values (3)`.execute(trx);
    });
    // Timers keep firing while the second handle waits: with SQLite's own busy wait this process
    // would sleep inside the insert, and the first handle could never commit what the second waits for.
    await turns(20);
    expect(settled).toBe(false);
    lock.release();
    await Promise.all([lock.done, single, inTransaction]);
    expect(await rows(first)).toEqual([1, 2, 3]);
  });

  it('gives up with SQLITE_BUSY after its wait, and the handle goes on working', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-busy-'));
    const first = open();
    const second = open(100);
    await sql`create table t (x integer)`.execute(first);
    const lock = await holdLock(first);
    await expect(sql`insert into t values (2)`.execute(second)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    lock.release();
    await lock.done;
    await sql`insert into t values (2)`.execute(second);
    expect(await rows(second)).toEqual([1, 2]);
  });
});
