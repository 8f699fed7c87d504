import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './db/connect';
import { call, databaseFor, freePort, runOps, serverEnv, signIn, startServer, START_MS, type ServerProcess } from '../test/serverProcess';
import { until } from '../test/until';

/*
 * A rolling restart: two instances on one PostgreSQL database and one Redis behind a small load
 * balancer; each in turn gets SIGTERM, drains, exits 0 and starts again, while clients keep reading
 * and writing through the balancer. No call may answer an error and no answered write may be lost.
 *
 * The balancer does what HAProxy or a cloud balancer does (docs/operations.md, "Probes"): it checks
 * each instance's /readyz every PROBE_MS and sends only to those that answer 200, round-robin over
 * keep-alive connections. The instances get HUBLINK_SHUTDOWN_DELAY_SECONDS, so after SIGTERM they serve
 * on, saying draining, until the balancer has taken them out, and only then close their listener. It
 * tries the other instance only when nothing can have reached the application: the connection was
 * refused, or a reused keep-alive connection was closed before the request was read (Node's
 * `reusedSocket` with ECONNRESET). Any other failure, for any method, is passed to the client as a
 * 502: it would be a gap in the drain.
 */

const PASSWORD = 'Passw0rd2026';
/** The balancer's health-check interval; the instances' shutdown delay is several of these. */
const PROBE_MS = 100;
const SHUTDOWN_DELAY_SECONDS = '2';
const WRITERS = 3;
const READERS = 2;
/** Answered writes between the steps of the restart: enough that the clients are busy throughout. */
const WRITES_PER_STEP = 20;

interface Upstream {
  port: number;
  agent: http.Agent;
  /** The latest /readyz answered 200. */
  ready: boolean;
}

function balancer(upstreams: Upstream[]) {
  let next = 0;
  const stats = { refused: 0, closedIdle: 0, probes: 0, failed: [] as string[] };
  const probe = (up: Upstream) =>
    http
      .get({ host: '127.0.0.1', port: up.port, path: '/readyz', agent: false, timeout: 2000 }, (r) => {
        up.ready = r.statusCode === 200;
        r.resume();
      })
      .on('error', () => (up.ready = false))
      .on('timeout', function (this: http.ClientRequest) {
        up.ready = false;
        this.destroy();
      });
  const checks = setInterval(() => {
    stats.probes++;
    for (const up of upstreams) probe(up);
  }, PROBE_MS);
  // With none ready (never, in this test), it tries them all rather than answering 503 itself.
  const pick = () => {
    const ready = upstreams.filter((u) => u.ready);
    const from = ready.length ? ready : upstreams;
    return from[next++ % from.length]!;
  };
  const forward = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, tries: number) => {
    const up = pick();
    const out = http.request({ host: '127.0.0.1', port: up.port, method: req.method, path: req.url, headers: req.headers, agent: up.agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (e: NodeJS.ErrnoException) => {
      const unsent = e.code === 'ECONNREFUSED' || (out.reusedSocket && e.code === 'ECONNRESET');
      if (unsent && tries < upstreams.length * 3) {
        if (e.code === 'ECONNREFUSED') stats.refused++;
        else stats.closedIdle++;
        return forward(req, body, res, tries + 1);
      }
      stats.failed.push(`${req.method} ${req.url} on ${up.port}: ${e.code ?? e.message}`);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    out.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, 0));
  });
  return { server, stats, stop: () => clearInterval(checks) };
}

