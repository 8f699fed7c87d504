/**
 * Load benchmark of the console's calls with many clients at once (issue 16): seeds a tenant of 100,000
 * members and 1,000 networks (bench/seed.ts) with sub-accounts beside its main account, starts the real
 * server as a child process (`main.ts start`, production mode) and drives it with autocannon: 64
 * connections for 30 s on a mix of lists, search, detail, network status and note edits, each request
 * as one of the signed-in users. A bare Fastify route in a child process answers the same JSON as
 * /router/lists from memory, measured in the same run.
 *
 *   npm run bench:load                 SQLite, then PostgreSQL when BENCH_DATABASE_URL is set
 *   BENCH_DATABASE_URL=postgres://…    a database of its own on that server, dropped afterwards
 *   BENCH_WORKERS=1,2                  HUBLINK_WORKERS of each run (default 1 and 2)
 *   BENCH_DURATION_S=30                seconds of each measured run (a 5 s warm-up comes before it)
 *   BENCH_CONNECTIONS=64               autocannon's concurrent connections
 *   BENCH_MIX=console|reads|lists      the console's mix (default), the same without its writes, or
 *                                      /router/lists page 1 only
 *   BENCH_LOGS=warn:json               LOG_LEVEL:LOG_FORMAT of each run, comma-separated (the log's cost)
 *   BENCH_DATABASES=sqlite,postgres    which databases to run (default: sqlite, postgres with the URL)
 *   BENCH_STATEMENTS=12                PostgreSQL: the statements of the measured run that cost most, from
 *                                      pg_stat_statements when the server preloads it (0: none)
 *
 * autocannon runs in this process, on the same machine: its CPU time is printed beside the server's
 * so a run limited by the machine's cores can be told from one limited by the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { connect, type Db } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { TokenService } from '../packages/server/src/core/tokens';
import { loadConfig } from '../packages/server/src/config';
import { MEMBERS, NETWORKS, seed } from './seed';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 30);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const WORKERS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);
const MIX = process.env.BENCH_MIX ?? 'console';
const LOGS = (process.env.BENCH_LOGS ?? 'warn:json').split(',').map((s) => {
  const [level, format] = s.split(':');
  return { level: level!, format: format ?? 'json' };
});
const PG_URL = process.env.BENCH_DATABASE_URL;
const DATABASES = (process.env.BENCH_DATABASES ?? (PG_URL ? 'sqlite,postgres' : 'sqlite')).split(',');
const PORT = Number(process.env.BENCH_PORT ?? 18_190);
const STATEMENTS = Number(process.env.BENCH_STATEMENTS ?? 12);
/** Signed-in users: the tenant's main account and this many sub-accounts with a full role. */
const SUB_ACCOUNTS = 7;
const TARGET_P99_MS = 50;
const TARGET_SCALING = 1.6;
const LISTS_URL = '/api/v1/router/lists?type=2&page=1';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = (n: number) => Math.floor(Math.random() * n);
/** A member seed.ts made: every tenth a router, the rest software members. */
const memberName = (i: number) => (i % 10 === 0 ? `router${String(i).padStart(6, '0')}` : `user${String(i).padStart(6, '0')}`);
const networkNumber = (i: number) => `NBENCH${String(i).padStart(6, '0')}`;

// ---- the bare route (a child process) ----------------------------------------------------------

async function runBare() {
  const body = await new Promise<string>((resolve) => process.once('message', (m: { body: string }) => resolve(m.body)));
  const bare = Fastify({ logger: false });
  bare.get('/*', async (_req, reply) => reply.type('application/json').send(body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (bare.server.address() as { port: number }).port });
  process.on('SIGTERM', () => void bare.close().then(() => process.exit(0)));
}

// ---- the database: seeded once, served by every run on it --------------------------------------

interface Prepared {
  dialect: string;
  dataDir: string;
  databaseUrl?: string;
  /** Bearer tokens of the signed-in users: the main account first. */
  tokens: string[];
  drop(): Promise<void>;
}

