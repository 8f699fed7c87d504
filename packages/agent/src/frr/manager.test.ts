import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackoffPolicy } from '../backoff';
import { namespaceHost, type HostCommands, type ProcessHandle } from '../host/commands';
import { HostLab, requireHostTools } from '../host/testLab';
import { Scheduler } from '../scheduler';
import { frrConfig } from './config';
import { FRR_SCRATCH_DIR, FrrDaemon } from './daemon';
import { FRR_DIR, FRR_MISSING, FrrManager } from './manager';
import { readDynamic, type PrefixListEntry } from './section';
import { flatten, parseConfig } from './tree';

/*
 * Real FRR (Debian's 8.4) in network namespaces: a center and a point, each with its own manager and
 * state directory, joined by a veth pair standing for the tunnel (100.64.0.1/24 - 100.64.0.2/24). The
 * point has LANs of its own and, on its first LAN, a customer's router (plain FRR configured by the
 * test, OSPF with FRR's default timers) with networks behind it.
 *
 * OSPF on a LAN with default timers elects its designated router only when the wait timer (the dead
 * interval, 40 s) runs out: the customer's router and the point's ospfd start in beforeAll and the
 * first test, and the OSPF test comes after the others, which run meanwhile.
 */

const lab = new HostLab('hlfrr');
const FAST_BACKOFF: BackoffPolicy = { firstMinMs: 200, firstMaxMs: 500, maxMs: 2_000, throttledMinMs: 2_000 };
const COMMUNITY = '64512:100';
const e = (seq: number, action: 'permit' | 'deny', prefix: string, ge: number | null = null, le: number | null = null): PrefixListEntry => ({ seq, action, prefix, ge, le });

/** The center accepts from the point only /24s of 10.50.0.0/16. */
const CENTER = {
  asn: 64512,
  community: COMMUNITY,
  router_id: '100.64.0.1',
  ospf_networks: [],
  announce: null,
  maximum_paths: 1,
  neighbors: [{ name: 'p1', address: '100.64.0.2', via: 'router', kind: 'point', accept: [e(5, 'permit', '10.50.0.0/16', 24, 24)] }],
};
/** The point announces up to /25 in 10.50.0.0/16 and /24s of 10.60.0.0/16, and runs OSPF on its LANs. */
const POINT_ANNOUNCE = [e(5, 'permit', '10.50.0.0/16', null, 25), e(10, 'permit', '10.60.0.0/16', null, 24)];
const POINT = {
  asn: 64512,
  community: COMMUNITY,
  router_id: '100.64.0.2',
  ospf_networks: ['10.50.0.0/16'],
  announce: POINT_ANNOUNCE,
  maximum_paths: 1,
  neighbors: [{ name: 'c', address: '100.64.0.1', via: 'center-c', kind: 'center', accept: null }],
};
const NETWORK = 'NFRRTEST';

interface KernelRoute {
  dst: string;
  gateway?: string;
  dev?: string;
  protocol?: string;
}

async function bgpRoutes(host: HostCommands): Promise<string[]> {
  const routes = JSON.parse(await host.run('ip', ['-j', 'route', 'show', 'proto', 'bgp'])) as KernelRoute[];
  return routes.map((r) => `${r.dst} via ${r.gateway ?? '-'}`).sort();
}

/** Every process whose command line names the directory. */
function processesNaming(dir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').some((a) => a.startsWith(dir))) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A customer's router: zebra and ospfd from files the test writes, as a customer configures their own. */
class CustomerRouter {
  readonly daemons: ProcessHandle[] = [];
  readonly lines: string[] = [];

  constructor(
    private readonly host: HostCommands,
    readonly dir: string,
  ) {}

  async start(ospf: string): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, 'zebra.conf'), '');
    writeFileSync(join(this.dir, 'ospfd.conf'), ospf);
    for (const daemon of ['zebra', 'ospfd']) {
      const args = ['-u', 'root', '-g', 'frrvty', '-P', '0', '-f', join(this.dir, `${daemon}.conf`), '-i', join(this.dir, `${daemon}.pid`), '-z', join(this.dir, 'zserv.api'), '--vty_socket', this.dir, '--log', 'stdout'];
      const line = (l: string) => this.lines.push(`${daemon}: ${l}`);
      this.daemons.push(this.host.spawn!(join(FRR_DIR, daemon), args, { stdout: { line }, stderr: { line } }));
      const deadline = Date.now() + 10_000;
      while (!existsSync(join(this.dir, `${daemon}.vty`))) {
        if (Date.now() > deadline) throw new Error(`the customer's ${daemon} did not start: ${this.lines.join('\n')}`);
        await sleep(50);
      }
    }
  }

  vtysh(command: string): Promise<string> {
    return this.host.run('vtysh', ['--config_dir', this.dir, '--vty_socket', this.dir, '-c', command]);
  }

  async stop(): Promise<void> {
    for (const d of this.daemons) d.kill('SIGTERM');
    await Promise.race([Promise.all(this.daemons.map((d) => d.exited)), sleep(5_000)]);
    for (const d of this.daemons) d.kill('SIGKILL');
    await Promise.all(this.daemons.map((d) => d.exited));
    for (const [i, name] of ['zebra', 'ospfd'].entries()) rmSync(join(FRR_SCRATCH_DIR, `${name}.${this.daemons[i]?.pid}`), { recursive: true, force: true });
  }
}

