import os from 'node:os';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { connect, connectOptionsOf } from './connect';
import { JOBS_POOL, POOL_MAX, POOL_MIN, poolSizeFor } from './poolSize';

const databaseUrl = process.env.TEST_DATABASE_URL;

describe('the PostgreSQL pool of one process', () => {
  const defaults = { maxConnections: 100, reserved: 3 };

  it('takes half of the ordinary connections, split among the workers, less pg-boss, within its bounds', () => {
    expect(poolSizeFor(1, defaults)).toBe(POOL_MAX);
    expect(poolSizeFor(3, defaults)).toBe(POOL_MAX);
    expect(poolSizeFor(4, defaults)).toBe(9);
    expect(poolSizeFor(6, defaults)).toBe(5);
    expect(poolSizeFor(8, defaults)).toBe(3);
    expect(poolSizeFor(16, defaults)).toBe(POOL_MIN);
    expect(poolSizeFor(2, { maxConnections: 20, reserved: 3 })).toBe(POOL_MIN);
    expect(poolSizeFor(2, { maxConnections: 40, reserved: 3 })).toBe(6);
    expect(poolSizeFor(1, { maxConnections: 5, reserved: 3 })).toBe(POOL_MIN);
  });

  it('leaves half of a server for other instances and tools whenever the floor allows it', () => {
    for (const maxConnections of [20, 50, 100, 200, 500]) {
      for (let workers = 1; workers <= 16; workers++) {
        const size = poolSizeFor(workers, { maxConnections, reserved: 3 });
        if (size > POOL_MIN) expect(workers * (size + JOBS_POOL)).toBeLessThanOrEqual((maxConnections - 3) / 2);
      }
    }
  });

  it('is read from DATABASE_POOL_SIZE and HUBLINK_WORKERS', () => {
    const config = loadConfig({ HUBLINK_DATA_DIR: os.tmpdir(), DATABASE_POOL_SIZE: '3', HUBLINK_WORKERS: '2' });
    expect(connectOptionsOf(config)).toMatchObject({ poolSize: 3, workers: 2 });
    expect(connectOptionsOf(loadConfig({ HUBLINK_DATA_DIR: os.tmpdir() })).poolSize).toBeUndefined();
  });
});

describe.skipIf(!databaseUrl)('the pool on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  it('opens at most DATABASE_POOL_SIZE connections however many queries wait', async () => {
    const config = loadConfig({ HUBLINK_DATA_DIR: os.tmpdir(), DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '3' });
    const handle = connect(connectOptionsOf(config));
    try {
      expect(await handle.poolSize!()).toBe(3);
      const pids = await Promise.all(
        Array.from({ length: 9 }, async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(handle.db)).rows[0]!.pid),
      );
      expect(new Set(pids).size).toBeLessThanOrEqual(3);
    } finally {
      await handle.close();
    }
  });

  it('is sized from the server when DATABASE_POOL_SIZE is unset', async () => {
    const handle = connect({ ...connectOptionsOf(loadConfig({ HUBLINK_DATA_DIR: os.tmpdir(), DATABASE_URL: databaseUrl })), workers: 8 });
    try {
      const { rows } = await sql<{ max: number; reserved: number }>`
        select current_setting('max_connections')::int as max, current_setting('superuser_reserved_connections')::int as reserved`.execute(handle.db);
      expect(await handle.poolSize!()).toBe(poolSizeFor(8, { maxConnections: rows[0]!.max, reserved: rows[0]!.reserved }));
    } finally {
      await handle.close();
    }
  });
});
