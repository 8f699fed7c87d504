import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate, type Simulation } from '@hublink/agent';
import { setDns } from '@hublink/contract';
import { connect, type DbHandle } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { createTestApp, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';

/*
 * The fault test of the gateway: the server process is killed (SIGKILL) while agents are connected, a
 * setting change is committed while it is down (by another app on the same database, as a second
 * instance would), and the server starts again under the same instance name. Every agent must come
 * back with the config version it missed, the console must show the right online state, and each
 * session that ended in the crash must have exactly one connect-log end.
 */

const root = path.resolve(import.meta.dirname, '../..');
const FAST = { firstMinMs: 50, firstMaxMs: 200, maxMs: 1_000, throttledMinMs: 1_000 };

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

describe('the gateway after a crash (SIGKILL) and a restart', () => {
  let dataDir = '';
  let port = 0;
  let server: ChildProcess | undefined;
  let out = '';
  let sim: Simulation | undefined;
  let db: DbHandle;
  let token = '';
  let networkNumber = '';
  let members: string[] = [];

  const startServer = async () => {
    out = '';
    server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
      cwd: root,
      env: { ...process.env, HUBLINK_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', HUBLINK_INSTANCE: 'crash-test', LOG_FORMAT: 'json', LOG_LEVEL: 'warn', NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => fetch(`http://127.0.0.1:${port}/api/v1/site/info`).then((r) => r.ok, () => false), `the server listens (${out.slice(-500)})`, 90_000);
  };

  beforeAll(async () => {
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hublink-crash-'));
    port = await freePort();
    // Seed through the API of an app on the same SQLite file (and the same secret key, in the data dir).
    const seedHandle = connect({ dataDir });
    await migrateToLatest(seedHandle);
    const t = await createTestApp('sqlite', { database: seedHandle, config: { dataDir } });
    const a = await newAccount(t);
    token = a.token;
    members = await seedFreshMembers(t, a.account.id, 3);
    networkNumber = await createNetworkThroughApi(t, token, { center: [members[0]!], point: members.slice(1) });
    await t.ctx.events.settle();
    await t.close();

    db = connect({ dataDir });
    await startServer();
    sim = simulate({
      url: `http://127.0.0.1:${port}`,
      members: members.map((router_name) => ({ kind: 'router' as const, router_name, secret: SEEDED_MEMBER_SECRET })),
      startSpreadMs: 100,
      linkDelayMs: [10, 50],
      backoff: FAST,
    });
  }, 180_000);

  afterAll(async () => {
    await sim?.stop();
    server?.kill('SIGKILL');
    await db?.close();
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  const online = async () => (await db.db.selectFrom('member').select(['router_name', 'online_status']).where('router_name', 'in', members).execute()).map((m) => m.online_status);
  const versions = async () => db.db.selectFrom('member_config').select(['member_id', 'version', 'applied_version']).execute();

  it('brings every agent back with the config it missed, online, with one end per ended session', async () => {
    await until(() => sim!.counts().connected === members.length, 'every agent connected', 60_000);
    await until(async () => (await online()).every((o) => o === 1), 'every member online', 30_000);
    await until(async () => (await versions()).every((v) => v.applied_version === v.version), 'every config applied', 30_000);
    const sessionsBefore = (await db.db.selectFrom('device_session').select('id').execute()).map((s) => s.id);
    expect(sessionsBefore).toHaveLength(members.length);
    const versionBefore = new Map((await versions()).map((v) => [v.member_id, v.version]));

    server!.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));
    // Nothing ended the sessions: the rows say online until someone sweeps them.
    expect(await online()).toEqual(members.map(() => 1));

    // A setting changes while this instance is down (another instance, or the operator).
    const other = await createTestApp('sqlite', { database: connect({ dataDir }), config: { dataDir } });
    expect((await other.call(setDns, { token, body: { network_number: networkNumber, dns: ['223.5.5.5'] } })).code).toBe(200);
    await other.ctx.events.settle();
    await other.close();
    const missed = await versions();
    expect(missed.every((v) => v.version === versionBefore.get(v.member_id)! + 1)).toBe(true);

    await startServer();
    await until(() => sim!.counts().connected === members.length, 'every agent reconnected', 60_000);
    await until(async () => (await versions()).every((v) => v.applied_version === v.version), 'the missed version applied by every agent', 60_000);
    for (const c of sim!.clients) expect([...c.held.values()]).toEqual([missed[0]!.version]);
    await until(async () => (await online()).every((o) => o === 1), 'every member online again', 30_000);

    // Each session of before the crash has its begin and exactly one end; the new ones are open.
    for (const id of sessionsBefore) {
      const rows = await db.db.selectFrom('connect_log').select(['online']).where('session_id', '=', id).orderBy('online', 'desc').execute();
      expect(rows.map((r) => r.online)).toEqual([1, 0]);
    }
    const open = await db.db.selectFrom('device_session').select('id').execute();
    expect(open).toHaveLength(members.length);
    expect(open.some((s) => sessionsBefore.includes(s.id))).toBe(false);
  }, 300_000);
});