/** The tenant's sub-accounts, with a role that may do everything the mix does. */
async function addSubAccounts(db: Db, tenantId: number): Promise<number[]> {
  const now = Date.now();
  const auth = JSON.stringify({
    'easylink.router': { create: 1, edit: 1, delete: 1 },
    'easylink.network': { create: 1, edit: 1, delete: 1, network: [] },
    monitor: { view: 1, create: 1, edit: 1, delete: 1 },
  });
  const role = await db.insertInto('ram_role').values({ tenant_id: tenantId, name: 'bench', name_key: 'bench', note: '', auth, create_time: now, update_time: now }).returning('id').executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (let i = 0; i < SUB_ACCOUNTS; i++) {
    const username = `benchsub${i}`;
    const ram = await db
      .insertInto('ram_account')
      .values({ tenant_id: tenantId, username, username_key: username, nickname: username, role_id: role.id, password_hash: 'x', status: 1, create_time: now, login_time: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(ram.id);
  }
  return ids;
}

async function prepare(dialect: string): Promise<Prepared> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-load-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (dialect === 'postgres') {
    if (!PG_URL) throw new Error('BENCH_DATABASE_URL is needed for postgres');
    // A database of its own rather than a schema: the server in the child process uses the default
    // schemas (its tables, pg-boss's queue) and finds nothing of anyone else's there.
    const name = `hublink_load_${process.pid}`;
    const admin = connect({ databaseUrl: PG_URL, dataDir });
    await sql`create database ${sql.id(name)}`.execute(admin.db);
    await admin.close();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const a = connect({ databaseUrl: PG_URL, dataDir });
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(a.db);
      await a.close();
    };
  }
  const drop = async () => {
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const handle = connect({ databaseUrl, dataDir });
    await migrateToLatest(handle);
    const t0 = Date.now();
    const seeded = await seed(handle.db);
    const subs = await addSubAccounts(handle.db, seeded.tenantId);
    // Vacuumed as autovacuum leaves a settled database: index-only scans need the visibility map.
    if (handle.dialect === 'postgres') await sql`vacuum analyze`.execute(handle.db);
    // Sessions as a sign-in opens them: the key lives in the database, so the server accepts these tokens.
    const config = loadConfig({ HUBLINK_DATA_DIR: dataDir });
    const issuer = new TokenService(handle.db, config.tokenTtlSeconds, config.sessionTtlSeconds);
    const tokens = [(await issuer.issue(seeded.tenantId, null)).token];
    for (const id of subs) tokens.push((await issuer.issue(seeded.tenantId, id)).token);
    await handle.close();
    console.log(`seeded ${MEMBERS.toLocaleString('en')} members, ${NETWORKS.toLocaleString('en')} networks and ${SUB_ACCOUNTS} sub-accounts on ${dialect} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { dialect, dataDir, databaseUrl, tokens, drop };
  } catch (e) {
    await drop();
    throw e;
  }
}

// ---- the server -------------------------------------------------------------------------------

class Server {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** Bytes the server wrote to stdout and stderr (its log). */
  logBytes = 0;
  private readonly tail: string[] = [];

  constructor(db: Prepared, workers: number, log: { level: string; format: string }) {
    // BENCH_SERVER_NODE_OPTIONS: e.g. --cpu-prof --cpu-prof-dir=/tmp/prof to see where the server's time goes.
    const nodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
    this.child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', 'packages/server/src/main.ts', 'start'], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HUBLINK_DATA_DIR: db.dataDir,
        ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
        PORT: String(PORT),
        HOST: '127.0.0.1',
        HUBLINK_WORKERS: String(workers),
        LOG_LEVEL: log.level,
        LOG_FORMAT: log.format,
        // Every client comes from 127.0.0.1: the per-address safety net would refuse them after 1,200 a minute.
        HUBLINK_API_RATE_LIMIT: '1000000000',
        HUBLINK_HANDBOOK_DIR: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      stream.on('data', (chunk: Buffer) => {
        this.logBytes += chunk.length;
        if (this.tail.length < 20) this.tail.push(chunk.toString('utf8').slice(0, 500));
      });
    }
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  async listening(): Promise<void> {
    for (;;) {
      const up = await new Promise<boolean>((resolve) => {
        http
          .get({ host: '127.0.0.1', port: PORT, path: '/api/v1/verify/code' }, (res) => {
            res.resume();
            resolve(true);
          })
          .on('error', () => resolve(false));
      });
      if (up) return;
      if (this.child.exitCode !== null) throw new Error(`the server exited (${this.child.exitCode}): ${this.tail.join('')}`);
      await sleep(100);
    }
  }

  /** CPU time (ms) of the server and every process under it (the cluster's workers). */
  cpuMs(): number {
    return processTree(this.child.pid!).reduce((sum, pid) => sum + cpuOf(pid), 0);
  }

  processes(): number {
    return processTree(this.child.pid!).length;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

const statOf = (pid: number): string[] | null => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
};

/** utime + stime of a live process, in ms (clock ticks of 10 ms). */
const cpuOf = (pid: number): number => {
  const f = statOf(pid);
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / 100 : 0;
};

function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const f = statOf(pid);
    if (f) parents.set(pid, Number(f[1]));
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

// ---- the load ---------------------------------------------------------------------------------

interface Outcome {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors and timeouts, non-2xx answers, and envelopes whose code is not 200. */
  errors: number;
  errorSamples: string[];
  loadCpuMs: number;
}

type Requests = NonNullable<autocannon.Options['requests']>;
type Answer = (status: number, body: string) => void;

/** The console's calls, each request as one of the users in turn, round the list. */
function consoleMix(db: Prepared, answer: Answer): Requests {
  let next = 0;
  const as = (req: autocannon.Request, path: string, extra: Partial<autocannon.Request> = {}): autocannon.Request => ({
    ...req,
    ...extra,
    path,
    headers: { ...req.headers, ...extra.headers, authorization: `Bearer ${db.tokens[next++ % db.tokens.length]}` },
  });
  const get = (pathOf: () => string) => ({ method: 'GET' as const, setupRequest: (req: autocannon.Request) => as(req, pathOf()), onResponse: answer });
  const aMember = () => memberName(pick(MEMBERS));
  const reads = [
    get(() => LISTS_URL),
    get(() => `/api/v1/router/lists?type=2&page=${1 + pick(500)}`),
    get(() => '/api/v1/router/lists?type=1&page=1'),
    get(() => `/api/v1/router/lists?type=2&page=1&search=user0${String(pick(10_000)).padStart(4, '0')}`),
    get(() => `/api/v1/router/info?router_name=${aMember()}`),
    get(() => `/api/v1/network/lists?page=${1 + pick(100)}`),
    get(() => `/api/v1/network/status?network_number=${networkNumber(1 + pick(NETWORKS - 1))}`),
  ];
  if (MIX === 'reads') return reads;
  return [
    ...reads,
    {
      method: 'POST',
      setupRequest: (req: autocannon.Request) =>
        as(req, '/api/v1/router/note', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ router_name: aMember(), note: `load ${pick(1000)}` }) }),
      onResponse: answer,
    },
  ];
}

/** autocannon on `url` for `durationS`; `requests` builds the request list with the answer check. */
async function load(url: string, requests: (answer: Answer) => Requests, durationS: number): Promise<Outcome> {
  let bad = 0;
  const errorSamples: string[] = [];
  const answer: Answer = (status, body) => {
    const text = String(body);
    if (status === 200 && text.startsWith('{"code":200,')) return;
    bad++;
    if (errorSamples.length < 5) errorSamples.push(`HTTP ${status} ${text.slice(0, 160)}`);
  };
  const cpu0 = process.cpuUsage();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: durationS, requests: requests(answer) });
  const cpu = process.cpuUsage(cpu0);
  return {
    rps: result.requests.total / durationS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    // A non-2xx answer is also a bad envelope: counted once.
    errors: result.errors + result.timeouts + Math.max(result.non2xx, bad),
    errorSamples,
    loadCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

interface Row {
  name: string;
  workers: number;
  processes: number;
  out: Outcome;
  serverCpuMs: number;
  /** PostgreSQL: CPU time of the server's connections (their backend processes) during the run. */
  databaseCpuMs?: number;
  logBytes: number;
}

/** The backend processes serving the benchmark's database (PostgreSQL runs on this machine). */
async function backendsOf(db: Prepared): Promise<number[]> {
  if (!db.databaseUrl || !PG_URL) return [];
  const admin = connect({ databaseUrl: PG_URL, dataDir: db.dataDir });
  try {
    const name = new URL(db.databaseUrl).pathname.slice(1);
    const rows = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`.execute(admin.db);
    return rows.rows.map((r) => r.pid);
  } finally {
    await admin.close();
  }
}

/**
 * pg_stat_statements of the benchmark's database, when the server preloads it (shared_preload_libraries):
 * `reset` before the measured run, `top` after it. Null when it is not there: the run goes on without.
 */
async function statementsOf(db: Prepared): Promise<{ reset(): Promise<void>; top(requests: number): Promise<string[]> } | null> {
  if (!db.databaseUrl || STATEMENTS <= 0) return null;
  const handle = connect({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  try {
    await sql`create extension if not exists pg_stat_statements`.execute(handle.db);
    await sql`select 1 from pg_stat_statements limit 1`.execute(handle.db);
  } catch {
    await handle.close();
    return null;
  }
  const name = new URL(db.databaseUrl).pathname.slice(1);
  return {
    async reset() {
      await sql`select pg_stat_statements_reset()`.execute(handle.db);
    },
    async top(requests: number) {
      try {
        const { rows } = await sql<{ calls: string; total: number; mean: number; rows: string; hit: string; query: string }>`
          select s.calls, s.total_exec_time + s.total_plan_time as total, s.mean_exec_time as mean, s.rows, s.shared_blks_hit as hit, s.query
          from pg_stat_statements s join pg_database d on d.oid = s.dbid
          where d.datname = ${name} order by s.total_exec_time + s.total_plan_time desc limit ${STATEMENTS}`.execute(handle.db);
        const all = await sql<{ total: number }>`
          select coalesce(sum(s.total_exec_time + s.total_plan_time), 0) as total from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = ${name}`.execute(handle.db);
        const sum = Number(all.rows[0]?.total ?? 0);
        return [
          `pg_stat_statements of the run: ${(sum / Math.max(1, requests)).toFixed(3)} ms of statement time per request (planning and execution)`,
          ...rows.map(
            (r) =>
              `${((100 * r.total) / Math.max(0.001, sum)).toFixed(1).padStart(5)} %  ${(r.total / Math.max(1, requests)).toFixed(3)} ms/req  ${String(r.calls).padStart(7)} calls  ${r.mean.toFixed(3)} ms  ${(Number(r.hit) / Math.max(1, Number(r.calls))).toFixed(0).padStart(5)} buffers/call  ${r.query.replace(/\s+/g, ' ').slice(0, 150)}`,
          ),
        ];
      } finally {
        await handle.close();
      }
    },
  };
}

async function runServer(db: Prepared, workers: number, log: { level: string; format: string }): Promise<Row & { body: string }> {
  const server = new Server(db, workers, log);
  try {
    await server.listening();
    const url = `http://127.0.0.1:${PORT}`;
    const body = await fetch(url + LISTS_URL, { headers: { authorization: `Bearer ${db.tokens[0]}` } }).then((r) => r.text());
    if (!body.startsWith('{"code":200,')) throw new Error(`/router/lists answered ${body.slice(0, 200)}`);
    const requests = (answer: Answer): Requests =>
      MIX === 'lists' ? [{ method: 'GET', path: LISTS_URL, headers: { authorization: `Bearer ${db.tokens[0]}` }, onResponse: answer }] : consoleMix(db, answer);
    await load(url, requests, WARMUP_S);
    const processes = server.processes();
    const backends = await backendsOf(db);
    const statements = await statementsOf(db);
    await statements?.reset();
    const dbCpu = () => backends.reduce((sum, pid) => sum + cpuOf(pid), 0);
    const dbCpu0 = dbCpu();
    const cpu0 = server.cpuMs();
    const log0 = server.logBytes;
    const out = await load(url, requests, DURATION_S);
    const serverCpuMs = server.cpuMs() - cpu0;
    const databaseCpuMs = backends.length ? dbCpu() - dbCpu0 : undefined;
    for (const line of (await statements?.top(out.requests)) ?? []) console.log(`    ${line}`);
    const name = `${db.dialect}, ${workers} worker${workers > 1 ? 's' : ''}${LOGS.length > 1 || log.level !== 'warn' ? `, LOG_LEVEL=${log.level} LOG_FORMAT=${log.format}` : ''}`;
    return { name, workers, processes, out, serverCpuMs, databaseCpuMs, logBytes: server.logBytes - log0, body };
  } finally {
    await server.stop();
  }
}

async function runBareRoute(body: string): Promise<Row> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, 'bare'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await new Promise<number>((resolve) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.send({ body });
    });
    const url = `http://127.0.0.1:${port}`;
    const plain = (answer: Answer): Requests => [{ method: 'GET', path: LISTS_URL, onResponse: answer }];
    await load(url, plain, WARMUP_S);
    const cpu0 = cpuOf(child.pid!);
    const out = await load(url, plain, DURATION_S);
    return { name: 'bare Fastify route (same JSON as /router/lists)', workers: 1, processes: 1, out, serverCpuMs: cpuOf(child.pid!) - cpu0, logBytes: 0 };
  } finally {
    child.kill('SIGTERM');
  }
}

