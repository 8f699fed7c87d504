/**
 * Bulk import benchmark (issue 16): imports workbooks of 1,000 and 10,000 software members through
 * POST /router/batch and its job, timing upload to the end, the process's peak RSS, and the latency
 * of other console calls made meanwhile on a connection of their own (beside the same calls idle).
 *
 *   npm run bench:import                 SQLite in a temporary data directory
 *   BENCH_DATABASE_URL=postgres://…      the same on PostgreSQL (a fresh schema, dropped afterwards)
 *   BENCH_IMPORT_ROWS=1000,10000         the sizes, in this order
 *
 * UV_THREADPOOL_SIZE is set to the cores plus two for the run (as the server's start should, see
 * docs/decisions.md), by running this file again in a child process with it when it is unset.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS } from '../packages/contract/src';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { hashConcurrency, hashPasswords } from '../packages/server/src/core/passwords';
import { connect } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { benchTenant } from './seed';

if (!process.env.UV_THREADPOOL_SIZE) {
  const env = { ...process.env, UV_THREADPOOL_SIZE: String(os.availableParallelism() + 2) };
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const SIZES = (process.env.BENCH_IMPORT_ROWS ?? '1000,10000').split(',').map(Number);
const TARGET_1000_S = 20;
const TARGET_P99_MS = 50;
const IDLE_RUNS = 300;

/** The calls a console user makes while an import runs. */
const OTHER_CALLS = ['/api/v1/router/lists?type=2&page=1', '/api/v1/router/quantity', '/api/v1/network/lists?page=1', '/api/v1/router/lists?type=2&page=1&search=user00'];

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** GETs over one keep-alive connection. */
class Client {
  private agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  constructor(
    private port: number,
    private auth: Record<string, string>,
  ) {}
  get(url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, path: url, headers: this.auth, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`${url}: HTTP ${res.statusCode}`))));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }
  close() {
    this.agent.destroy();
  }
}

/** A console user's pace: a call, then this long before the next (BENCH_IMPORT_PAUSE_MS). */
const PAUSE_MS = Number(process.env.BENCH_IMPORT_PAUSE_MS ?? 50);

/** Calls the other console calls in turn until `stop` says so; answers the sorted latencies in ms. */
async function otherCalls(client: Client, stop: () => boolean, max = Infinity): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; !stop() && i < max; i++) {
    const t0 = process.hrtime.bigint();
    await client.get(OTHER_CALLS[i % OTHER_CALLS.length]!);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (PAUSE_MS > 0) await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
  return samples.sort((a, b) => a - b);
}

