import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe } from 'vitest';
import { endpointUrl, LIMITS, type DataOf, type Endpoint, type Envelope } from '@hublink/contract';
import { buildApp, type BuildOptions, type BuiltApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { RoleAuth } from '../src/core/actor';
import type { BackboneOptions } from '../src/core/backbone';
import { jobsSchemaOf } from '../src/core/backbone';
import type { Module } from '../src/core/module';
import { MODULES } from '../src/modules';
import { hashPassword } from '../src/core/passwords';
import { MemoryStore, type KvStore } from '../src/core/store';
import { connect, type DbHandle, type Dialect } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { installAnswerCheck, isFileDisposition } from './answerCheck';
import { readSchema } from './upgradeSeed';

export { checkAnswer } from './answerCheck';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const DATABASES: Dialect[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
export type { BuiltApp };

export interface TestAppOptions {
  config?: Partial<Config>;
  store?: KvStore;
  /** Runs after the app is built and before it is ready (extra routes for a test, hooks, event subscribers). */
  beforeReady?: (app: BuiltApp) => void | Promise<void>;
  /** Settings of the backbone's parts (poll intervals, Redis prefix, storage). */
  backbone?: BackboneOptions;
  /** A database the test opened itself (sharedDatabase: several apps, one after another or side by side). */
  database?: DbHandle;
  /** Modules served besides the app's own (a test's jobs or subscribers). */
  modules?: Module[];
  /** The app logs here (JSON lines, at config.logLevel); without it, the app logs nothing. */
  logStream?: BuildOptions['logStream'];
}

/** The tables a refused call must leave as they were (see TestApp.snapshot). */
const SNAPSHOT_TABLES = [
  'account',
  'ram_role',
  'ram_account',
  'session',
  'verification_code',
  'recovery',
  'outbox',
  'message',
  'ram_log',
  'member',
  'network',
  'network_member',
  'member_link',
  'software_login',
  'online_log',
  'auth_source',
  'auth_source_member',
  'support_ticket',
  'support_dialogue',
  'support_file',
] as const;

/**
 * Kysely's migrator looks at the tables of every schema before it starts; when another test file drops
 * its schema at that moment PostgreSQL answers 'schema … does not exist'. That race belongs to the
 * shared test database, not to the code under test: try again.
 */
async function migrateWithRetry(handle: DbHandle, attempts = 5): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await migrateToLatest(handle);
    } catch (e) {
      if (i >= attempts || !/schema "t_[0-9a-f]+" does not exist|cache lookup failed/.test(String(e))) throw e;
      await new Promise((r) => setTimeout(r, 100 * i));
    }
  }
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
  await migrateWithRetry(handle);
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin.db.schema.dropSchema(schema).cascade().execute();
      await admin.db.schema.dropSchema(jobsSchemaOf({ schema })).ifExists().cascade().execute();
      await admin.close();
    },
  };
}

/**
 * The tables of this app's database (its own schema only: another test file may drop its schema at any
 * moment) with their column names in order.
 */
export async function tablesOf(t: Pick<TestApp, 'db' | 'dialect'>): Promise<{ name: string; columns: string[] }[]> {
  const handle = { db: t.db, dialect: t.dialect, close: () => Promise.resolve() };
  return (await readSchema(handle)).map((tb) => ({ name: tb.name, columns: tb.columns.map((c) => c.name) }));
}

/**
 * One database for several apps (a restart, two instances): open() connects to it again, drop()
 * removes it. SQLite in a file of a temporary folder; PostgreSQL in a schema of its own.
 */
export async function sharedDatabase(dialect: Dialect): Promise<{ open(): DbHandle; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hublink-shared-'));
    const first = connect({ dataDir: dir });
    await migrateToLatest(first);
    await first.close();
    return { open: () => connect({ dataDir: dir }), drop: () => fs.promises.rm(dir, { recursive: true, force: true }) };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = connect({ databaseUrl: url, dataDir: os.tmpdir() });
  await admin.db.schema.createSchema(schema).execute();
  const first = connect({ databaseUrl: url, dataDir: os.tmpdir(), schema });
  await migrateWithRetry(first);
  await first.close();
  return {
    open: () => connect({ databaseUrl: url, dataDir: os.tmpdir(), schema }),
    drop: async () => {
      await admin.db.schema.dropSchema(schema).cascade().execute();
      await admin.db.schema.dropSchema(jobsSchemaOf({ schema })).ifExists().cascade().execute();
      await admin.close();
    },
  };
}