const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);

async function main() {
  const cpus = os.cpus();
  console.log(
    `${new Date().toISOString()}: ${cpus.length} CPUs (${cpus[0]?.model}), Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ` +
      `${CONNECTIONS} connections, ${DURATION_S} s per run after ${WARMUP_S} s warm-up, mix ${MIX}`,
  );
  const rows: Row[] = [];
  let listsBody = '';
  const failures: string[] = [];
  for (const dialect of DATABASES) {
    const db = await prepare(dialect);
    try {
      const byWorkers = new Map<number, number>();
      for (const log of LOGS) {
        for (const workers of WORKERS) {
          const row = await runServer(db, workers, log);
          listsBody = row.body;
          rows.push(row);
          byWorkers.set(workers, row.out.rps);
          const perRequest = (cpuMs: number) => (cpuMs / Math.max(1, row.out.requests)).toFixed(2);
          console.log(
            `  ${row.name}: ${Math.round(row.out.rps)} req/s, p50 ${ms(row.out.p50)} ms, p99 ${ms(row.out.p99)} ms, ${row.out.errors} errors (${row.processes} processes), ` +
              `server CPU ${perRequest(row.serverCpuMs)} ms/request${row.databaseCpuMs === undefined ? '' : `, PostgreSQL CPU ${perRequest(row.databaseCpuMs)} ms/request`}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
          );
          for (const s of row.out.errorSamples) console.log(`    ${s}`);
          if (row.out.errors > 0) failures.push(`${row.name}: ${row.out.errors} errors`);
          if (row.out.p99 >= TARGET_P99_MS) failures.push(`${row.name}: p99 ${ms(row.out.p99)} ms`);
        }
      }
      const one = byWorkers.get(1);
      const two = byWorkers.get(2);
      if (one && two && LOGS.length === 1) {
        console.log(`  ${dialect}: 2 workers give ${(two / one).toFixed(2)}x the throughput of 1`);
        if (two / one < TARGET_SCALING) failures.push(`${dialect}: 2 workers ${(two / one).toFixed(2)}x of 1`);
      }
    } finally {
      await db.drop();
    }
  }
  if (listsBody) rows.push(await runBareRoute(listsBody));

  console.log(`\nload average after the runs ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log('| configuration | processes | req/s | p50 ms | p99 ms | errors | server CPU | req per server CPU-second | PostgreSQL CPU | PostgreSQL CPU per request | autocannon CPU | log bytes/request |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const cores = (cpuMs: number) => `${(cpuMs / 1000 / DURATION_S).toFixed(2)} cores`;
    console.log(
      `| ${r.name} | ${r.processes} | ${Math.round(r.out.rps).toLocaleString('en')} | ${ms(r.out.p50)} | ${ms(r.out.p99)} | ${r.out.errors} | ${cores(r.serverCpuMs)} | ${Math.round(r.out.requests / Math.max(0.001, r.serverCpuMs / 1000)).toLocaleString('en')} | ${r.databaseCpuMs === undefined ? '-' : cores(r.databaseCpuMs)} | ${r.databaseCpuMs === undefined ? '-' : `${(r.databaseCpuMs / Math.max(1, r.out.requests)).toFixed(2)} ms`} | ${cores(r.out.loadCpuMs)} | ${Math.round(r.logBytes / Math.max(1, r.out.requests))} |`,
    );
  }
  if (failures.length) {
    console.log(`\ntargets missed (zero errors, p99 under ${TARGET_P99_MS} ms, 2 workers at least ${TARGET_SCALING}x of 1):\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nevery target met');
  }
}

if (process.argv[2] === 'bare') await runBare();
else await main();