async function workbookOf(rows: number, prefix: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('成员');
  sheet.addRow([...IMPORT_COLUMNS]);
  for (let i = 0; i < rows; i++) {
    const phone = i % 2 === 0 ? `139${String(10_000_000 + i + (prefix.charCodeAt(1) % 10) * 1_000_000).slice(-8)}` : '';
    sheet.addRow([`${prefix}${String(i).padStart(5, '0')}`, `Pass${100_000 + i}`, phone ? '86' : '', phone, `研发部${i % 50}组`]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function main() {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-bench-import-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  if (pgUrl) {
    const admin = connect({ databaseUrl: pgUrl, dataDir: dir });
    await admin.db.schema.createSchema(schema).execute();
    await admin.close();
  }
  const handle = connect({ databaseUrl: pgUrl, dataDir: dir, ...(pgUrl ? { schema } : {}) });
  await migrateToLatest(handle);
  const config = { ...loadConfig({ HUBLINK_DATA_DIR: dir, HUBLINK_API_RATE_LIMIT: '100000000' }), prettyLogs: false, runJobs: true };
  const app = await buildApp(config, { db: handle, logger: false, backbone: { jobPollSeconds: 0.5 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;

  const tenant = { id: await benchTenant(handle.db, { username: 'importbench', sign: 'benchim', domain: 'importbench', members: 100_000 }) };
  const { token } = await app.ctx.tokens.issue(tenant.id, null);
  const auth = { authorization: `Bearer ${token}` };
  const client = new Client(port, auth);
  const poller = new Client(port, auth);

  console.log(
    `bulk import on ${handle.dialect}, ${os.availableParallelism()} cores, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE}, ${hashConcurrency()} hashes at once, Node ${process.version}`,
  );
  // What one scrypt costs on this machine right now (other load included): the floor of an import is
  // rows × this ÷ hashes at once.
  const c0 = Date.now();
  await hashPasswords(Array.from({ length: 20 }, (_, i) => `calibrate${i}`), 1);
  const perHash = (Date.now() - c0) / 20;
  const perRowFloor = perHash / hashConcurrency();
  console.log(`scrypt now: ${perHash.toFixed(0)} ms per hash on one thread; floor ${((1000 * perRowFloor) / 1000).toFixed(1)} s per 1,000 rows at ${hashConcurrency()} at once`);
  const idle = await otherCalls(client, () => false, IDLE_RUNS);
  console.log(`other calls idle: p50 ${percentile(idle, 50).toFixed(1)} ms, p99 ${percentile(idle, 99).toFixed(1)} ms (${idle.length} calls)`);

  const results: string[] = [];
  for (const [n, rows] of SIZES.entries()) {
    const body = await workbookOf(rows, `b${n}u`);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);

    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    const form = new FormData();
    form.append('file', new Blob([body]), `import-${rows}.xlsx`);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/router/batch`, { method: 'POST', headers: auth, body: form });
    const started = (await res.json()) as { code: number; msg: string; data?: { id: number } };
    if (started.code !== 200) throw new Error(`upload: ${started.code} ${started.msg}`);
    const answeredMs = Date.now() - t0;

    let state = 'running';
    let status: { state: string; done: number; fail: number; total: number } | undefined;
    const during = otherCalls(client, () => state !== 'running' || process.env.BENCH_IMPORT_ALONE === '1');
    while (state === 'running') {
      await new Promise((r) => setTimeout(r, 250));
      status = (JSON.parse(await poller.get(`/api/v1/router/batch_status?id=${started.data!.id}`)) as { data: typeof status }).data!;
      state = status.state;
    }
    const seconds = (Date.now() - t0) / 1000;
    clearInterval(sampler);
    const elu = performance.eventLoopUtilization(elu0).utilization;
    const cpu = process.cpuUsage(cpu0);
    const cores = (cpu.user + cpu.system) / 1e6 / seconds;
    const lat = await during;
    const line =
      `${rows} rows: ${seconds.toFixed(1)} s (upload answered in ${answeredMs} ms; ${state}, ${status!.done - status!.fail} added, ${status!.fail} refused), ` +
      `${(rows / seconds).toFixed(0)} rows/s, RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(rssPeak / 2 ** 20).toFixed(0)} MB, ` +
      `main thread busy ${(elu * 100).toFixed(0)}%, process CPU ${cores.toFixed(2)} cores, other calls meanwhile p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms, max ${(lat.at(-1) ?? NaN).toFixed(1)} ms (${lat.length} calls)`;
    console.log(`${line}; floor at the calibrated scrypt ${((rows * perRowFloor) / 1000).toFixed(1)} s`);
    results.push(line);
    if (rows === 1000 && seconds > TARGET_1000_S) console.log(`  1,000 rows took more than the target ${TARGET_1000_S} s`);
    if (percentile(lat, 99) > TARGET_P99_MS) console.log(`  p99 of the other calls above the target ${TARGET_P99_MS} ms`);
  }

  client.close();
  poller.close();
  await app.close();
  if (pgUrl) {
    const admin = connect({ databaseUrl: pgUrl, dataDir: dir });
    await admin.db.schema.dropSchema(schema).cascade().execute();
    await admin.db.schema.dropSchema(`${schema}_jobs`).ifExists().cascade().execute();
    await admin.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
