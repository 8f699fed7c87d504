/**
 * Latency benchmark of the member and network lists at scale (issue 4): seeds one tenant with 100,000
 * members and 1,000 networks, then times each call over HTTP against a bare Fastify route that answers
 * the same JSON from memory, sequentially over one keep-alive connection.
 *
 *   npm run bench                      SQLite in a temporary data directory
 *   BENCH_DATABASE_URL=postgres://…    the same on PostgreSQL (a fresh schema, dropped afterwards)
 *   BENCH_REPEAT=3                     the measured set three times on one seeded database, each run's
 *                                      table printed, then the spread of each call's p50 and p99
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import http from 'node:http';
import { sql, type LogEvent } from 'kysely';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { jobsSchemaOf } from '../packages/server/src/core/backbone';
import { connect } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { BIG_NETWORK_MEMBERS, seed } from './seed';

const WARMUP = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
/**
 * The runs of a call are split into rounds, ours and the bare route's taking turns, and each figure
 * is the median of the rounds': on a shared 2-vCPU machine a pause of the host lands in one round
 * instead of setting the p99 of the whole call.
 */
const ROUNDS = 5;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
/** SQLite (issue 4): p99 within 3x of the bare route and under 20 ms. */
const TARGET_RATIO = 3;
const TARGET_P99_MS = 20;
/** PostgreSQL (issue 16): every call under 10 ms at p99, the status of the 1,000-member network under 30 ms. */
const PG_TARGET_P99_MS = 10;
const PG_STATUS_TARGET_P99_MS = 30;

interface Case {
  name: string;
  url: string;
  /** The PostgreSQL target of its p99 (ms). */
  pgTarget: number;
}

