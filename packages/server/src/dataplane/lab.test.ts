import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLog, routerTraffic } from '@hublink/contract';
import { startAgent, type AgentProcess } from '../../test/agentProcess';
import { resolve, startDnsServer } from '../../test/dnsServer';
import { frrRouter } from '../../test/frr';
import { createTestApp, newAccount, type TestApp } from '../../test/helpers';
import { lanHost, type LanHost } from '../../test/lan';
import { iperf3, outage, waitForPing } from '../../test/measure';
import { FRR_RUN, NETNS_ETC, NetLab, sh } from '../../test/netns';
import { until } from '../../test/until';
import { GATEWAY_URL, INTERNET_HOST, requireLab, Wan, type GatewayPath, type Uplink } from '../../test/wan';
import { addMember } from '../modules/router/fixtures';

/*
 * The data-plane laboratory's own proof (test/wan.ts, lan.ts, frr.ts, agentProcess.ts, dnsServer.ts,
 * measure.ts): each piece once, quickly, before the suites build VPNs with it. Two devices on the
 * lab's internet, a server of the test's reached through the gateway's address, a real `hublink agent`
 * process signed in from a namespace, a LAN with a PC and a DNS server, two customer routers running
 * FRR that learn each other's networks by OSPF, and the measurements.
 *
 * Needs root, /dev/net/tun, openvpn, nft, curl, iperf3 and FRR: without them the file fails, naming
 * what is missing.
 */

const SECRET = 'devsecret1';
/** A ping's bound where none should come back (seconds): a reply on these links takes well under a millisecond. */
const SHORT = 0.3;

