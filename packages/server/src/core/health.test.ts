import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../app';
import { loadConfig, type Config } from '../config';
import { connect, type DbHandle } from '../db/connect';
import { migrationNames } from '../db/migrate';
import { createTestApp, DATABASES, sharedDatabase, type TestApp } from '../../test/helpers';
import { MemoryStore } from './store';

/** An app with no module but the core's (nothing starts that needs the database), on a given handle. */
async function bareApp(db: DbHandle, over: Partial<Config> = {}): Promise<BuiltApp> {
  const config: Config = { ...loadConfig({ HUBLINK_DATA_DIR: path.join(os.tmpdir(), 'hublink-test') }), prettyLogs: false, runJobs: false, handbookDir: '', ...over };
  const app = await buildApp(config, { db, store: new MemoryStore(), logger: false, modules: [] });
  await app.ready();
  return app;
}

const get = async (app: BuiltApp, url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data?: Record<string, string> } };
};

for (const dialect of DATABASES) {
  describe(`health [${dialect}]`, () => {
    let t: TestApp;
    let shared: Awaited<ReturnType<typeof sharedDatabase>>;
    beforeAll(async () => {
      // A low API limit: the probes are outside /api and never count.
      t = await createTestApp(dialect, { config: { apiRateLimitPerMinute: 2 } });
      shared = await sharedDatabase(dialect);
    });
    afterAll(async () => {
      await t?.close();
      await shared?.drop();
    });

    it('answers /healthz and /readyz in the envelope, without a token and without a rate limit', async () => {
      for (let i = 0; i < 5; i++) {
        expect(await get(t.app, '/healthz')).toEqual({ status: 200, body: { code: 200, msg: 'ok' } });
        expect(await get(t.app, '/readyz')).toEqual({ status: 200, body: { code: 200, msg: 'ready', data: { database: 'ok', migrations: 'ok' } } });
      }
    });

    it('answers 503 naming migrations when the database lacks one, and ready again once it has it', async () => {
      const handle = shared.open();
      const app = await bareApp(handle);
      try {
        const last = migrationNames(dialect).at(-1)!;
        const row = (await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${last}`.execute(handle.db)).rows[0]!;
        await sql`delete from kysely_migration where name = ${last}`.execute(handle.db);
        const missing = await get(app, '/readyz');
        expect(missing).toEqual({ status: 503, body: { code: 503, msg: 'not ready: migrations', data: { database: 'ok', migrations: 'failed' } } });
        // A migration the code does not know is a newer release's, applied during a rolling upgrade:
        // additive by the rule (docs/operations.md, "Upgrades"), so this release still serves.
        await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp}), ('9999_from_the_future', ${row.timestamp})`.execute(handle.db);
        expect((await get(app, '/readyz')).status).toBe(200);
        await sql`delete from kysely_migration where name = '9999_from_the_future'`.execute(handle.db);
      } finally {
        await app.close();
        await handle.close();
      }
    });

    it('answers 503 naming the database when its connection is gone, and still answers /healthz', async () => {
      const handle = shared.open();
      const app = await bareApp(handle);
      try {
        expect((await get(app, '/readyz')).status).toBe(200);
        await handle.close();
        expect(await get(app, '/readyz')).toEqual({ status: 503, body: { code: 503, msg: 'not ready: database', data: { database: 'failed', migrations: 'skipped' } } });
        expect((await get(app, '/healthz')).status).toBe(200);
      } finally {
        await app.close();
      }
    });
  });
}

describe('readiness failures that need no database of their own', () => {
  it('names the database when PostgreSQL refuses connections', async () => {
    const handle = connect({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', dataDir: os.tmpdir(), poolSize: 1 });
    const app = await bareApp(handle);
    try {
      const r = await get(app, '/readyz');
      expect(r.status).toBe(503);
      expect(r.body.msg).toBe('not ready: database');
      // Where the database is stays out of a public answer.
      expect(JSON.stringify(r.body)).not.toContain('127.0.0.1');
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('names redis when Redis refuses connections', async () => {
    const handle = connect({ dataDir: os.tmpdir(), sqliteFile: ':memory:' });
    const { migrateToLatest } = await import('../db/migrate');
    await migrateToLatest(handle);
    const app = await bareApp(handle, { redisUrl: 'redis://127.0.0.1:1' });
    try {
      expect(await get(app, '/readyz')).toEqual({
        status: 503,
        body: { code: 503, msg: 'not ready: redis', data: { database: 'ok', migrations: 'ok', redis: expect.stringMatching(/^(failed|timeout)$/) } },
      });
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('answers 503 draining once told the instance is stopping', async () => {
    const handle = connect({ dataDir: os.tmpdir(), sqliteFile: ':memory:' });
    const { migrateToLatest } = await import('../db/migrate');
    await migrateToLatest(handle);
    const app = await bareApp(handle);
    try {
      expect((await get(app, '/readyz')).status).toBe(200);
      app.readiness.drain();
      expect(await get(app, '/readyz')).toEqual({ status: 503, body: { code: 503, msg: 'draining' } });
      expect((await get(app, '/healthz')).status).toBe(200);
    } finally {
      await app.close();
      await handle.close();
    }
  });
});