describe('the FRR manager, with real FRR in namespaces', () => {
  let tmp = '';
  let centerHost: HostCommands;
  let pointHost: HostCommands;
  let center: FrrManager;
  let point: FrrManager;
  let customer: CustomerRouter;
  const logs: string[] = [];
  const timings: Record<string, number> = {};
  const started = Date.now();
  const scheduler = new Scheduler();
  const managers: FrrManager[] = [];

  const manager = (host: HostCommands, name: string) => {
    const m = new FrrManager({ host, stateDir: join(tmp, name), log: (l) => logs.push(`${name}: ${l}`), scheduler, backoff: FAST_BACKOFF });
    managers.push(m);
    return m;
  };
  const pointWith = (changes: Partial<typeof POINT>) => [{ network: NETWORK, dynamic: { ...POINT, ...changes } }];

  beforeAll(async () => {
    requireHostTools();
    for (const daemon of ['zebra', 'bgpd', 'ospfd']) if (!existsSync(join(FRR_DIR, daemon))) throw new Error(`${FRR_DIR}/${daemon} missing: apt-get install -y frr`);
    await lab.removeLeftovers();
    tmp = mkdtempSync(join(tmpdir(), 'hublink-frr-'));
    const [c, p, r] = [await lab.namespace('c'), await lab.namespace('p'), await lab.namespace('r')];
    centerHost = namespaceHost(c);
    pointHost = namespaceHost(p);
    const customerHost = namespaceHost(r);
    await lab.veth(c, 'tun0', '100.64.0.1/24', p, 'tun0', '100.64.0.2/24');
    await lab.veth(p, 'lan0', '10.50.1.1/24', r, 'lan0', '10.50.1.2/24');
    // Networks held by one end of a veth pair whose other end stays in the namespace (this kernel has no dummy links).
    const network = async (host: HostCommands, ns: string, name: string, address: string) => {
      await host.run('ip', ['link', 'add', name, 'type', 'veth', 'peer', 'name', `${name}p`]);
      await host.run('ip', ['address', 'add', address, 'dev', name]);
      for (const end of [name, `${name}p`]) await host.run('ip', ['link', 'set', end, 'up']);
      void ns;
    };
    // The point's own: a second LAN it announces, and one its list does not permit.
    await network(pointHost, p, 'lan1', '10.50.2.1/24');
    await network(pointHost, p, 'lan2', '192.168.77.1/24');
    // Behind the customer's router: a /24 and a /25 the lists treat differently, and two the point must not carry.
    for (const [name, address] of [['net0', '10.50.5.1/24'], ['net1', '10.50.7.1/25'], ['net2', '10.60.1.1/24'], ['net3', '10.70.1.1/24']] as const) await network(customerHost, r, name, address);
    await customerHost.run('ip', ['route', 'add', 'default', 'via', '10.50.1.1']);
    customer = new CustomerRouter(customerHost, join(tmp, 'customer'));
    await customer.start(['router ospf', ' ospf router-id 10.50.1.2', ' redistribute connected', ' network 10.50.1.0/24 area 0', 'exit', ''].join('\n'));
    timings.customerStarted = Date.now() - started;
  });

  afterAll(async () => {
    for (const m of managers) await m.stop().catch(() => undefined);
    await customer?.stop().catch(() => undefined);
    scheduler.stop();
    await lab.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    console.log(`FRR manager timings (ms since the file started unless said): ${JSON.stringify(timings)}`);
  });

  it("starts FRR on both ends; the center installs the point's own LANs through the point's announce list and its own accept list", async () => {
    center = manager(centerHost, 'center');
    point = manager(pointHost, 'point');
    const t0 = Date.now();
    expect(await point.apply(pointWith({}))).toEqual([]);
    expect(await center.apply([{ network: NETWORK, dynamic: CENTER }])).toEqual([]);
    timings.bothStartedMs = Date.now() - t0;
    expect(Object.keys(center.pids()).sort()).toEqual(['bgpd', 'zebra']);
    expect(Object.keys(point.pids()).sort()).toEqual(['bgpd', 'ospfd', 'zebra']);
    // The daemons are the manager's children, under its directory only.
    expect(readFileSync(join(center.dir, 'zebra.pid'), 'utf8').trim()).toBe(String(center.pids().zebra));

    await expect.poll(() => bgpRoutes(centerHost), { timeout: 30_000 }).toEqual(['10.50.1.0/24 via 100.64.0.2', '10.50.2.0/24 via 100.64.0.2']);
    timings.firstRoutesMs = Date.now() - t0;
    // FRR runs every line generated, and nothing else.
    const running = await center.vtysh('show running-config');
    const read = readDynamic(CENTER);
    if ('refused' in read) throw new Error(read.refused);
    const generated = frrConfig([{ network: NETWORK, dynamic: read.dynamic }]).text;
    expect(flatten(parseConfig(running, { runningConfig: true }))).toEqual(flatten(parseConfig(generated)));
    // What the point sent carries the network's community; 192.168.77.0/24 and the tunnel were never sent.
    const advertised = JSON.parse(await point.vtysh('show bgp ipv4 unicast neighbors 100.64.0.1 advertised-routes json')) as { advertisedRoutes: Record<string, unknown> };
    expect(Object.keys(advertised.advertisedRoutes).sort()).toEqual(['10.50.1.0/24', '10.50.2.0/24']);
    expect(await center.vtysh('show bgp ipv4 unicast 10.50.2.0/24')).toContain(`Community: ${COMMUNITY}`);
    const [peer] = await center.peers();
    expect(peer).toMatchObject({ address: '100.64.0.2', description: `${NETWORK} p1`, state: 'Established', received: 2 });
    expect((await center.routes()).find((r) => r.prefix === '10.50.1.0/24')).toMatchObject({ protocol: 'bgp', selected: true, installed: true, nexthops: [{ ip: '100.64.0.2', interface: 'tun0' }] });
  });

  it("withdraws a prefix the point's new announce list denies, without its BGP session going down", async () => {
    const before = (await center.peers())[0]!;
    const pids = { center: center.pids(), point: point.pids() };
    const t0 = Date.now();
    expect(await point.apply(pointWith({ announce: [e(3, 'deny', '10.50.2.0/24'), ...POINT_ANNOUNCE] }))).toEqual([]);
    await expect.poll(() => bgpRoutes(centerHost), { timeout: 15_000 }).not.toContain('10.50.2.0/24 via 100.64.0.2');
    timings.withdrawnMs = Date.now() - t0;
    expect(await bgpRoutes(centerHost)).toContain('10.50.1.0/24 via 100.64.0.2');
    const after = (await center.peers())[0]!;
    expect(after.state).toBe('Established');
    expect(after.uptimeMs).toBeGreaterThanOrEqual(before.uptimeMs + (Date.now() - t0) - 1_000);
    expect({ center: center.pids(), point: point.pids() }).toEqual(pids);
    // Back as it was (the same way), for the tests that follow.
    expect(await point.apply(pointWith({}))).toEqual([]);
    await expect.poll(() => bgpRoutes(centerHost), { timeout: 15_000 }).toContain('10.50.2.0/24 via 100.64.0.2');
    expect(point.pids()).toEqual(pids.point);
    expect(logs.filter((l) => l.includes('starting FRR again'))).toEqual([]);
  });

  it('refuses a section FRR would refuse, and keeps the configuration that works', async () => {
    const running = await point.vtysh('show running-config');
    const problems = await point.apply(pointWith({ announce: [e(5, 'permit', '10.50.0.0/16', 8, null)] }));
    expect(problems).toEqual([`network ${NETWORK}: dynamic routing refused: announce[0].ge 8 is not at least the prefix length 16`, 'FRR keeps its previous configuration']);
    expect(await point.vtysh('show running-config')).toBe(running);
    expect(await bgpRoutes(centerHost)).toEqual(['10.50.1.0/24 via 100.64.0.2', '10.50.2.0/24 via 100.64.0.2']);
  });

  it('starts a bgpd that died again, with the whole configuration: the routes come back', async () => {
    const old = center.pids().bgpd!;
    const t0 = Date.now();
    process.kill(old, 'SIGKILL');
    await expect.poll(() => logs.find((l) => l.startsWith('center: FRR bgpd exited (SIGKILL); restarting in ')), { timeout: 5_000 }).toMatch(/restarting in \d\.\d s \(see .*bgpd\.log\)$/);
    await expect.poll(() => center.pids().bgpd, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(center.pids().bgpd).not.toBe(old);
    await expect.poll(() => bgpRoutes(centerHost), { timeout: 30_000 }).toEqual(['10.50.1.0/24 via 100.64.0.2', '10.50.2.0/24 via 100.64.0.2']);
    timings.bgpdBackMs = Date.now() - t0;
    expect(logs).toContain('center: FRR bgpd running again with the whole configuration');
    expect(existsSync(join(FRR_SCRATCH_DIR, `bgpd.${old}`))).toBe(false);
  });

  it('starts FRR again with the whole configuration when it refuses the difference (something was changed by hand)', async () => {
    // By hand: a line the difference will remove. FRR refuses to remove a community list that is not there.
    await center.vtysh('configure terminal', `no bgp community-list standard HL_${NETWORK} seq 5 permit ${COMMUNITY}`);
    const old = center.pids();
    const t0 = Date.now();
    // Another community on the center alone: tags are set where routes enter, so the two ends need not agree.
    const section = { ...CENTER, community: '64512:101' };
    expect(await center.apply([{ network: NETWORK, dynamic: section }])).toEqual([]);
    expect(logs.find((l) => l.startsWith('center: FRR: applying the change failed ('))).toContain("Can't find community-list");
    expect(center.pids().bgpd).not.toBe(old.bgpd);
    const running = await center.vtysh('show running-config');
    const read = readDynamic(section);
    if ('refused' in read) throw new Error(read.refused);
    expect(flatten(parseConfig(running, { runningConfig: true }))).toEqual(flatten(parseConfig(frrConfig([{ network: NETWORK, dynamic: read.dynamic }]).text)));
    await expect.poll(() => bgpRoutes(centerHost), { timeout: 30_000 }).toEqual(['10.50.1.0/24 via 100.64.0.2', '10.50.2.0/24 via 100.64.0.2']);
    timings.wholeAgainMs = Date.now() - t0;
    expect(await center.vtysh('show bgp ipv4 unicast 10.50.2.0/24')).toContain('Community: 64512:101');
  });

  it("carries the networks a customer's router announces by OSPF (default timers) to the center, through both prefix lists", async () => {
    const t0 = Date.now();
    try {
      await expect.poll(() => bgpRoutes(centerHost), { timeout: 80_000, interval: 500 }).toContain('10.50.5.0/24 via 100.64.0.2');
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${await point.vtysh('show ip ospf neighbor')}\n${customer.lines.slice(-10).join('\n')}`);
    }
    timings.ospfRouteAtMs = Date.now() - started;
    timings.ospfWaitedMs = Date.now() - t0;
    const ospf = (await point.routes()).filter((r) => r.protocol === 'ospf').map((r) => r.prefix);
    expect(ospf).toEqual(expect.arrayContaining(['10.50.5.0/24', '10.50.7.0/25', '10.60.1.0/24', '10.70.1.0/24']));
    // The point announces what its list permits (10.50.7.0/25: le 25; 10.60.1.0/24), not 10.70.1.0/24 …
    const advertised = JSON.parse(await point.vtysh('show bgp ipv4 unicast neighbors 100.64.0.1 advertised-routes json')) as { advertisedRoutes: Record<string, unknown> };
    expect(Object.keys(advertised.advertisedRoutes).sort()).toEqual(['10.50.1.0/24', '10.50.2.0/24', '10.50.5.0/24', '10.50.7.0/25', '10.60.1.0/24']);
    // … and the center takes only /24s of 10.50.0.0/16.
    expect(await bgpRoutes(centerHost)).toEqual(['10.50.1.0/24 via 100.64.0.2', '10.50.2.0/24 via 100.64.0.2', '10.50.5.0/24 via 100.64.0.2']);
    expect(await customer.vtysh('show ip ospf neighbor')).toMatch(/100\.64\.0\.2\s+\d+\s+Full/);
  }, 90_000);

  it('starts every daemon again when zebra died (they do not take a new zebra): the routes come back, OSPF too', async () => {
    const old = point.pids();
    const t0 = Date.now();
    process.kill(old.zebra!, 'SIGKILL');
    await expect.poll(() => logs.find((l) => l.startsWith('point: FRR zebra exited (SIGKILL); restarting in ')), { timeout: 5_000 }).toBeDefined();
    await expect.poll(() => logs.includes('point: FRR zebra running again: every daemon started again with the whole configuration'), { timeout: 15_000 }).toBe(true);
    const now = point.pids();
    for (const name of ['zebra', 'bgpd', 'ospfd'] as const) expect(now[name]).not.toBe(old[name]);
    await expect.poll(() => bgpRoutes(centerHost), { timeout: 30_000 }).toContain('10.50.2.0/24 via 100.64.0.2');
    timings.zebraBgpBackMs = Date.now() - t0;
    await expect.poll(() => bgpRoutes(centerHost), { timeout: 60_000, interval: 500 }).toContain('10.50.5.0/24 via 100.64.0.2');
    timings.zebraOspfBackMs = Date.now() - t0;
    expect(existsSync(join(FRR_SCRATCH_DIR, `zebra.${old.zebra}`))).toBe(false);
  }, 90_000);

  it('ends the daemons an earlier run of the agent left running before it starts its own', async () => {
    const ns = await lab.namespace('x');
    const host = namespaceHost(ns);
    const stateDir = join(tmp, 'restarted');
    const dir = join(stateDir, 'frr');
    mkdirSync(dir, { recursive: true });
    // A zebra as the killed agent left it: started the same way, its pid file in the directory.
    const left = new FrrDaemon({ name: 'zebra', host, frrDir: FRR_DIR, dir, group: 'frrvty', onExit: () => {} });
    await left.start();
    const leftPid = left.pid!;
    const again = manager(host, 'restarted');
    const section = { ...CENTER, router_id: '100.64.9.1', neighbors: [] };
    expect(await again.apply([{ network: NETWORK, dynamic: section }])).toEqual([]);
    expect(logs).toContain(`restarted: FRR: ended zebra ${leftPid}, left running by an earlier run of the agent`);
    expect(existsSync(`/proc/${leftPid}`)).toBe(false);
    expect(again.pids().zebra).not.toBe(leftPid);
    // No section left: FRR stops.
    expect(await again.apply([])).toEqual([]);
    expect(again.pids()).toEqual({});
    expect(processesNaming(dir)).toEqual([]);
  });

  it('stops (on stop(), or when no section is left): no process left, the routes zebra installed gone, nothing left behind', async () => {
    const pids = [...Object.values(center.pids()), ...Object.values(point.pids())];
    const t0 = Date.now();
    const [, problems] = await Promise.all([center.stop(), point.apply([])]);
    expect(problems).toEqual([]);
    timings.stopMs = Date.now() - t0;
    expect(center.pids()).toEqual({});
    expect(point.pids()).toEqual({});
    expect(processesNaming(center.dir)).toEqual([]);
    expect(processesNaming(point.dir)).toEqual([]);
    for (const pid of pids) expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(await bgpRoutes(centerHost)).toEqual([]);
    expect(await bgpRoutes(pointHost)).toEqual([]);
    const scratch = readdirSync(FRR_SCRATCH_DIR);
    for (const pid of pids) expect(scratch.filter((d) => d.endsWith(`.${pid}`))).toEqual([]);
    expect(readdirSync(center.dir).filter((f) => f.endsWith('.pid') || f.endsWith('.vty'))).toEqual([]);
    // A daemon that ended on request is not started again.
    await sleep(FAST_BACKOFF.firstMaxMs * 2);
    expect(center.pids()).toEqual({});
    expect(logs.filter((l) => /exited \(code 0\)|exited \(SIGTERM\)/.test(l))).toEqual([]);
  });

  it('says FRR is missing when it is, and asks nothing of it without sections', async () => {
    const none = new FrrManager({ host: centerHost, stateDir: join(tmp, 'none'), log: () => {}, frrDir: join(tmp, 'no-frr-here') });
    expect(await none.apply([{ network: NETWORK, dynamic: CENTER }])).toEqual([FRR_MISSING]);
    expect(await none.apply([])).toEqual([]);
    expect(FRR_MISSING).toBe('dynamic routing needs FRRouting (Debian: apt-get install frr)');
  });
});
