/**
 * Load benchmark of the device gateway (issue 13): one server instance (a child process, SQLite in a
 * temporary data dir) holds BENCH_AGENTS simulated agents (10,000) reporting status every 10 s and
 * traffic every 5 s. Measures the server's RSS, CPU and disk writes over the steady state, its message
 * handling latency (the gateway's own histograms, HUBLINK_GATEWAY_METRICS), then restarts it (SIGTERM,
 * start again) and times the reconnect storm until every agent is back.
 *
 *   npm run bench:gateway      BENCH_AGENTS, BENCH_NETWORK_SIZE, BENCH_STEADY_S, BENCH_AGENT_PROCS change it
 *
 * Change to acknowledgement (issue 18): with REDIS_URL set, once every agent is connected the DNS of every
 * network is changed (as the console's /network/dns does: the row, then network.changed) by an app in this
 * process whose deliveries reach the server through Redis; each member's new version is stamped when it
 * is made (member_config.update_time) and when its device acknowledges it (applied_time). The p50 and p95
 * of the difference are printed per run (BENCH_ACK_NETWORKS=n changes only the first n networks). Then the
 * same change as the console makes it, by the server alone (POST /network/dns for every network at once;
 * it commits, recompiles and delivers), and BENCH_ACK_ONE=n (default 20) one-member changes one after
 * another through the server's API: a point's dial mode in the first network (its config and its centers'
 * change), each timed from the request to the last acknowledgement of the versions it made.
 * BENCH_ACK_ONLY=1 stops after these (no steady state, no storm).
 *
 * The agents run in BENCH_AGENT_PROCS child processes of their own (this file with the argument
 * `agents`), so neither their CPU nor their sockets count as the server's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIAL_MODE } from '@hublink/contract';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { connect, type Db } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { acknowledged, acknowledgedSince, Agents, line, mib, post, sample, seconds, seedFleet, Server, sleep, tenantToken, type MetricsLine, type Seeded } from './fleetParts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
/** Members per network: two centers, the rest points (each point links to both centers). */
const NETWORK_SIZE = Number(process.env.BENCH_NETWORK_SIZE ?? 1_000);
const STEADY_S = Number(process.env.BENCH_STEADY_S ?? 120);
const AGENT_PROCS = Number(process.env.BENCH_AGENT_PROCS ?? 2);
/** Reports settle (configs applied, links up, first traffic) before the steady window opens. */
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 30);
/** How many networks the change-to-acknowledgement run changes at once (default: all of them). */
const ACK_NETWORKS = process.env.BENCH_ACK_NETWORKS ? Number(process.env.BENCH_ACK_NETWORKS) : undefined;
const ACK_ONE = Number(process.env.BENCH_ACK_ONE ?? 20);
const METRICS_S = Server.METRICS_S;
const STORM_LIMIT_S = 60;
const PORT = Number(process.env.BENCH_PORT ?? 18_090);
const INSTANCE = 'bench-gateway';

/** One tenant, AGENTS hardware members in networks of NETWORK_SIZE, compiled with their certificates (SQLite in `dir`). */
async function seed(dir: string): Promise<Seeded> {
  const handle = connect({ dataDir: dir });
  await migrateToLatest(handle);
  const app = await buildApp({ ...loadConfig({ HUBLINK_DATA_DIR: dir }), prettyLogs: false, logLevel: 'warn' }, { db: handle, logger: false });
  await app.ready();
  try {
    return await seedFleet(handle.db, app, AGENTS, NETWORK_SIZE);
  } finally {
    await app.close();
    await handle.close();
  }
}

