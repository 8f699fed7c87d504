import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './db/connect';
import { DATABASES } from '../test/helpers';
import { until } from '../test/until';
import { BIN, call, databaseFor, freePort, runOps, START_MS, type Answer } from '../test/serverProcess';
import { PgBossJobRunner } from './core/jobsPgBoss';
import { jobsSchemaOf } from './core/backbone';
import { monitorModule } from './modules/monitor';

/**
 * HUBLINK_WORKERS=2 as an operator runs it: the real `hublink start` with two worker processes on one
 * port, on SQLite (one file, WAL) and on PostgreSQL (a database of its own). Every request goes over
 * a new connection, so the primary hands them to both workers in turn.
 */

const PASSWORD = 'Passw0rd2026';

describe.each(DATABASES)('HUBLINK_WORKERS=2 (%s)', (dialect) => {
  let dataDir: string;
  let port: number;
  let server: ChildProcess;
  let exited: Promise<number | null>;
  let db: DbHandle;
  let drop: () => Promise<void>;
  let token: string;
  let log = '';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-workers-'));
    port = await freePort();
    const database = await databaseFor(dialect, dataDir, 'hublink_workers');
    drop = database.drop;
    const env = {
      ...process.env,
      ...database.env,
      NODE_ENV: 'test',
      HUBLINK_DATA_DIR: dataDir,
      HUBLINK_HANDBOOK_DIR: path.resolve(import.meta.dirname, '../../../docs/handbook'),
      HUBLINK_DEV_ENDPOINTS: '1',
      HUBLINK_API_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
    };
    // The tenant, made as the operator would, before the server starts (the CLI migrates the database).
    await runOps(env, ['tenants', 'create', '--username', 'workers01', '--nickname', 'workers', '--password', PASSWORD, '--phone', '13800000077']);
    await runOps(env, ['tenants', 'plan', 'workers01', '--network-router-count', '1000']);

    server = spawn(process.execPath, [BIN, 'start'], { env: { ...env, HUBLINK_WORKERS: '2' }, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    server.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
    db = database.open();
    // Both workers up: each beats into gateway_instance once its gateway has started.
    await until(
      async () => (await db.db.selectFrom('gateway_instance').select('instance').execute()).length === 2,
      `two workers started (log: ${log.slice(-2000)})`,
      START_MS,
    );
    await until(async () => (await call(port, 'GET', '/api/v1/site/info').catch(() => ({ code: 0 }))).code === 200, 'the port answers', START_MS);
  }, START_MS * 2 + 30_000);

  afterAll(async () => {
    if (process.env.WORKERS_TEST_LOG) fs.writeFileSync(`${process.env.WORKERS_TEST_LOG}.${dialect}`, log);
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await exited;
    }
    await db?.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('runs two worker processes under the one it was started as', async () => {
    const rows = await db.db.selectFrom('gateway_instance').select('instance').execute();
    const pids = rows.map((r) => Number(r.instance.slice(r.instance.lastIndexOf('-') + 1)));
    expect(new Set(pids).size).toBe(2);
    for (const pid of pids) {
      expect(pid).not.toBe(server.pid);
      // Field 4 of /proc/<pid>/stat is the parent's pid (the command in field 2 has no spaces here).
      const parent = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[3]);
      expect(parent).toBe(server.pid);
    }
  });

  it('shares captchas between the workers: every sign-in passes whichever worker answers each step', async () => {
    for (let i = 0; i < 8; i++) {
      const captcha = (await call(port, 'GET', '/api/v1/verify/code')) as Answer & { data: { uniqid: string } };
      expect(captcha.code).toBe(200);
      const answer = (await call(port, 'GET', `/api/dev/captcha?uniqid=${captcha.data.uniqid}`)) as Answer & { data: { text: string } };
      expect(answer.data.text).not.toBe('');
      const login = (await call(port, 'POST', '/api/v1/login/authorization', {
        body: { username: 'workers01', password: PASSWORD, code: answer.data.text, uniqid: captcha.data.uniqid },
      })) as Answer & { data: { access_token: string } };
      expect(login.code).toBe(200);
      token = login.data.access_token;
    }
  });

  it('loses no write when both workers add members at once', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `w${String(i).padStart(4, '0')}`);
    const answers = await Promise.all(
      names.map((username) =>
        call(port, 'POST', '/api/v1/router/add', { token, body: { router_type: 2, username, password: PASSWORD, area_code: '86', note: '' } }),
      ),
    );
    expect(answers.filter((a) => a.code !== 200)).toEqual([]);
    const list = await call(port, 'GET', '/api/v1/router/lists?type=2&page=1', { token });
    expect(list.count).toBe(names.length);
    const rows = await db.db.selectFrom('member').select('router_name').where('router_type', '=', 2).execute();
    expect(rows.map((r) => r.router_name).sort()).toEqual(names);
    // The kept count (triggers) agrees with the rows: no update of it was lost either.
    const quantity = (await call(port, 'GET', '/api/v1/router/quantity', { token })) as Answer & { data: Record<string, number> };
    expect(JSON.stringify(quantity.data)).toContain(String(names.length));
  });

  it('runs each job once, in the first worker only', async () => {
    const instances = (await db.db.selectFrom('gateway_instance').select('instance').execute()).map((r) => r.instance);
    const count = 12;
    if (dialect === 'sqlite') {
      const now = Date.now();
      await db.db
        .insertInto('job_queue')
        .values(Array.from({ length: count }, () => ({ name: 'monitor.deliver', data: JSON.stringify({ delivery_id: 0 }), run_at: now, create_time: now })))
        .execute();
    } else {
      const jobs = new PgBossJobRunner(db.db, silent, 'test-sender', monitorModule.jobs!.filter((j) => j.name === 'monitor.deliver'), () => ({}), {
        connectionString: new URL(db.url!).toString(),
        schema: jobsSchemaOf({}),
        timezone: 'Asia/Shanghai',
      });
      for (let i = 0; i < count; i++) await jobs.send('monitor.deliver', { delivery_id: 0 });
      await jobs.stop();
    }
    const runs = () => db.db.selectFrom('job_run').select(['job_id', 'instance', 'outcome']).where('job', '=', 'monitor.deliver').execute();
    await until(async () => (await runs()).length >= count, `${count} job runs`, 60_000);
    if (dialect === 'sqlite') await until(async () => (await db.db.selectFrom('job_queue').select('id').execute()).length === 0, 'the queue emptied');
    const done = await runs();
    expect(done).toHaveLength(count);
    expect(new Set(done.map((r) => r.job_id)).size).toBe(count);
    const ran = new Set(done.map((r) => r.instance));
    expect(ran.size).toBe(1);
    expect(instances).toContain([...ran][0]);
  }, 90_000);

  it('stops both workers and exits 0 on SIGTERM', async () => {
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(log).not.toMatch(/"level":50/);
  }, 60_000);
});

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent, level: 'silent' } as never;