describe('the data-plane laboratory', () => {
  const lab = new NetLab('hllab');
  let t: TestApp | undefined;
  let token = '';
  let wan: Wan;
  let gateway: GatewayPath;
  let a: Uplink;
  let b: Uplink;
  let pc: LanHost;
  const agents: AgentProcess[] = [];
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    await requireLab();
    await lab.removeLeftovers();
    const t0 = Date.now();
    // The server trusts the lab's gateway path (127.0.0.1) to name the device's address.
    t = await createTestApp('sqlite', { config: { apiRateLimitPerMinute: 1_000_000, trustProxy: ['127.0.0.1'] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    token = (await newAccount(t)).token;
    timings.app = Date.now() - t0;
    const t1 = Date.now();
    wan = await Wan.create(lab);
    gateway = await wan.gateway((t.app.server.address() as AddressInfo).port, { forwardedFor: true });
    a = await wan.device('a');
    b = await wan.device('b');
    timings.wan = Date.now() - t1;
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(agents.map((x) => x.stop()));
    await t?.close();
    await lab.close();
    console.log(`lab timings (ms): ${JSON.stringify(timings)}`);
  });

  it("gives each device an uplink through wan: the internet host sees the device's own address", async () => {
    expect([a.address, a.gateway, a.prefix]).toEqual(['198.51.100.2', '198.51.100.1', '198.51.100.0/30']);
    expect(b.address).toBe('198.51.100.6');
    expect(await wan.whoami(a.ns)).toBe(a.address);
    expect(await wan.whoami(b.ns)).toBe(b.address);
    expect(await lab.exec(a.ns, 'ip', ['route', 'get', b.address])).toContain(`via ${a.gateway} dev eth0`);
    expect(await lab.pings(a.ns, b.address)).toBe(true);
    // Nothing of the lab's in the host's namespace.
    expect(await sh('ip', ['-o', 'address'])).not.toMatch(/198\.51\.100\.|203\.0\.113\./);
  });

  it('blocks two devices from each other while the rest flows, and unblocks them', async () => {
    await wan.block('a', 'b');
    expect(await lab.pings(a.ns, b.address, SHORT)).toBe(false);
    expect(await lab.pings(b.ns, a.address, SHORT)).toBe(false);
    expect(await lab.pings(a.ns, INTERNET_HOST)).toBe(true);
    await wan.unblock('a', 'b');
    expect(await lab.pings(a.ns, b.address)).toBe(true);
    // One address alone: the gateway's, for every device.
    await wan.block('203.0.113.10');
    expect(await lab.pings(b.ns, '203.0.113.10', SHORT)).toBe(false);
    expect(await lab.pings(b.ns, INTERNET_HOST)).toBe(true);
    await wan.unblock('203.0.113.10');
    expect(await lab.pings(b.ns, '203.0.113.10')).toBe(true);
  });

  it('cuts a device off (its link down, or silently with its link up) and restores it', async () => {
    await wan.cut('a');
    expect(await lab.exec(a.ns, 'ip', ['link', 'show', 'eth0'])).toContain('NO-CARRIER');
    expect(await lab.pings(a.ns, INTERNET_HOST, SHORT)).toBe(false);
    expect(await lab.pings(b.ns, a.address, SHORT)).toBe(false);
    expect(await lab.pings(b.ns, INTERNET_HOST)).toBe(true);
    await wan.restore('a');
    await waitForPing(lab, a.ns, INTERNET_HOST);

    await wan.cut('a', { silent: true });
    expect(await lab.exec(a.ns, 'ip', ['link', 'show', 'eth0'])).not.toContain('NO-CARRIER');
    expect(await lab.pings(a.ns, INTERNET_HOST, SHORT)).toBe(false);
    expect(await lab.pings(b.ns, a.address, SHORT)).toBe(false);
    await wan.restore('a');
    expect(await lab.pings(a.ns, INTERNET_HOST)).toBe(true);
  });

  it('loses packets of a lossy link, some and not all', async () => {
    await wan.loss('a', 40);
    try {
      const out = await lab.exec(a.ns, 'ping', ['-n', '-q', '-c', '60', '-i', '0.01', '-W', '1', b.address]).catch((e: Error) => e.message);
      const received = Number(/(\d+) received/.exec(out)?.[1]);
      // 36% of round trips come back (60% each way): a count in 1…59 but for a chance below 1e-10.
      expect(received, out).toBeGreaterThan(0);
      expect(received, out).toBeLessThan(60);
    } finally {
      await wan.loss('a', 0);
    }
    expect(await lab.pings(a.ns, b.address)).toBe(true);
  });

  it("carries a device's HTTP request to 203.0.113.10:80 to the test's server on the host's 127.0.0.1", async () => {
    expect(gateway.url).toBe(GATEWAY_URL);
    const body = await lab.exec(a.ns, 'curl', ['-sS', '--noproxy', '*', '--max-time', '5', 'http://203.0.113.10/healthz']);
    expect(JSON.parse(body)).toEqual({ code: 200, msg: 'ok' });
    await until(() => gateway.open === 0, 'the forwarded connection closed');
  });

  it('runs `hublink agent` in a namespace: it signs in through the gateway and the member shows online', async () => {
    const member = await addMember(t!, token, { router_type: 1, password: SECRET });
    const started = Date.now();
    const agent = startAgent(lab, a.ns, { name: member, secret: SECRET, args: [] });
    agents.push(agent);
    const first = await agent.waitForLine(/OpenVPN mode|SIMULATED mode/, { timeoutMs: 60_000 });
    expect(first.text).toContain('OpenVPN mode: ');
    const connected = await agent.waitForLine(/connected \(session/, { timeoutMs: 60_000 });
    timings.agentFirstLine = first.at - started;
    timings.agentConnected = connected.at - started;
    await until(async () => (await t!.call(routerTraffic, { token, query: { router_name: member } })).data?.online === 1, 'the member online');
    expect(gateway.peers()).toEqual([a.address]);
    // The server saw the device's own address (X-Forwarded-For from the lab's gateway path).
    const connects = (await t!.call(connectLog, { token, query: { page: 1, limit: 100 } })).data!;
    expect(connects.filter((r) => r.router_name === member).map((r) => r.remote_ip)).toContain(a.address);
    expect(await agent.stop()).toBe(0);
    await until(async () => (await t!.call(routerTraffic, { token, query: { router_name: member } })).data?.online === 0, 'the member offline');

    // The lab's lighter entry to the same command; killed (a crash) and started again.
    const light = startAgent(lab, b.ns, { name: member, secret: SECRET, entry: 'agent' });
    agents.push(light);
    timings.agentEntryConnected = (await light.waitForLine(/connected \(session/, { timeoutMs: 60_000 })).at - light.lines[0]!.at;
    await light.kill();
    expect(light.process.exitCode).toBe(-1);
    const mark = light.mark();
    light.start();
    await light.waitForLine(/connected \(session/, { since: mark, timeoutMs: 60_000 });
    expect(light.lines.filter((l) => l.text.startsWith('--- started'))).toHaveLength(2);
  }, 120_000);

  it('answers DNS through the namespace\'s resolv.conf, which `ip netns exec` shows as /etc/resolv.conf', async () => {
    pc = await lanHost(lab, a.ns, { name: 'pc', memberAddress: '10.10.1.1/24', hostAddress: '10.10.1.10/24' });
    const dns = await startDnsServer(lab, pc.ns, pc.address, { 'pc.test': pc.address });
    expect(await lab.exec(a.ns, 'cat', ['/etc/resolv.conf'])).toContain('nameserver 192.0.2.53');
    fs.writeFileSync(lab.resolvConf(a.ns), `nameserver ${pc.address}\n`);
    expect(await lab.exec(a.ns, 'cat', ['/etc/resolv.conf'])).toBe(`nameserver ${pc.address}\n`);
    expect(await resolve(lab, a.ns, 'pc.test')).toBe(pc.address);
    expect(await resolve(lab, a.ns, 'nobody.test')).toBeNull();
    dns.set('nas.test', '10.10.1.20');
    expect(await resolve(lab, a.ns, 'NAS.test')).toBe('10.10.1.20');
    expect(dns.queries().map((q) => [q.from, q.name])).toContainEqual(['10.10.1.1', 'pc.test']);
    // The host's own resolv.conf is untouched.
    expect(fs.readFileSync('/etc/resolv.conf', 'utf8')).not.toContain(pc.address);
  });

  it("puts a PC on a member's LAN that pings the member, and reaches the internet only through the member's NAT", async () => {
    expect(await lab.pings(pc.ns, pc.gateway)).toBe(true);
    // The member forwards (what an agent would turn on) but does not NAT: wan drops the LAN's address.
    await lab.exec(a.ns, 'sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);
    const spoofed = await wan.spoofed('a');
    expect(await lab.pings(pc.ns, INTERNET_HOST, SHORT)).toBe(false);
    expect(await wan.spoofed('a')).toBeGreaterThan(spoofed);
    await lab.exec(a.ns, 'nft', ['add table ip nat; add chain ip nat post { type nat hook postrouting priority 100; }; add rule ip nat post oifname "eth0" masquerade']);
    expect(await wan.whoami(pc.ns)).toBe(a.address);
  });

  it("runs FRR routers on a member's LAN: two of them learn each other's networks by OSPF, and one withdrawn goes", async () => {
    const ospf = { hello: 1, dead: 4, fast: true };
    const started = Date.now();
    const [r1, r2] = await Promise.all([
      frrRouter(lab, b.ns, { name: 'r1', memberAddress: '10.20.1.1/24', address: '10.20.1.2/24', networks: ['10.20.5.1/24'], hosts: true, ospf }),
      frrRouter(lab, b.ns, { name: 'r2', memberAddress: '10.20.1.1/24', address: '10.20.1.3/24', networks: ['10.20.6.1/24', '10.20.7.1/24'], ospf }),
    ]);
    timings.frrStarted = Date.now() - started;
    expect(await r1.vtysh('show ip ospf interface')).toMatch(/lan0 is up[\s\S]*Internet Address 10\.20\.1\.2\/24, Broadcast 10\.20\.1\.255, Area 0\.0\.0\.0/);
    try {
      await until(async () => /10\.20\.5\.0\/24 .*via 10\.20\.1\.2 .*proto ospf/.test(await r2.routes()), "r1's network in r2's routes");
      await until(async () => /10\.20\.7\.0\/24 .*via 10\.20\.1\.3 .*proto ospf/.test(await r1.routes()), "r2's network in r1's routes");
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${await r1.vtysh('show ip ospf neighbor')}\n${await r2.routes()}\n${r1.log()}\n${r2.log()}`);
    }
    timings.ospfConverged = Date.now() - started;
    expect(await lab.pings(r2.ns, r1.hosts.get('10.20.5.1/24')!.address)).toBe(true);
    await r2.setNetwork('10.20.7.1/24', false);
    await until(async () => !(await r1.routes()).includes('10.20.7.0/24'), "r2's network withdrawn");
    await r2.addNetwork('10.20.8.1/24');
    await until(async () => /10\.20\.8\.0\/24 .*via 10\.20\.1\.3 .*proto ospf/.test(await r1.routes()), "r2's new network in r1's routes");
    // The member itself runs no FRR: it has only its connected LAN.
    expect(await lab.exec(b.ns, 'ip', ['route'])).not.toContain('10.20.5.0/24');
  }, 90_000);

  it('measures throughput with iperf3 and an outage with a pinger', async () => {
    const mbit = await iperf3(lab, b.ns, b.address, a.ns, 1);
    timings.iperf3Mbit = Math.round(mbit);
    expect(mbit).toBeGreaterThan(1);

    const o = await outage(lab, a.ns, b.address, async (pinger) => {
      await wan.cut('b');
      await pinger.waitForSilence(800);
      await wan.restore('b');
    });
    timings.outageMs = o.longestGapMs;
    expect(o.gaps).toHaveLength(1);
    expect(o.longestGapMs).toBeGreaterThanOrEqual(800);
    expect(o.longestGapMs).toBeLessThan(10_000);
    expect(o.resumedAfterMs).toBeGreaterThanOrEqual(800);
    expect(o.resumedAfterMs).toBeLessThanOrEqual(o.longestGapMs + 200);
  }, 60_000);

  it("removes a crashed run's leftovers by prefix and dead pid, and cleans up after itself", async () => {
    const dead = spawnSync('true').pid;
    const left = `hllabx-${dead}-gone`;
    await sh('ip', ['netns', 'add', left]);
    fs.mkdirSync(path.join(NETNS_ETC, left), { recursive: true });
    fs.writeFileSync(path.join(NETNS_ETC, left, 'resolv.conf'), 'nameserver 192.0.2.53\n');
    fs.mkdirSync(path.join(FRR_RUN, left), { recursive: true });
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hllabx-${dead}-`));
    const sleeper = spawn('ip', ['netns', 'exec', left, 'sleep', '600'], { stdio: 'ignore' });
    const sleeperEnded = new Promise((r) => sleeper.on('exit', r));
    await until(async () => (await sh('ip', ['netns', 'pids', left])).trim() !== '', 'the sleeper in its namespace');

    const other = new NetLab('hllabx');
    const removed = await other.removeLeftovers();
    expect(removed.sort()).toEqual([left, path.join(NETNS_ETC, left), path.join(FRR_RUN, left), tmp].sort());
    await sleeperEnded;
    expect(await sh('ip', ['netns', 'list'])).not.toContain(left);

    const ns = await other.namespace('mine', { resolvConf: true });
    other.start(ns, 'sleeper', 'sleep', ['600'], '/');
    const dir = other.tempDir();
    await other.close();
    expect(await sh('ip', ['netns', 'list'])).not.toContain(ns);
    expect([fs.existsSync(path.join(NETNS_ETC, ns)), fs.existsSync(dir)]).toEqual([false, false]);
  });
});