/** BENCH_SEED_CACHE=<dir>: the seeded data dir is kept there and copied on later runs (seeding 10,000 takes minutes). */
async function seedOrCopy(dir: string): Promise<Seeded> {
  const cache = process.env.BENCH_SEED_CACHE;
  const about = cache && path.join(cache, 'bench-seed.json');
  if (cache && about && fs.existsSync(about)) {
    const seeded = JSON.parse(fs.readFileSync(about, 'utf8')) as Seeded;
    if (seeded.names.length === AGENTS && seeded.networks === Math.ceil(AGENTS / NETWORK_SIZE)) {
      fs.cpSync(cache, dir, { recursive: true });
      return seeded;
    }
  }
  const seeded = await seed(dir);
  if (cache && about) {
    fs.rmSync(cache, { recursive: true, force: true });
    fs.cpSync(dir, cache, { recursive: true });
    fs.writeFileSync(about, JSON.stringify(seeded));
  }
  return seeded;
}

// ---- change to acknowledgement (issue 18) -----------------------------------------------------

/**
 * Changes every network's DNS in one go and waits until every member's device acknowledged its new
 * version. Returns, per member (ms, sorted): from the change's commit to the acknowledgement (what a user
 * waits), from the commit to the recompile's start (which stamps the new version's update_time: the
 * event hand-off), and from that stamp to the acknowledgement (the recompile, the delivery, the device).
 */
async function changeToAck(dir: string): Promise<{ took: number[]; fromFirst: number[]; compiled: number[]; delivered: number[]; allMs: number }> {
  const handle = connect({ dataDir: dir });
  const app = await buildApp({ ...loadConfig({ HUBLINK_DATA_DIR: dir, REDIS_URL: process.env.REDIS_URL! }), prettyLogs: false, logLevel: 'warn' }, { db: handle, logger: false });
  await app.ready();
  const { db } = handle;
  let members = 0;
  try {
    const before = new Map((await db.selectFrom('member_config').select(['id', 'version']).execute()).map((r) => [r.id, r.version]));
    const all = await db.selectFrom('network').select(['id', 'tenant_id']).orderBy('id').execute();
    const networks = all.slice(0, ACK_NETWORKS ?? all.length);
    const inChanged = new Set(networks.map((n) => n.id));
    members = (await db.selectFrom('member_config').select('network_id').execute()).filter((r) => inChanged.has(r.network_id)).length;
    const t0 = Date.now();
    const committed = new Map<number, number>();
    for (const n of networks) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('network').set({ dns: JSON.stringify(['223.5.5.5']), update_time: Date.now() }).where('id', '=', n.id).execute();
        await app.ctx.events.emit(trx, { type: 'network.changed', tenant_id: n.tenant_id, network_id: n.id, change: 'settings' });
      });
      committed.set(n.id, Date.now());
    }
    await app.ctx.events.settle();
    for (;;) {
      const c = await acknowledgedSince(db, t0);
      if (c.changed === members && c.acked === members) {
        const rows = await db.selectFrom('member_config').select(['id', 'network_id', 'version', 'update_time', 'applied_version', 'applied_time']).execute();
        const acked = rows.filter((r) => r.version !== before.get(r.id) && acknowledged(r));
        const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
        const at = (r: (typeof acked)[number]) => committed.get(r.network_id) ?? t0;
        return {
          took: sorted(acked.map((r) => Number(r.applied_time) - at(r))),
          fromFirst: sorted(acked.map((r) => Number(r.applied_time) - t0)),
          compiled: sorted(acked.map((r) => Number(r.update_time) - at(r))),
          delivered: sorted(acked.map((r) => Number(r.applied_time) - Number(r.update_time))),
          allMs: Date.now() - t0,
        };
      }
      if (Date.now() - t0 > 300_000) throw new Error(`change to acknowledgement: ${c.acked} of ${c.changed} changed (of ${members}) acknowledged after 300 s`);
      await sleep(250);
    }
  } finally {
    await app.close();
    await handle.close();
  }
}

const tokenOf = (dir: string, db: Db, tenantId: number) => tenantToken(db, loadConfig({ HUBLINK_DATA_DIR: dir }), tenantId);

/**
 * The same change made as the console makes it, by the one server alone (it commits, recompiles and
 * delivers): every network's DNS by POST /network/dns, the calls sent at once. Per member, from the
 * sending to the acknowledgement (ms, sorted).
 */
