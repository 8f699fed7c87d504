/**
 * What the device benches share (bench/gateway.ts on one instance, bench/fleet.ts on four): the seeded
 * fleet of hardware members, the server as a child process, the simulated agents in child processes of
 * their own, and the measures taken of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import readline from 'node:readline';
import { loopbackAddress, simulate, type SimulatedMember, type SimulationCounts } from '../packages/agent/src/index';
import type { BuiltApp } from '../packages/server/src/app';
import { hashPassword } from '../packages/server/src/core/passwords';
import { credentialHash } from '../packages/server/src/domain/deviceCredentials';
import { TokenService } from '../packages/server/src/core/tokens';
import type { Db } from '../packages/server/src/db/connect';

export const SECRET = 'bench-secret-1';
const CHUNK = 500;

export const nameOf = (i: number) => `gw${String(i).padStart(6, '0')}`;
export const credentialOf = (name: string) => `bench-credential-${name}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const seconds = (ms: number) => (ms / 1000).toFixed(1);
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
export const line = (xs: number[]) => `p50 ${percentile(xs, 0.5)} ms, p95 ${percentile(xs, 0.95)} ms, max ${xs.at(-1)} ms`;

/** Whether a member's device acknowledged the config version it has now. */
export const acknowledged = (r: { version: number; applied_version: number; applied_time: number | null }) => r.applied_version >= r.version && r.applied_time !== null;

/**
 * How many members' current versions their devices acknowledged, of those stored since `since`: counted
 * in the database while a bench waits (reading 10,000 rows four times a second took a core's share from
 * the server).
 */
export async function acknowledgedSince(db: Db, since: number): Promise<{ changed: number; acked: number }> {
  const c = await db
    .selectFrom('member_config')
    .select((eb) => [
      eb.fn.countAll<number>().as('changed'),
      eb.fn.sum<number>(eb.case().when(eb.and([eb('applied_version', '>=', eb.ref('version')), eb('applied_time', 'is not', null)])).then(1).else(0).end()).as('acked'),
    ])
    .where('update_time', '>=', since)
    .executeTakeFirstOrThrow();
  return { changed: Number(c.changed), acked: Number(c.acked ?? 0) };
}

// ---- seeding ----------------------------------------------------------------------------------

export interface Seeded {
  names: string[];
  networks: number;
  configs: number;
  certificates: number;
}

/**
 * One tenant, `agents` hardware members with a known secret and a credential each, in networks of
 * `networkSize` (two centers, the rest points), compiled with their certificates by `app` (built on `db`).
 */