export async function createTestApp(dialect: Dialect, opts: TestAppOptions = {}) {
  const { handle, drop } = opts.database ? { handle: opts.database, drop: () => opts.database!.close() } : await openDatabase(dialect);
  const config: Config = {
    ...loadConfig({ HUBLINK_DATA_DIR: path.join(os.tmpdir(), 'hublink-test') }),
    devEndpoints: true,
    prettyLogs: false,
    // Jobs run where a test asks for them (backbone tests); every other test sees requests only.
    runJobs: false,
    // Test servers (webhook receivers, directories, providers) listen on localhost.
    allowPrivateTargets: true,
    // No handbook imported on every start; the document tests give theirs, the e2e servers the real one.
    handbookDir: '',
    ...opts.config,
  };
  const store = opts.store ?? new MemoryStore();
  const app = await buildApp(config, {
    db: handle,
    store,
    ...(opts.logStream ? { logStream: opts.logStream } : { logger: false }),
    backbone: opts.backbone,
    ...(opts.modules ? { modules: [...MODULES, ...opts.modules] } : {}),
  });
  // Every answer to a call of the contract is held to it, whoever asked (test/answerCheck.ts).
  const answerCheck = installAnswerCheck(app);
  await opts.beforeReady?.(app);
  await app.ready();
  let ipCounter = 0;

  /**
   * Calls an endpoint of the contract and returns the envelope (and the HTTP status), or the file of a
   * download; an answer that breaks the endpoint's contract throws (the answer check's error).
   */
  async function call<E extends Endpoint>(
    endpoint: E,
    input: { body?: unknown; query?: Record<string, unknown>; token?: string; ip?: string; headers?: Record<string, string> } = {},
  ): Promise<Envelope<DataOf<E>> & { status: number; file?: { filename: string; contentType: string; body: Buffer }; location?: string }> {
    const res = await app.inject({
      method: endpoint.method,
      url: endpointUrl(endpoint),
      ...(input.query ? { query: Object.fromEntries(Object.entries(input.query).map(([k, v]) => [k, String(v)])) } : {}),
      ...(endpoint.method === 'POST' ? { payload: (input.body ?? {}) as object } : {}),
      headers: { ...(input.token ? { authorization: `Bearer ${input.token}` } : {}), ...input.headers },
      remoteAddress: input.ip ?? '127.0.0.1',
    });
    const drift = answerCheck.takeFor(res.headers['x-request-id']);
    if (drift) throw drift.error;
    // A download (export, template) or an image shown inline instead of an envelope: code 200 and the file.
    const disposition = String(res.headers['content-disposition'] ?? '');
    if (isFileDisposition(disposition)) {
      const name = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
      const file = { filename: name ? decodeURIComponent(name) : '', contentType: String(res.headers['content-type'] ?? ''), body: res.rawPayload };
      return { code: 200, msg: '', status: res.statusCode, file };
    }
    // A step a browser opens (a sign-in's authorize or callback): code 200 and where it sends the browser.
    if (res.statusCode === 302) return { code: 200, msg: '', status: 302, location: String(res.headers.location) };
    return { ...res.json<Envelope<DataOf<E>>>(), status: res.statusCode };
  }

  return {
    app,
    ctx: app.ctx,
    db: handle.db,
    dialect,
    call,
    /** The answer check's findings (test/answerCheck.ts): take() them in a test that plants a drift. */
    answerCheck,
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
    /** Moves a destination's codes back in time (creation and expiry): `ms` after sending has passed. */
    async expireCodes(destination: string, ms = LIMITS.codeTtlSeconds * 1000) {
      const rows = await handle.db.selectFrom('verification_code').select(['id', 'create_time', 'expires_at']).where('destination', '=', destination).execute();
      for (const r of rows) {
        await handle.db
          .updateTable('verification_code')
          .set({ create_time: r.create_time - ms, expires_at: r.expires_at - ms })
          .where('id', '=', r.id)
          .execute();
      }
    },
    /**
     * Every row of the tables a call can change, in a stable order: compare a snapshot taken before a
     * refused call with one taken after it to show the refusal changed nothing.
     */
    async snapshot(): Promise<Record<string, unknown[]>> {
      // What earlier calls set off (operation log, sign-in times) lands first, so it is in both snapshots.
      await app.ctx.events.settle();
      const out: Record<string, unknown[]> = {};
      for (const table of SNAPSHOT_TABLES) {
        out[table] = await handle.db.selectFrom(table).selectAll().orderBy(table === 'session' || table === 'recovery' ? 'create_time' : 'id').orderBy('id').execute();
      }
      return out;
    },
    /** Signs a token for an existing token's session with another expiry (seconds from now; negative = expired). */
    async tokenExpiringIn(token: string, seconds: number): Promise<string> {
      const claims = decodeJwt(token);
      const row = await handle.db.selectFrom('setting').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow();
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ tid: claims.tid, rid: claims.rid })
        .setProtectedHeader({ alg: 'HS256' })
        .setJti(claims.jti!)
        .setIssuedAt(now + Math.min(0, seconds) - 60)
        .setExpirationTime(now + seconds)
        .sign(new TextEncoder().encode(row.value));
    },
    /** A distinct client address per call site, so rate limits of one test do not touch another. */
    nextIp: () => `127.1.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`,
    /** Closes the app and its database; then throws the drifts of answers no test took (test/answerCheck.ts). */
    async close() {
      await app.close();
      await drop();
      answerCheck.assertNone();
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
  const res = await t.call(login, { body: { username, password, code: cap.text, uniqid: cap.uniqid }, ip });
  if (res.code !== 200) throw new Error(`login: ${res.msg}`);
  const account = await t.db.selectFrom('account').selectAll().where('username_key', '=', username.toLowerCase()).executeTakeFirstOrThrow();
  return { token: res.data!.access_token, username, password, verify, type, account };
}