async function changeToAckByApi(dir: string): Promise<number[]> {
  const handle = connect({ dataDir: dir });
  const { db } = handle;
  try {
    const networks = await db.selectFrom('network').select(['id', 'tenant_id', 'network_number']).orderBy('id').execute();
    const changed = networks.slice(0, ACK_NETWORKS ?? networks.length);
    const token = await tokenOf(dir, db, changed[0]!.tenant_id);
    const ids = changed.map((n) => n.id);
    const members = Number((await db.selectFrom('member_config').select((eb) => eb.fn.countAll<number>().as('n')).where('network_id', 'in', ids).executeTakeFirstOrThrow()).n);
    const t0 = Date.now();
    await Promise.all(changed.map((n) => post(PORT, token, '/network/dns', { network_number: n.network_number, dns: ['119.29.29.29'] })));
    for (;;) {
      const rows = await db.selectFrom('member_config').select(['version', 'applied_version', 'applied_time']).where('network_id', 'in', ids).where('update_time', '>=', t0).execute();
      if (rows.length === members && rows.every(acknowledged)) return rows.map((r) => Number(r.applied_time) - t0).sort((a, b) => a - b);
      if (Date.now() - t0 > 300_000) throw new Error('the change through the API was not acknowledged within 300 s');
      await sleep(250);
    }
  } finally {
    await handle.close();
  }
}

/**
 * One-member changes one after another, made as the console makes them: POST /network/software_mode
 * (a point's dial mode) to the server, which commits, recompiles and delivers by itself (one instance).
 * Each is timed from the request to the acknowledgement of the last version it made (the point's and
 * its centers', stored by one recompile); returns the times (ms, sorted).
 */
async function oneMemberChanges(dir: string, n: number): Promise<{ took: number[]; versions: number }> {
  const handle = connect({ dataDir: dir });
  const { db } = handle;
  const took: number[] = [];
  let versions = 0;
  try {
    const first = await db.selectFrom('network').select(['id', 'tenant_id', 'network_number']).orderBy('id').executeTakeFirstOrThrow();
    const token = await tokenOf(dir, db, first.tenant_id);
    const points = await db
      .selectFrom('network_member as nm')
      .innerJoin('member as m', 'm.id', 'nm.member_id')
      .select(['m.router_name', 'nm.mode'])
      .where('nm.network_id', '=', first.id)
      .where('nm.member_type', '=', 'point')
      .orderBy('nm.id')
      .limit(n)
      .execute();
    for (const p of points) {
      const t0 = Date.now();
      await post(PORT, token, '/network/software_mode', { network_number: first.network_number, router_name: p.router_name, mode: p.mode === DIAL_MODE.centerFirst ? DIAL_MODE.default : DIAL_MODE.centerFirst });
      for (;;) {
        // The recompile stores the point's and its centers' versions in one transaction: all or none show.
        const rows = await db.selectFrom('member_config').select(['version', 'applied_version', 'applied_time']).where('network_id', '=', first.id).where('update_time', '>=', t0).execute();
        if (rows.length > 0 && rows.every(acknowledged)) {
          took.push(Math.max(...rows.map((r) => Number(r.applied_time))) - t0);
          versions += rows.length;
          break;
        }
        if (Date.now() - t0 > 60_000) throw new Error('a one-member change was not acknowledged within 60 s');
        await sleep(20);
      }
    }
  } finally {
    await handle.close();
  }
  return { took: took.sort((a, b) => a - b), versions };
}

// ---- the run ----------------------------------------------------------------------------------

