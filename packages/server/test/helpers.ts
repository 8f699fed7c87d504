import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Endpoint, Envelope } from '@hublink/contract';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { MemoryStore, type KvStore } from '../src/core/store';
import { connect, type DbHandle, type Dialect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const DATABASES: Dialect[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export interface TestAppOptions {
  config?: Partial<Config>;
  store?: KvStore;
}

/** A migrated database of its own (a fresh PostgreSQL schema or an in-memory SQLite) and an app on it. */
async function openDatabase(dialect: Dialect): Promise<{ handle: DbHandle; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const handle = connect({ dataDir: os.tmpdir(), sqliteFile: ':memory:' });
    await migrateToLatest(handle);
    return { handle, drop: () => handle.close() };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = connect({ databaseUrl: url, dataDir: os.tmpdir() });
  await admin.db.schema.createSchema(schema).execute();
  const handle = connect({ databaseUrl: url, dataDir: os.tmpdir(), schema });
  await migrateToLatest(handle);
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin.db.schema.dropSchema(schema).cascade().execute();
      await admin.close();
    },
  };
}

export async function createTestApp(dialect: Dialect, opts: TestAppOptions = {}) {
  const { handle, drop } = await openDatabase(dialect);
  const config: Config = {
    ...loadConfig({ HUBLINK_DATA_DIR: path.join(os.tmpdir(), 'hublink-test') }),
    devEndpoints: true,
    prettyLogs: false,
    ...opts.config,
  };
  const store = opts.store ?? new MemoryStore();
  const app = await buildApp(config, { db: handle, store, logger: false });
  await app.ready();
  let ipCounter = 0;

  /** Calls an endpoint of the contract and returns the envelope (and the HTTP status). */
  async function call<T = unknown>(
    endpoint: Endpoint,
    input: { body?: unknown; query?: Record<string, unknown>; token?: string; ip?: string } = {},
  ): Promise<Envelope<T> & { status: number }> {
    const res = await app.inject({
      method: endpoint.method,
      url: `/api/v1${endpoint.path}`,
      ...(input.query ? { query: Object.fromEntries(Object.entries(input.query).map(([k, v]) => [k, String(v)])) } : {}),
      ...(endpoint.method === 'POST' ? { payload: (input.body ?? {}) as object } : {}),
      headers: input.token ? { authorization: `Bearer ${input.token}` } : {},
      remoteAddress: input.ip ?? '127.0.0.1',
    });
    return { ...(res.json() as Envelope<T>), status: res.statusCode };
  }

  return {
    app,
    ctx: app.ctx,
    db: handle.db,
    dialect,
    call,
    /** A fresh captcha and its answer. */
    async captcha(): Promise<{ uniqid: string; text: string }> {
      const { uniqid } = await app.ctx.captcha.create();
      return { uniqid, text: (await app.ctx.captcha.peek(uniqid))! };
    },
    /** The newest code sent to a phone ('+86 138…') or email. */
    async lastCode(to: string): Promise<string> {
      const row = await handle.db.selectFrom('outbox').select('code').where('recipient', '=', to).orderBy('id', 'desc').executeTakeFirst();
      if (!row) throw new Error(`no message to ${to}`);
      return row.code;
    },
    /** Makes the newest code for a destination old enough to resend (skips the 59 s cooldown). */
    async ageCodes(destination: string, ms = 60_000) {
      const rows = await handle.db.selectFrom('verification_code').select(['id', 'create_time']).where('destination', '=', destination).execute();
      for (const r of rows) {
        await handle.db.updateTable('verification_code').set({ create_time: r.create_time - ms }).where('id', '=', r.id).execute();
      }
    },
    /** A distinct client address per call site, so rate limits of one test do not touch another. */
    nextIp: () => `127.1.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`,
    async close() {
      await app.close();
      await drop();
    },
  };
}

/** Runs a suite once per database, with a fresh app for the suite. */
export function describeEachDatabase(name: string, body: (t: () => TestApp) => void, opts: TestAppOptions = {}) {
  for (const dialect of DATABASES) {
    describe(`${name} [${dialect}]`, () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await createTestApp(dialect, opts);
      });
      afterAll(async () => {
        await t?.close();
      });
      body(() => t);
    });
  }
}

let accountSeq = 0;

/** Registers a main account through the real calls and signs it in; returns its token and details. */
export async function newAccount(t: TestApp, over: { username?: string; password?: string; phone?: string; email?: string } = {}) {
  const { login, register, sendRegisterCode } = await import('@hublink/contract');
  const n = `${Date.now() % 100000}${++accountSeq}`.padStart(6, '0');
  const username = over.username ?? `user${n}`;
  const password = over.password ?? 'secret123';
  const usePhone = over.email === undefined;
  const verify = usePhone ? (over.phone ?? `+86 139${n.slice(-8).padStart(8, '0')}`) : over.email!;
  const type = usePhone ? 'phone' : 'email';
  const ip = t.nextIp();
  const sent = await t.call(sendRegisterCode, { body: { send_type: type, send_value: verify }, ip });
  if (sent.code !== 200) throw new Error(`send code: ${sent.msg}`);
  const code = await t.lastCode(usePhone ? verify : verify.toLowerCase());
  const reg = await t.call(register, {
    body: { nickname: '测试用户', username, password, newPassword: password, code, type, verify },
    ip,
  });
  if (reg.code !== 200) throw new Error(`register: ${reg.msg}`);
  const cap = await t.captcha();
  const res = await t.call<{ access_token: string }>(login, { body: { username, password, code: cap.text, uniqid: cap.uniqid }, ip });
  if (res.code !== 200) throw new Error(`login: ${res.msg}`);
  const account = await t.db.selectFrom('account').selectAll().where('username_key', '=', username.toLowerCase()).executeTakeFirstOrThrow();
  return { token: res.data!.access_token, username, password, verify, type, account };
}