export const FULL_ROLE: RoleAuth = {
  'easylink.router': { create: 1, edit: 1, delete: 1 },
  'easylink.network': { create: 1, edit: 1, delete: 1, network: [] },
  monitor: { view: 1, create: 1, edit: 1, delete: 1 },
};

/**
 * Creates a role and a sub-account of a tenant directly in the database (the /ram calls belong to
 * another module); `login` is what the sub-account types at /login/ram: 'name@domain'.
 */
export async function newRamAccount(
  t: TestApp,
  tenantId: number,
  over: { username?: string; password?: string; nickname?: string; auth?: RoleAuth; status?: number } = {},
) {
  const now = Date.now();
  const roleName = `测试角色${++accountSeq}`;
  const role = await t.db
    .insertInto('ram_role')
    .values({ tenant_id: tenantId, name: roleName, name_key: roleName, note: '', auth: JSON.stringify(over.auth ?? FULL_ROLE), create_time: now, update_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const username = over.username ?? `ram${++accountSeq}`;
  const password = over.password ?? 'ramsecret1';
  const ram = await t.db
    .insertInto('ram_account')
    .values({
      tenant_id: tenantId,
      username,
      username_key: username.toLowerCase(),
      nickname: over.nickname ?? '子账号',
      role_id: role.id,
      password_hash: await hashPassword(password),
      status: over.status ?? 1,
      create_time: now,
      login_time: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tenant = await t.db.selectFrom('account').select('domain').where('id', '=', tenantId).executeTakeFirstOrThrow();
  return { id: ram.id, roleId: role.id, username, password, login: `${username}@${tenant.domain}`, domain: tenant.domain };
}

/** A new sub-account of a tenant with a role of `auth`, signed in; returns its token (throws when refused). */
export async function ramToken(t: TestApp, tenantId: number, auth: RoleAuth = FULL_ROLE): Promise<string> {
  const ram = await newRamAccount(t, tenantId, { auth });
  const res = await signIn(t, ram.login, ram.password, { ram: true });
  if (res.code !== 200) throw new Error(`ram login: ${res.msg}`);
  return res.data!.access_token;
}

/** Signs in through /login/authorization (or /login/ram) with a fresh captcha; returns the envelope. */
export async function signIn(t: TestApp, username: string, password: string, opts: { ip?: string; ram?: boolean } = {}) {
  const { login, loginRam } = await import('@hublink/contract');
  const cap = await t.captcha();
  return t.call(opts.ram ? loginRam : login, {
    body: { username, password, code: cap.text, uniqid: cap.uniqid },
    ip: opts.ip ?? t.nextIp(),
  });
}