describe.skipIf(!process.env.TEST_DATABASE_URL || !process.env.TEST_REDIS_URL)('a rolling restart behind a load balancer (needs TEST_DATABASE_URL and TEST_REDIS_URL)', () => {
  let dataDir: string;
  let drop: () => Promise<void> = async () => {};
  let open: () => DbHandle;
  const envs: NodeJS.ProcessEnv[] = [];
  const instances: (ServerProcess | undefined)[] = [];
  const upstreams: Upstream[] = [];
  let lb: ReturnType<typeof balancer>;
  let lbPort: number;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-rolling-'));
    const database = await databaseFor('postgres', dataDir, 'hublink_rolling');
    drop = database.drop;
    open = database.open;
    const redisPrefix = `hublink-rolling-${process.pid}`;
    for (const name of ['a', 'b']) {
      const port = await freePort();
      // One data dir for both, as a shared volume would be (the secret key sealing private keys is in it).
      envs.push(
        serverEnv(dataDir, port, {
          ...database.env,
          REDIS_URL: `${process.env.TEST_REDIS_URL}`,
          HUBLINK_INSTANCE: `${redisPrefix}-${name}`,
          HUBLINK_SHUTDOWN_DELAY_SECONDS: SHUTDOWN_DELAY_SECONDS,
        }),
      );
      upstreams.push({ port, agent: new http.Agent({ keepAlive: true, maxSockets: 8 }), ready: false });
    }
    await runOps(envs[0]!, ['tenants', 'create', '--username', 'rolling01', '--nickname', 'rolling', '--password', PASSWORD, '--phone', '13800000079']);
    await runOps(envs[0]!, ['tenants', 'plan', 'rolling01', '--network-router-count', '100000']);
    for (let i = 0; i < 2; i++) instances[i] = await startServer(envs[i]!, upstreams[i]!.port);
    lb = balancer(upstreams);
    await new Promise<void>((resolve) => lb.server.listen(0, '127.0.0.1', resolve));
    lbPort = (lb.server.address() as net.AddressInfo).port;
    await until(() => upstreams.every((u) => u.ready), 'the balancer sees both instances ready');
  }, START_MS * 3);

  afterAll(async () => {
    lb?.stop();
    lb?.server.close();
    for (const u of upstreams) u.agent.destroy();
    for (const s of instances) {
      if (s && s.proc.exitCode === null && s.proc.signalCode === null) {
        s.proc.kill('SIGKILL');
        await s.exited;
      }
    }
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers every call while each instance in turn drains and comes back', async () => {
    const token = await signIn(lbPort, 'rolling01', PASSWORD);
    const acked: string[] = [];
    const errors: string[] = [];
    let reads = 0;
    let running = true;

    const writer = async (n: number) => {
      for (let i = 0; running; i++) {
        const name = `r${n}x${String(i).padStart(5, '0')}`;
        const a = await call(lbPort, 'POST', '/api/v1/router/add', { token, body: { router_type: 2, username: name, password: PASSWORD, area_code: '86', note: name } }).catch(
          (e: Error) => ({ code: -1, msg: e.message, status: 0 }),
        );
        if (a.code === 200) acked.push(name);
        else errors.push(`add ${name}: ${a.status} ${a.code} ${a.msg}`);
      }
    };
    const reader = async () => {
      const urls = ['/api/v1/router/lists?type=2&page=1', '/api/v1/network/lists?page=1', '/api/v1/router/quantity', '/api/v1/site/info'];
      for (let i = 0; running; i++) {
        const url = urls[i % urls.length]!;
        const a = await call(lbPort, 'GET', url, { token }).catch((e: Error) => ({ code: -1, msg: e.message, status: 0 }));
        if (a.code === 200) reads++;
        else errors.push(`GET ${url}: ${a.status} ${a.code} ${a.msg}`);
      }
    };
    const clients = [...Array.from({ length: WRITERS }, (_, n) => writer(n)), ...Array.from({ length: READERS }, () => reader())];
    const progress = async (what: string) => {
      const target = acked.length + WRITES_PER_STEP;
      await until(() => acked.length >= target || errors.length > 0, `${WRITES_PER_STEP} more writes ${what}`, 120_000);
    };

    try {
      await progress('with both up');
      for (const i of [0, 1]) {
        instances[i]!.proc.kill('SIGTERM');
        const ended = await instances[i]!.exited;
        expect(ended, instances[i]!.output().slice(-2000)).toEqual({ code: 0, signal: null });
        expect(instances[i]!.output().split("\n").filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
        await progress(`with instance ${i} down`);
        instances[i] = await startServer(envs[i]!, upstreams[i]!.port);
        await until(() => upstreams[i]!.ready, `the balancer sees instance ${i} ready`);
        await progress(`with instance ${i} back`);
      }
    } finally {
      running = false;
      await Promise.all(clients);
    }

    expect(errors).toEqual([]);
    expect(lb.stats.failed).toEqual([]);
    expect(reads).toBeGreaterThan(0);

    const handle = open();
    try {
      const rows = await handle.db.selectFrom('member').select('router_name').where('router_type', '=', 2).execute();
      const stored = new Set(rows.map((r) => r.router_name));
      expect(acked.filter((name) => !stored.has(name))).toEqual([]);
      // Every add either answered 200 or is absent: no error answers were given, so the rows are the answers.
      expect(rows.length).toBe(acked.length);
    } finally {
      await handle.close();
    }
    console.log(`rolling restart: ${acked.length} writes, ${reads} reads, retried by the balancer: ${lb.stats.refused} refused, ${lb.stats.closedIdle} on a closed keep-alive connection`);
  }, START_MS * 6);
});