export async function seedFleet(db: Db, app: BuiltApp, agents: number, networkSize: number, progress?: (line: string) => void): Promise<Seeded> {
  const now = Date.now();
  const tenant = await db
    .insertInto('account')
    .values({ username: 'gwbench', username_key: 'gwbench', nickname: 'bench', password_hash: 'x', phone: null, email: null, sign: 'gwbench', domain: 'gwbench', network_level: 2, network_router_count: agents, network_center_count: 2, dns_quantity: 2, ram_quantity: 10, create_time: now, update_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const secretHash = await hashPassword(SECRET);
  const names = Array.from({ length: agents }, (_, i) => nameOf(i));
  const ids: number[] = [];
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < agents; i += CHUNK) {
      const rows = names.slice(i, i + CHUNK).map((n) => ({ tenant_id: tenant.id, router_name: n, router_key: n, router_type: 1, secret_hash: secretHash, area_number: null, phone: null, online_time: null, create_time: now, update_time: now }));
      ids.push(...(await trx.insertInto('member').values(rows).returning('id').execute()).map((r) => r.id));
    }
    for (let i = 0; i < agents; i += CHUNK) {
      const rows = ids.slice(i, i + CHUNK).map((id, k) => ({ tenant_id: tenant.id, member_id: id, token_hash: credentialHash(credentialOf(names[i + k]!)), create_time: now, used_time: now }));
      await trx.insertInto('device_credential').values(rows).execute();
    }
  });
  const networkIds: number[] = [];
  for (let start = 0, n = 0; start < agents; start += networkSize, n++) {
    const net = await db
      .insertInto('network')
      .values({ tenant_id: tenant.id, network_number: `NGW${String(n).padStart(6, '0')}`, network_name: `压测网络${n}`, create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const members = ids.slice(start, start + networkSize).map((member_id, k) => ({ tenant_id: tenant.id, network_id: net.id, member_id, member_type: k < 2 ? 'center' : 'point', create_time: now }));
    for (let i = 0; i < members.length; i += CHUNK) await db.insertInto('network_member').values(members.slice(i, i + CHUNK)).execute();
    networkIds.push(net.id);
  }
  // The compiler and the PKI follow network events, as they would after the console created the networks.
  for (const [k, network_id] of networkIds.entries()) {
    await app.ctx.events.emit(db, { type: 'network.changed', tenant_id: tenant.id, network_id, change: 'created' });
    // In tens, so a long seed shows where it is.
    if ((k + 1) % 10 === 0 || k === networkIds.length - 1) {
      await app.ctx.events.settle();
      progress?.(`${k + 1} of ${networkIds.length} networks compiled`);
    }
  }
  const configs = await db.selectFrom('member_config').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const certs = await db.selectFrom('member_certificate').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { names, networks: networkIds.length, configs: Number(configs.n), certificates: Number(certs.n) };
}

// ---- the server (a child process) -------------------------------------------------------------

export interface MetricsLine {
  time: number;
  sessions: number;
  all: { count: number; p50: number; p99: number; max: number };
  types: Record<string, { count: number; p50: number; p99: number; max: number }>;
}

/** One `hublink start` on 127.0.0.1:`port`, its gateway's metrics lines collected (every METRICS_S). */
export class Server {
  static readonly METRICS_S = 10;
  readonly child: ChildProcess;
  readonly metrics: MetricsLine[] = [];
  readonly other: string[] = [];
  exited: Promise<number | null>;

  constructor(
    readonly port: number,
    instance: string,
    env: Record<string, string>,
  ) {
    // BENCH_SERVER_NODE_OPTIONS: e.g. --cpu-prof --cpu-prof-dir=/tmp/prof to see where the server's time goes.
    const nodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
    this.child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', 'packages/server/src/main.ts', 'start'], {
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', HUBLINK_INSTANCE: instance, LOG_LEVEL: 'warn', HUBLINK_GATEWAY_METRICS: String(Server.METRICS_S), HUBLINK_WORKERS: process.env.HUBLINK_WORKERS ?? '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      readline.createInterface({ input: stream }).on('line', (text) => {
        try {
          const entry = JSON.parse(text) as { msg?: string } & MetricsLine;
          if (entry.msg === 'gateway: message handling') return void this.metrics.push(entry);
        } catch {
          // not a JSON log line
        }
        if (this.other.length < 20) this.other.push(text);
      });
    }
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  get pid() {
    return this.child.pid!;
  }

  async listening(): Promise<void> {
    for (;;) {
      const up = await new Promise<boolean>((resolve) => {
        http.get({ host: '127.0.0.1', port: this.port, path: '/api/health' }, (res) => {
          res.resume();
          resolve(true);
        }).on('error', () => resolve(false));
      });
      if (up) return;
      if (this.child.exitCode !== null) throw new Error(`the server exited (${this.child.exitCode}): ${this.other.join('\n')}`);
      await sleep(100);
    }
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** RSS (bytes), CPU time (ms) and bytes written to disk of a process, from /proc. */
export function sample(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
  const written = Number(/write_bytes:\s+(\d+)/.exec(io)![1]);
  return { rss, cpuMs: cpuMsOf(pid), written, at: Date.now() };
}

/** CPU time (ms) a process has used, from /proc (0 once it is gone). */
export function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** A token of the seeded tenant's main account (its session is in the database the servers read). */
export async function tenantToken(db: Db, config: { tokenTtlSeconds: number; sessionTtlSeconds: number }, tenantId: number): Promise<string> {
  return (await new TokenService(db, config.tokenTtlSeconds, config.sessionTtlSeconds).issue(tenantId, null)).token;
}

/** POSTs one console call to a server; throws unless it answers code 200. */
export async function post(port: number, token: string, call: string, body: object): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${call}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const env = (await res.json()) as { code: number; message: string };
  if (env.code !== 200) throw new Error(`${call}: ${env.code} ${env.message}`);
}

// ---- the agents (child processes) ------------------------------------------------------------

type AgentsIn = { url: string; members: SimulatedMember[]; startSpreadMs?: number } | { stop: true };
type AgentsOut = { counts: SimulationCounts; cpuMs: number; summary: string };

/** The child's side: simulates the members it is sent and reports its counts every 250 ms. */
function runAgents() {
  let stopSim: (() => Promise<void>) | undefined;
  process.on('message', (m: AgentsIn) => {
    if ('stop' in m) {
      void (stopSim?.() ?? Promise.resolve()).then(() => process.exit(0));
      return;
    }
    const sim = simulate({ url: m.url, members: m.members, startSpreadMs: m.startSpreadMs });
    stopSim = () => sim.stop();
    setInterval(() => {
      const cpu = process.cpuUsage();
      process.send!({ counts: sim.counts(), cpuMs: (cpu.user + cpu.system) / 1000, summary: sim.summary() } satisfies AgentsOut);
    }, 250);
  });
}

/**
 * Simulated agents, one child process per group, each group's agents connecting to its URL. Each
 * site connects from an address of its own, as in the field (one address would be held to the
 * gateway's connections per address).
 */
export class Agents {
  private readonly procs: ChildProcess[] = [];
  private readonly latest = new Map<ChildProcess, AgentsOut>();

  /** `startSpreadMs`: each process spreads its hellos over this long (the simulator's default otherwise). */
  constructor(groups: { url: string; names: string[] }[], startSpreadMs?: number) {
    let k = 0;
    for (const group of groups) {
      const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', import.meta.filename, 'agents'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child.on('message', (m: AgentsOut) => this.latest.set(child, m));
      const members: SimulatedMember[] = group.names.map((router_name) => ({ kind: 'router', router_name, secret: SECRET, credential: credentialOf(router_name), localAddress: loopbackAddress(k++) }));
      child.send({ url: group.url, members, startSpreadMs } satisfies AgentsIn);
      this.procs.push(child);
    }
  }

  counts(): SimulationCounts & { cpuMs: number } {
    const sum = { idle: 0, connecting: 0, connected: 0, waiting: 0, failed: 0, stopped: 0, cpuMs: 0 };
    for (const m of this.latest.values()) {
      for (const key of Object.keys(m.counts) as (keyof SimulationCounts)[]) sum[key] += m.counts[key];
      sum.cpuMs += m.cpuMs;
    }
    return sum;
  }

  summaries = () => [...this.latest.values()].map((m) => m.summary);

  /** Resolves once the condition holds of the agents' counts (checked every 100 ms); throws after `limitMs`. */
  async until(what: string, ok: (c: SimulationCounts) => boolean, limitMs: number, progress?: () => string): Promise<number> {
    const t0 = Date.now();
    let shown = t0;
    for (;;) {
      if (this.latest.size === this.procs.length && ok(this.counts())) return Date.now() - t0;
      if (Date.now() - t0 > limitMs) throw new Error(`${what}: not within ${seconds(limitMs)} s (${this.summaries().join('; ')})`);
      if (progress && Date.now() - shown >= 10_000) {
        shown = Date.now();
        console.log(`  ${seconds(shown - t0)} s: ${this.counts().connected} connected; ${progress()}`);
      }
      await sleep(100);
    }
  }

  async stop() {
    await Promise.all(
      this.procs.map((p) => {
        const gone = new Promise((r) => p.on('exit', r));
        p.send({ stop: true } satisfies AgentsIn);
        return gone;
      }),
    );
  }
}

/** This process's limit of open files (children inherit it): every socket is one. */
export function openFilesLimit(): number {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  return !m || m[1] === 'unlimited' ? Infinity : Number(m[1]);
}

if (process.argv[2] === 'agents') runAgents();