function latencyOf(lines: MetricsLine[]) {
  const windows = lines.filter((l) => l.all.count > 0);
  const p99s = windows.map((l) => l.all.p99).sort((a, b) => a - b);
  const types: Record<string, { count: number; worstP99: number; max: number }> = {};
  for (const l of windows) {
    for (const [type, s] of Object.entries(l.types)) {
      const t = (types[type] ??= { count: 0, worstP99: 0, max: 0 });
      t.count += s.count;
      t.worstP99 = Math.max(t.worstP99, s.p99);
      t.max = Math.max(t.max, s.max);
    }
  }
  const messages = windows.reduce((a, l) => a + l.all.count, 0);
  return { windows: windows.length, messages, medianP99: p99s[Math.floor(p99s.length / 2)] ?? 0, worstP99: p99s.at(-1) ?? 0, max: Math.max(0, ...windows.map((l) => l.all.max)), types };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-gw-bench-'));
  console.log(`${AGENTS} agents in networks of ${NETWORK_SIZE}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), Node ${process.version}, open files limit ${/Max open files\s+(\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))?.[1]}; ${dir}`);
  let server: Server | undefined;
  let agents: Agents | undefined;
  try {
    const t0 = Date.now();
    const seeded = await seedOrCopy(dir);
    console.log(`seeded in ${seconds(Date.now() - t0)} s: ${seeded.networks} networks, ${seeded.configs} configs, ${seeded.certificates} certificates`);

    server = new Server(PORT, INSTANCE, { HUBLINK_DATA_DIR: dir });
    await server.listening();
    const per = Math.ceil(AGENTS / AGENT_PROCS);
    agents = new Agents(Array.from({ length: AGENT_PROCS }, (_, i) => ({ url: `ws://127.0.0.1:${PORT}`, names: seeded.names.slice(i * per, (i + 1) * per) })));
    const progress = () => {
      const m = server?.metrics.at(-1);
      return m ? `last ${METRICS_S} s: ${JSON.stringify(m.types)}` : '';
    };
    const connectMs = await agents.until('all agents connected', (c) => c.connected === AGENTS, 600_000, progress);
    console.log(`all ${AGENTS} connected ${seconds(connectMs)} s after the agents started (hellos spread over 10 s per process)`);

    if (process.env.REDIS_URL) {
      // Every agent has applied its first config before the change is made.
      await sleep(WARMUP_S * 1000);
      const metricsFrom = server.metrics.length;
      // HUBLINK_SQL_PROFILE: the server's SQL during the change alone (SIGUSR2 writes the count so far and starts again).
      const sqlProfile = process.env.HUBLINK_SQL_PROFILE;
      if (sqlProfile) process.kill(server.pid, 'SIGUSR2');
      const ack = await changeToAck(dir);
      if (sqlProfile) {
        process.kill(server.pid, 'SIGUSR2');
        await sleep(1000);
        fs.copyFileSync(sqlProfile, `${sqlProfile}.change.json`);
      }
      // What the server handled meanwhile (the gateway's windows of METRICS_S), for where the time goes;
      // its log lines are read from the pipe once this process's event loop turns.
      await sleep(METRICS_S * 1000);
      for (const m of server.metrics.slice(metricsFrom)) console.log(`  server window: ${JSON.stringify(Object.fromEntries(Object.entries(m.types).map(([k, v]) => [k, `${v.count} p50 ${v.p50} p99 ${v.p99} max ${v.max}`])))}`);
      console.log(`change to acknowledgement (${AGENTS} devices, ${ACK_NETWORKS ?? seeded.networks} of ${seeded.networks} networks changed at once): ${line(ack.took)}; all acknowledged ${seconds(ack.allMs)} s after the first change`);
      console.log(`  of which the hand-off (commit to the recompile's start, which stamps the version): ${line(ack.compiled)}; the recompile, the delivery and the device (that stamp to the acknowledgement): ${line(ack.delivered)}`);
      console.log(`  from the first change: ${line(ack.fromFirst)}`);
      await sleep(WARMUP_S * 1000);
      const byApi = await changeToAckByApi(dir);
      console.log(`the same by the server alone (${ACK_NETWORKS ?? seeded.networks} POST /network/dns at once), from the sending: ${line(byApi)}`);
      if (ACK_ONE > 0) {
        const one = await oneMemberChanges(dir, ACK_ONE);
        console.log(`one-member change through the API (a point's dial mode, in a network of ${NETWORK_SIZE}), ${one.took.length} one after another, ${one.versions} versions in all: ${line(one.took)}`);
      }
      if (process.env.BENCH_ACK_ONLY === '1') return;
    }

    await sleep(WARMUP_S * 1000);
    const first = sample(server.pid);
    const agentCpu0 = agents.counts().cpuMs;
    const metricsFrom = server.metrics.length;
    let peakRss = first.rss;
    const steadyEnd = Date.now() + STEADY_S * 1000;
    while (Date.now() < steadyEnd) {
      await sleep(1000);
      peakRss = Math.max(peakRss, sample(server.pid).rss);
    }
    const last = sample(server.pid);
    const wall = last.at - first.at;
    const steady = latencyOf(server.metrics.slice(metricsFrom + 1));
    const c = agents.counts();
    console.log(`steady state over ${seconds(wall)} s: server RSS ${mib(last.rss)} (peak ${mib(peakRss)}), CPU ${((100 * (last.cpuMs - first.cpuMs)) / wall).toFixed(1)}% of one core, disk writes ${((last.written - first.written) / 1024 / (wall / 1000)).toFixed(0)} KiB/s; agents' CPU ${((100 * (c.cpuMs - agentCpu0)) / wall).toFixed(1)}%; ${c.connected} connected`);
    console.log(`  handling latency over ${steady.windows} windows of ${METRICS_S} s (${steady.messages} messages, ${(steady.messages / (wall / 1000)).toFixed(0)}/s): p99 median ${steady.medianP99} ms, worst ${steady.worstP99} ms, max ${steady.max} ms`);
    for (const [type, t] of Object.entries(steady.types)) console.log(`    ${type.padEnd(8)} ${String(t.count).padStart(8)} messages, worst window p99 ${t.worstP99} ms, max ${t.max} ms`);

    // The storm: a restart (SIGTERM: the sessions are told 1001 and ended), then every agent comes back.
    const kill = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    await agents.until('the agents saw the server go', (c) => c.connected < AGENTS, 10_000);
    const stoppedMs = Date.now() - kill;
    const before = server;
    server = new Server(PORT, INSTANCE, { HUBLINK_DATA_DIR: dir });
    await server.listening();
    const listenMs = Date.now() - kill;
    // The median agent is back when half are (the counts are sampled every 100 ms).
    await agents.until('half the agents back', (c) => c.connected >= AGENTS / 2, STORM_LIMIT_S * 1000 * 5, progress);
    const halfMs = Date.now() - kill;
    await agents.until('every agent back', (c) => c.connected === AGENTS, STORM_LIMIT_S * 1000 * 5, progress);
    const backMs = Date.now() - kill;
    let stormPeak = 0;
    const after = sample(server.pid);
    stormPeak = after.rss;
    await sleep(METRICS_S * 1000 + 500);
    const storm = latencyOf(server.metrics);
    console.log(`storm: the old server stopped in ${seconds(stoppedMs)} s (exit ${code}; ${before.other.length} other log lines), the new one listened ${seconds(listenMs)} s after the kill; half back ${seconds(halfMs)} s and all ${AGENTS} back ${seconds(backMs)} s after the kill (${seconds(backMs - listenMs)} s after it listened) — limit ${STORM_LIMIT_S} s: ${backMs < STORM_LIMIT_S * 1000 ? 'met' : 'MISSED'}`);
    console.log(`  new server RSS ${mib(stormPeak)} when all were back; hello p99 ${storm.types.hello?.worstP99 ?? '-'} ms (worst window), max ${storm.types.hello?.max ?? '-'} ms`);
    console.log(`  RSS < 1.5 GiB: ${peakRss < 1.5 * 2 ** 30 ? 'met' : 'MISSED'}; p99 < 50 ms: ${steady.worstP99 < 50 ? 'met' : 'MISSED'}`);
    if (server.other.length > 0) console.log(`server log lines other than metrics (first ${server.other.length}):\n${server.other.join('\n')}`);
  } finally {
    await agents?.stop();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