interface Timing {
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A client of one server over a single keep-alive connection. */
class Client {
  private agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  constructor(private port: number) {}
  get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, path: url, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
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

/** Calls the URL `runs` times in a row and returns its percentiles and last body. */
async function time(client: Client, url: string, headers: Record<string, string>, runs: number): Promise<Timing & { body: string }> {
  let body = '';
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const res = await client.get(url, headers);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    body = res.body;
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${body.slice(0, 200)}`);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), body };
}

const summary = (rounds: Timing[]): Timing => ({ p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)) });

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-bench-'));
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const schema = `bench_${process.pid}`;
  if (pgUrl) {
    const admin = connect({ databaseUrl: pgUrl, dataDir: dir });
    await admin.db.schema.createSchema(schema).ifNotExists().execute();
    await admin.close();
  }
  // Time spent in SQL while our calls are measured, to tell the database's share from the rest.
  const inSql = { on: false, ms: 0 };
  const log = (e: LogEvent) => {
    if (inSql.on) inSql.ms += e.queryDurationMillis;
  };
  const handle = connect({ databaseUrl: pgUrl, dataDir: dir, log, ...(pgUrl ? { schema } : {}) });
  await migrateToLatest(handle);
  const config = { ...loadConfig({ HUBLINK_DATA_DIR: dir, HUBLINK_API_RATE_LIMIT: '100000000' }), prettyLogs: false };
  const app = await buildApp(config, { db: handle, logger: false });

  const t0 = Date.now();
  const seeded = await seed(handle.db);
  // A bulk load leaves PostgreSQL without statistics and without a visibility map (index-only scans
  // read the table while it is missing) until autovacuum comes by, as it does on a live database.
  // Only the seeded tables: a bare VACUUM would go through every schema of a shared database.
  if (handle.dialect === 'postgres') await sql`vacuum analyze account, member, member_count, network, network_member, member_link`.execute(handle.db);
  console.log(`seeded 100,000 members and 1,000 networks on ${handle.dialect} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const { token } = await app.ctx.tokens.issue(seeded.tenantId, null);
  const pool = await handle.poolSize?.();
  const auth = { authorization: `Bearer ${token}` };

  const big = BIG_NETWORK_MEMBERS.toLocaleString('en-US');
  const firstPages = 'member_page=1&link_page=1&page_size=10';
  const cases: Case[] = [
    { name: '/router/lists page 1', url: '/api/v1/router/lists?type=2&page=1', pgTarget: PG_TARGET_P99_MS },
    { name: '/router/lists page 500', url: '/api/v1/router/lists?type=2&page=500', pgTarget: PG_TARGET_P99_MS },
    { name: '/router/lists search', url: `/api/v1/router/lists?type=2&page=1&search=${seeded.searchText}`, pgTarget: PG_TARGET_P99_MS },
    { name: '/network/lists page 1', url: '/api/v1/network/lists?page=1', pgTarget: PG_TARGET_P99_MS },
    { name: '/network/lists search', url: '/api/v1/network/lists?page=1&search=%E7%BD%91%E7%BB%9C999', pgTarget: PG_TARGET_P99_MS },
    { name: `/network/status (${big} members)`, url: `/api/v1/network/status?network_number=${seeded.bigNetwork}`, pgTarget: PG_STATUS_TARGET_P99_MS },
    // What the detail page asks (issue 34): the first page of members and of links.
    { name: `/network/info page 1 (${big} members)`, url: `/api/v1/network/info?network_number=${seeded.bigNetwork}&${firstPages}`, pgTarget: PG_TARGET_P99_MS },
    { name: `/network/status page 1 (${big} members)`, url: `/api/v1/network/status?network_number=${seeded.bigNetwork}&${firstPages}`, pgTarget: PG_TARGET_P99_MS },
    // The router detail's network panel: a center's own view (issue 34).
    { name: `/network/status of a center (${big} members)`, url: `/api/v1/network/status?network_number=${seeded.bigNetwork}&router_name=${seeded.bigCenter}&link_page=1&page_size=1`, pgTarget: PG_TARGET_P99_MS },
    { name: `/network/delivery (${big} members)`, url: `/api/v1/network/delivery?network_number=${seeded.bigNetwork}`, pgTarget: PG_TARGET_P99_MS },
    // What the network page polls: the count of members behind, not their list.
    { name: `/network/delivery count (${big} members)`, url: `/api/v1/network/delivery?network_number=${seeded.bigNetwork}&behind_page=1&page_size=1`, pgTarget: PG_TARGET_P99_MS },
  ];
  const pg = handle.dialect === 'postgres';
  const withinTarget = (c: Case, o: Timing, ratio: number) => (pg ? o.p99 < c.pgTarget : ratio <= TARGET_RATIO && o.p99 <= TARGET_P99_MS);

  await app.listen({ port: 0, host: '127.0.0.1' });
  const appPool = new Client((app.server.address() as { port: number }).port);

  const bodies = new Map<string, string>();
  const bare = Fastify({ logger: false });
  bare.get('/*', async (req, reply) => reply.type('application/json').send(bodies.get(req.url)));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePool = new Client((bare.server.address() as { port: number }).port);

  // Both servers are warmed on every call before any is measured, so no call measures a cold JIT.
  for (const c of cases) {
    const first = await time(appPool, c.url, auth, WARMUP);
    const envelope = JSON.parse(first.body) as { code: number; msg: string };
    if (envelope.code !== 200) throw new Error(`${c.name}: code ${envelope.code} ${envelope.msg}`);
    bodies.set(c.url, first.body);
  }
  for (const c of cases) await time(barePool, c.url, {}, WARMUP);

  let failed = false;
  const spread = new Map<string, Timing[]>();
  for (let run = 1; run <= REPEAT; run++) {
    const rows: string[] = [];
    for (const c of cases) {
      const answer = bodies.get(c.url)!;
      const ours: Timing[] = [];
      const ref: Timing[] = [];
      inSql.ms = 0;
      for (let r = 0; r < ROUNDS; r++) {
        inSql.on = true;
        ours.push(await time(appPool, c.url, auth, RUNS / ROUNDS));
        inSql.on = false;
        ref.push(await time(barePool, c.url, {}, RUNS / ROUNDS));
      }
      const o = summary(ours);
      const b = summary(ref);
      const ratio = o.p99 / b.p99;
      const ok = withinTarget(c, o, ratio);
      if (!ok) failed = true;
      spread.set(c.name, [...(spread.get(c.name) ?? []), o]);
      rows.push(
        `| ${c.name} | ${(answer.length / 1024).toFixed(1)} KB | ${(inSql.ms / RUNS).toFixed(2)} | ${o.p50.toFixed(2)} | ${o.p99.toFixed(2)} | ${b.p50.toFixed(2)} | ${b.p99.toFixed(2)} | ${ratio.toFixed(2)}x | ${ok ? 'yes' : 'NO'} |`,
      );
    }
    const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`\n${handle.dialect}${pool ? ` (pool ${pool})` : ''}, run ${run} of ${REPEAT}, load average ${load}: ${RUNS} sequential requests per call in ${ROUNDS} rounds after ${WARMUP} warm-up; medians of the rounds, times in ms\n`);
    console.log('| call | answer | SQL mean | p50 | p99 | bare p50 | bare p99 | p99 ratio | within target |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  }
  if (REPEAT > 1) {
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
    console.log(`\nspread over ${REPEAT} runs (min–max of each run's figure), ms\n`);
    console.log('| call | p50 | p99 |');
    console.log('|---|---|---|');
    for (const [name, ts] of spread) console.log(`| ${name} | ${range(ts.map((t) => t.p50))} | ${range(ts.map((t) => t.p99))} |`);
  }

  appPool.close();
  barePool.close();
  await bare.close();
  await app.close();
  await handle.close();
  if (pgUrl) {
    const admin = connect({ databaseUrl: pgUrl, dataDir: dir });
    await admin.db.schema.dropSchema(schema).cascade().execute();
    await admin.db.schema.dropSchema(jobsSchemaOf({ schema })).ifExists().cascade().execute();
    await admin.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  if (failed) {
    console.log(
      pg
        ? `\nsome calls missed the target (p99 under ${PG_TARGET_P99_MS} ms, the status under ${PG_STATUS_TARGET_P99_MS} ms)`
        : `\nsome calls missed the target (p99 within ${TARGET_RATIO}x of the bare route and under ${TARGET_P99_MS} ms)`,
    );
    process.exitCode = 1;
  }
}

await main();
