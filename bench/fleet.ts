/**
 * A change pushed to a fleet spread over several instances (issue 34): BENCH_INSTANCES servers (4) share
 * one PostgreSQL database and Redis, as a deployment behind a load balancer does; BENCH_DEVICES simulated
 * agents (100,000) in networks of 1,000 connect to them round robin (so every network has devices on
 * every instance, and each change crosses instances through Redis). Once all are connected and have
 * acknowledged their first configs, every network's DNS is changed at once through the API (the calls
 * spread over the instances) and each device's acknowledgement of its new version is timed from the
 * sending. Prints the p50/p95/max, the time until all acknowledged, and the CPU each part used for it
 * (servers, PostgreSQL, Redis, agents) per device, from which the figure on a bigger machine is argued
 * in docs/performance.md.
 *
 *   npm run bench:fleet    BENCH_DEVICES, BENCH_INSTANCES, BENCH_DATABASE_URL (a server where a database
 *                          of its own is made), BENCH_REDIS_URL, BENCH_FLEET_KEEP=1 (keep the seeded
 *                          database for the next run with the same size: seeding 100,000 takes long),
 *                          BENCH_ONLINE (the devices that connect, whole networks; all by default),
 *                          BENCH_AGENTS_PER_PROCESS (12,500), BENCH_SPREAD_S (hellos spread, connecting / 100)
 *
 * Each process holds one socket per device it serves or simulates: raise the limit of open files first
 * (`ulimit -n`; the run says how far).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { connect } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { acknowledgedSince, Agents, cpuMsOf, line, mib, nameOf, openFilesLimit, post, sample, seconds, seedFleet, Server, sleep, tenantToken } from './fleetParts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
/**
 * The devices that connect, from the first network on, in whole networks: all of them by default.
 * Fewer run on a machine that cannot carry every device's heartbeats and reports besides the servers
 * (the members seeded stay in the database, the change is made to the connected ones' networks).
 */
const ONLINE = Math.min(DEVICES, Number(process.env.BENCH_ONLINE ?? DEVICES));
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 4);
const NETWORK_SIZE = 1_000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEEP = process.env.BENCH_FLEET_KEEP === '1';
const PORT = Number(process.env.BENCH_PORT ?? 18_190);
/** Simulated agents per child process (a process of 25,000 was past what one Node process keeps up with). */
const PER_PROCESS = Number(process.env.BENCH_AGENTS_PER_PROCESS ?? 12_500);
/** Hellos are spread over this long (s): a fleet coming up at once is the restart storm, measured in bench:gateway. */
const SPREAD_S = Number(process.env.BENCH_SPREAD_S ?? Math.ceil(ONLINE / 100));
/** Connections per instance: four instances and their job queues stay within PostgreSQL's default 100. */
const POOL = 8;
/** Instances sharing a database share the key that seals its private keys (a fixed one: the bench's database is kept between runs). */
const SECRET_KEY = 'b'.repeat(64);
const CONNECT_LIMIT_MS = 3_600_000;
/** The quiet window before the change in which the connected fleet's own cost is measured (s). */
const QUIET_S = 20;
const ACK_LIMIT_MS = 1_800_000;

const dbName = `hublink_fleet_${DEVICES}`;
const urlOf = (name: string) => {
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
};

/** The fleet's database: reused when kept by an earlier run of the same size, otherwise made and seeded. */
async function prepare(): Promise<{ url: string; names: string[] }> {
  const admin = connect({ databaseUrl: PG_URL, dataDir: os.tmpdir(), poolSize: 1 });
  const url = urlOf(dbName);
  try {
    const exists = await sql<{ n: number }>`select count(*)::int as n from pg_database where datname = ${dbName}`.execute(admin.db);
    if (exists.rows[0]!.n > 0) {
      const handle = connect({ databaseUrl: url, dataDir: os.tmpdir(), poolSize: 2 });
      try {
        const c = await handle.db.selectFrom('member_config').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst().catch(() => undefined);
        if (KEEP && Number(c?.n) === DEVICES) {
          console.log(`reusing ${dbName} (${DEVICES} configs)`);
          return { url, names: Array.from({ length: DEVICES }, (_, i) => nameOf(i)) };
        }
      } finally {
        await handle.close();
      }
      await sql`drop database ${sql.id(dbName)} with (force)`.execute(admin.db);
    }
    await sql`create database ${sql.id(dbName)}`.execute(admin.db);
  } finally {
    await admin.close();
  }
  const t0 = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-fleet-seed-'));
  const handle = connect({ databaseUrl: url, dataDir: dir, poolSize: 4 });
  await migrateToLatest(handle);
  const app = await buildApp({ ...loadConfig({ HUBLINK_DATA_DIR: dir, DATABASE_URL: url, HUBLINK_SECRET_KEY: SECRET_KEY }), prettyLogs: false, logLevel: 'warn' }, { db: handle, logger: false });
  await app.ready();
  try {
    const seeded = await seedFleet(handle.db, app, DEVICES, NETWORK_SIZE, (l) => console.log(`  seeding: ${l} (${seconds(Date.now() - t0)} s)`));
    await sql`vacuum analyze`.execute(handle.db);
    console.log(`seeded in ${seconds(Date.now() - t0)} s: ${seeded.networks} networks, ${seeded.configs} configs, ${seeded.certificates} certificates`);
    return { url, names: seeded.names };
  } finally {
    await app.close();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU time (ms) of every process whose command is `comm` (PostgreSQL's backends, Redis). */
function cpuOfCommand(comm: string): number {
  let ms = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm) ms += cpuMsOf(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

async function main() {
  // Every socket is an open file: a server holds its share of the devices, an agent process its agents.
  const needed = Math.max(Math.ceil(ONLINE / INSTANCES), PER_PROCESS) + 1_024;
  if (openFilesLimit() < needed) throw new Error(`the limit of open files is ${openFilesLimit()}, and this run needs ${needed} a process: raise it first (as root: ulimit -Hn ${needed * 2} && ulimit -n ${needed * 2})`);
  if (ONLINE % NETWORK_SIZE !== 0) throw new Error(`BENCH_ONLINE must be whole networks of ${NETWORK_SIZE}`);
  console.log(`${DEVICES} devices in networks of ${NETWORK_SIZE}, ${ONLINE} of them connecting, over ${INSTANCES} instances; ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), ${mib(os.totalmem())}, Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const prepared = await prepare();
  const { url } = prepared;
  const names = prepared.names.slice(0, ONLINE);
  const dirs = Array.from({ length: INSTANCES }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-fleet-')));
  const servers: Server[] = [];
  let agents: Agents | undefined;
  let analyzing: NodeJS.Timeout | undefined;
  const handle = connect({ databaseUrl: url, dataDir: os.tmpdir(), poolSize: 2 });
  const { db } = handle;
  try {
    // A kept database holds its last run's acknowledgements and events still to deliver: every device
    // starts without a config, and the servers with no backlog.
    await db.updateTable('member_config').set({ applied_version: 0, applied_time: null, applied_error: '' }).execute();
    await db.deleteFrom('event_delivery').execute();
    await db.deleteFrom('event').execute();
    // PostgreSQL plans by statistics that autovacuum keeps; where it is off (a test server), they are taken here as it would.
    const autovacuum = await sql<{ autovacuum: string }>`show autovacuum`.execute(db);
    if (autovacuum.rows[0]?.autovacuum !== 'on') {
      console.log('autovacuum is off on this server: the run analyzes its tables every 30 s');
      analyzing = setInterval(() => void sql`analyze`.execute(db).catch(() => undefined), 30_000);
      await sql`analyze`.execute(db);
    }
    for (let i = 0; i < INSTANCES; i++) {
      servers.push(new Server(PORT + i, `bench-fleet-${i}`, { HUBLINK_DATA_DIR: dirs[i]!, DATABASE_URL: url, REDIS_URL, DATABASE_POOL_SIZE: String(POOL), HUBLINK_SECRET_KEY: SECRET_KEY }));
      // One at a time: each migrates (nothing to do) and starts its job queue.
      await servers[i]!.listening();
    }
    const groups = servers.flatMap((s, g) => {
      const mine = names.filter((_, k) => k % INSTANCES === g);
      return Array.from({ length: Math.ceil(mine.length / PER_PROCESS) }, (_, p) => ({ url: `ws://127.0.0.1:${s.port}`, names: mine.slice(p * PER_PROCESS, (p + 1) * PER_PROCESS) }));
    });
    const t0 = Date.now();
    agents = new Agents(groups, SPREAD_S * 1000);
    console.log(`${groups.length} agent processes, hellos spread over ${SPREAD_S} s`);
    const connectMs = await agents.until('all agents connected', (c) => c.connected === ONLINE, CONNECT_LIMIT_MS, () => servers.map((s, i) => `#${i} ${s.metrics.at(-1)?.sessions ?? '-'}`).join(', '));
    console.log(`all ${ONLINE} connected ${seconds(connectMs)} s after the agents started; server RSS ${servers.map((s) => mib(sample(s.pid).rss)).join(', ')}`);

    // Every device has applied its first config before the change is made.
    for (;;) {
      const c = await acknowledgedSince(db, 0);
      if (c.acked === ONLINE) break;
      if (Date.now() - t0 > CONNECT_LIMIT_MS) throw new Error(`first configs: ${c.acked} of ${ONLINE} acknowledged`);
      await sleep(1000);
    }
    console.log(`every first config acknowledged ${seconds(Date.now() - t0)} s after the agents started`);
    await sleep(Server.METRICS_S * 1000);
    // What the connected fleet costs with nothing changing (heartbeats, statuses, traffic), so that the
    // change's own cost can be told from it.
    const cpuOf = () => ({ servers: servers.reduce((sum, s) => sum + cpuMsOf(s.pid), 0), postgres: cpuOfCommand('postgres'), agents: agents!.counts().cpuMs });
    const quiet0 = cpuOf();
    const quietStart = Date.now();
    await sleep(QUIET_S * 1000);
    const quiet1 = cpuOf();
    const quietMs = Date.now() - quietStart;
    const steady = { servers: (quiet1.servers - quiet0.servers) / quietMs, postgres: (quiet1.postgres - quiet0.postgres) / quietMs, agents: (quiet1.agents - quiet0.agents) / quietMs };
    const share = (coresUsed: number) => `${(coresUsed * 100).toFixed(0)} % of a core`;
    console.log(`steady state (${QUIET_S} s, nothing changing): servers ${share(steady.servers)}, PostgreSQL ${share(steady.postgres)}, agents ${share(steady.agents)}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

    const networks = await db.selectFrom('network').select(['tenant_id', 'network_number', 'dns']).orderBy('id').limit(ONLINE / NETWORK_SIZE).execute();
    const token = await tenantToken(db, loadConfig({ HUBLINK_DATA_DIR: dirs[0]!, DATABASE_URL: url }), networks[0]!.tenant_id);
    const cpu0 = { servers: servers.map((s) => cpuMsOf(s.pid)), postgres: cpuOfCommand('postgres'), redis: cpuOfCommand('redis-server'), agents: agents.counts().cpuMs };
    const sent = Date.now();
    await Promise.all(
      networks.map((n, k) => post(PORT + (k % INSTANCES), token, '/network/dns', { network_number: n.network_number, dns: [n.dns?.includes('119.29.29.29') ? '223.5.5.5' : '119.29.29.29'] })),
    );
    const answered = Date.now() - sent;
    let shown = Date.now();
    for (;;) {
      const c = await acknowledgedSince(db, sent);
      if (c.changed === ONLINE && c.acked === ONLINE) break;
      if (Date.now() - sent > ACK_LIMIT_MS) throw new Error(`the change: ${c.acked} of ${c.changed} changed (of ${ONLINE}) acknowledged after ${seconds(ACK_LIMIT_MS)} s`);
      if (Date.now() - shown >= 10_000) {
        shown = Date.now();
        console.log(`  ${seconds(shown - sent)} s: ${c.changed} recompiled, ${c.acked} acknowledged; ${agents.counts().connected} connected`);
      }
      await sleep(500);
    }
    const allMs = Date.now() - sent;
    const cpu = {
      servers: servers.map((s, i) => cpuMsOf(s.pid) - cpu0.servers[i]!),
      postgres: cpuOfCommand('postgres') - cpu0.postgres,
      redis: cpuOfCommand('redis-server') - cpu0.redis,
      agents: agents.counts().cpuMs - cpu0.agents,
    };
    const rows = await db.selectFrom('member_config').select(['update_time', 'applied_time']).where('update_time', '>=', sent).execute();
    const took = rows.map((r) => Number(r.applied_time) - sent).sort((a, b) => a - b);
    const compiled = rows.map((r) => Number(r.update_time) - sent).sort((a, b) => a - b);
    const serverCpu = cpu.servers.reduce((a, b) => a + b, 0);
    const perDevice = (ms: number) => `${((ms / ONLINE) * 1000).toFixed(0)} µs`;
    const own = (ms: number, perMs: number) => Math.max(0, ms - perMs * allMs);
    console.log(`change to acknowledgement (${ONLINE} devices, ${networks.length} POST /network/dns at once over ${INSTANCES} instances, answered in ${seconds(answered)} s), from the sending: ${line(took)}; all acknowledged ${seconds(allMs)} s after`);
    console.log(`  the new versions stored (recompiled) from the sending: ${line(compiled)}`);
    console.log(`  CPU meanwhile: servers ${cpu.servers.map((ms) => seconds(ms)).join(' + ')} = ${seconds(serverCpu)} s (${perDevice(serverCpu)} a device), PostgreSQL ${seconds(cpu.postgres)} s (${perDevice(cpu.postgres)}), Redis ${seconds(cpu.redis)} s (${perDevice(cpu.redis)}), agents ${seconds(cpu.agents)} s (${perDevice(cpu.agents)}); all of it ${seconds(serverCpu + cpu.postgres + cpu.redis + cpu.agents)} s of CPU in ${seconds(allMs)} s on ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(
      `  the change's own CPU (less the steady state's over the same ${seconds(allMs)} s): servers ${seconds(own(serverCpu, steady.servers))} s (${perDevice(own(serverCpu, steady.servers))} a device), PostgreSQL ${seconds(own(cpu.postgres, steady.postgres))} s (${perDevice(own(cpu.postgres, steady.postgres))}), agents ${seconds(own(cpu.agents, steady.agents))} s (${perDevice(own(cpu.agents, steady.agents))})`,
    );
    console.log(`  server RSS ${servers.map((s) => mib(sample(s.pid).rss)).join(', ')}; ${agents.counts().connected} connected`);
    for (const [i, s] of servers.entries()) if (s.other.length > 0) console.log(`server #${i} log lines other than metrics (first ${s.other.length}):\n${s.other.join('\n')}`);
  } finally {
    clearInterval(analyzing);
    await agents?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await handle.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    if (!KEEP) {
      const admin = connect({ databaseUrl: PG_URL, dataDir: os.tmpdir(), poolSize: 1 });
      await sql`drop database if exists ${sql.id(dbName)} with (force)`.execute(admin.db);
      await admin.close();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
