import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editIpPool, getMemberConfig, networkStatus, setMemberOv, setNetworkFr } from '@hublink/contract';
import { HUBLINK_BIN, startAgent, type AgentProcess } from '../../test/agentProcess';
import { createTestApp, newAccount, type TestApp } from '../../test/helpers';
import { outage } from '../../test/measure';
import { NetLab, type NsProcess } from '../../test/netns';
import { createNetworkThroughApi } from '../../test/networks';
import { ops } from '../../test/ops';
import { until } from '../../test/until';
import { GATEWAY_ADDRESS, requireLab, Wan, type Uplink } from '../../test/wan';
import type { PointConfig } from '../compiler/model';
import { addMember } from '../modules/router/fixtures';

/*
 * POP relays carry traffic (issue 30), in namespaces: a server of the test's; a center, a point and a
 * POP relay on the lab's internet (test/wan.ts), each its own namespace; the network built through the
 * API, its POP resource, area and relay made by the operator's commands. The relay is a real
 * `hublink relay` process; the center and the point run real `hublink agent`s with OpenVPN.
 *
 * The point dials POP first. With its direct path to the center blocked in the internet router it
 * reaches the center through the relay; the relay reports its flows and bytes. Then the direct path is
 * opened and the relay killed: the point falls back to its next remote (the center itself) within the
 * 10 s issue 30 asks for; the time is printed.
 */

const SECRET = 'devsecret1';
const UP_MS = 90_000;
/**
 * Issue 30's bound. What the point's OpenVPN client does when the relay it came through dies: ping-restart
 * after 4–5 s (5 s of silence, counted in whole seconds), the relay's restart pause of 1 s and its
 * server-poll-timeout of 2 s (its `<connection>` block: OpenVPN tries the remote it was connected to once
 * more), then the center within a few hundred ms: 7.4–8.5 s measured on a loaded machine, at most about
 * 8 s plus the handshake (docs/networking.md, "POP relays"). `figures.fallback` shows it.
 */
const FALLBACK_MS = 10_000;
/** The area's first relay port. */
const RELAY_PORT = 40000;
const ROOT = path.resolve(path.dirname(HUBLINK_BIN), '../../..');

describe('a POP relay carrying a point to its center', () => {
  const lab = new NetLab('hlrelay');
  let t: TestApp | undefined;
  let token = '';
  let username = '';
  let wan: Wan;
  let networkNumber = '';
  const up = {} as Record<'c' | 'p' | 'r', Uplink>;
  const names = {} as Record<'c' | 'p', string>;
  const agents: AgentProcess[] = [];
  let relay: NsProcess | undefined;
  let relayToken = '';
  let areaId = 0;
  const figures: Record<string, number> = {};

  const diagnosis = () => [...agents.map((a) => a.diagnosis(30, 40)), `--- relay:\n${relay?.log(30) ?? ''}`].join('\n');

  async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = UP_MS): Promise<void> {
    try {
      await until(check, what, timeoutMs);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${diagnosis()}`);
    }
  }

  async function set(endpoint: Parameters<TestApp['call']>[0], body: Record<string, unknown>): Promise<void> {
    const res = await t!.call(endpoint, { token, body } as never);
    expect([res.code, res.msg], `${endpoint.path} ${JSON.stringify(body)}`).toEqual([200, expect.any(String)]);
    await t!.ctx.events.settle();
  }

  async function pointConfig(): Promise<PointConfig> {
    const res = await t!.call(getMemberConfig, { token, query: { network_number: networkNumber, router_name: names.p } });
    return res.data!.config as unknown as PointConfig;
  }

  /** The point's link as the network detail shows it. */
  const shownLink = async () => (await t!.call(networkStatus, { token, query: { network_number: networkNumber } })).data!.link[0]!;

  const relayRow = async () => (await ops(t!, ['pops', 'relay-list', '--area', String(areaId), '--json'])).json<{ state: string; flows: number; bytes_in: number; bytes_out: number; address: string }[]>()[0]!;

  function startRelay(): NsProcess {
    relay = lab.start(up.r.ns, 'relay', process.execPath, [HUBLINK_BIN, 'relay', '--server', `http://${GATEWAY_ADDRESS}`, '--token', relayToken], ROOT);
    return relay;
  }

  beforeAll(async () => {
    await requireLab();
    await lab.removeLeftovers();
    t = await createTestApp('sqlite', { config: { apiRateLimitPerMinute: 1_000_000, trustProxy: ['127.0.0.1'] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const account = await newAccount(t);
    token = account.token;
    username = account.username;
    wan = await Wan.create(lab);
    await wan.gateway((t.app.server.address() as AddressInfo).port, { forwardedFor: true });
    for (const d of ['c', 'p', 'r'] as const) up[d] = await wan.device(d);
    for (const d of ['c', 'p'] as const) names[d] = await addMember(t, token, { router_type: 1, password: SECRET });
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled(agents.map((a) => a.stop()));
    await t?.close();
    await lab.close();
    console.log(`POP relay figures (ms): ${JSON.stringify(figures)}`);
  });

  it('registers the relay, which fetches its table and reports itself live', async () => {
    networkNumber = await createNetworkThroughApi(t!, token, { center: [names.c], point: [names.p] });
    const fr = (await ops(t!, ['pops', 'create', username, '--name', '中继', '--expire', '2099-12-31', '--json'])).json<{ id: number }>().id;
    const area = await ops(t!, ['pops', 'area-add', String(fr), '--region', 'south', '--bandwidth', '100', '--host', up.r.address, '--port', String(RELAY_PORT), '--json']);
    expect(area.code, area.err).toBe(0);
    areaId = area.json<{ id: number }>().id;
    // The console's POP config: a POP pool and the resource, POP first; the point's main area.
    await set(editIpPool, { network_number: networkNumber, pop: '100.80.0.0/16', fr_id: fr });
    await set(setNetworkFr, { network_number: networkNumber, network_fr_id: fr, mode: 3 });
    await set(setMemberOv, { network_number: networkNumber, router_name: names.p, ov_id_main: areaId, ov_id_backup: 0 });
    const added = await ops(t!, ['pops', 'relay-add', String(areaId), '--name', 'south-1', '--json']);
    expect(added.code, added.err).toBe(0);
    relayToken = added.json<{ token: string }>().token;

    const started = Date.now();
    startRelay();
    await waitFor(async () => (await relayRow()).state === 'live', 'the relay live');
    figures.relayLive = Date.now() - started;
    expect((await relayRow()).address).toBe(up.r.address);
  }, UP_MS);

  it("carries the point to its center when the point's direct path is blocked", async () => {
    await wan.block('p', 'c');
    agents.push(startAgent(lab, up.c.ns, { name: names.c, secret: SECRET, entry: 'agent' }));
    // The point dials the relay's port for its center first, then the center itself.
    await waitFor(async () => {
      const remotes = (await pointConfig()).tunnels[0]!.remotes;
      return JSON.stringify(remotes.map((r) => [r.via, r.host, r.port])) === JSON.stringify([['pop', up.r.address, RELAY_PORT], ['center', up.c.address, 1194]]);
    }, "the relay's port and the center's reported address in the point's config");
    await waitFor(() => relay!.lines.some((l) => l.text.includes(`port ${RELAY_PORT} forwards to ${up.c.address}:1194`)), 'the relay forwarding to the center');
    expect(await lab.pings(up.p.ns, up.c.address, 0.3)).toBe(false);

    const started = Date.now();
    agents.push(startAgent(lab, up.p.ns, { name: names.p, secret: SECRET, entry: 'agent' }));
    const centerAddress = (await pointConfig()).tunnels[0]!.center_address;
    await waitFor(() => lab.pings(up.p.ns, centerAddress), "the point pings its center's tunnel address through the relay");
    figures.throughRelay = Date.now() - started;
    // The relay carried it: a flow of the point's and bytes both ways.
    await waitFor(async () => {
      const row = await relayRow();
      return row.flows >= 1 && row.bytes_in > 0 && row.bytes_out > 0;
    }, "the relay reporting the point's flow");
    // The network detail says the link runs through the POP area.
    await waitFor(async () => {
      const l = await shownLink();
      return l.vpn_online === 1 && l.path === 'pop' && l.pop_area === '华南';
    }, 'the network detail showing the link through the POP');
  }, UP_MS * 2);

  it('falls back to the direct path when the relay dies', async () => {
    const centerAddress = (await pointConfig()).tunnels[0]!.center_address;
    await wan.unblock('p', 'c');
    const result = await outage(lab, up.p.ns, centerAddress, async () => {
      await relay!.kill();
    });
    figures.fallback = result.resumedAfterMs;
    expect(result.resumedAfterMs, `fallback took ${result.resumedAfterMs} ms\n${diagnosis()}`).toBeLessThan(FALLBACK_MS);
    await waitFor(async () => {
      const l = await shownLink();
      return l.vpn_online === 1 && l.path === 'center';
    }, 'the network detail showing the link direct');
    // The relay is shown dead once it has been silent for the live time.
    await waitFor(async () => (await relayRow()).state === 'dead', 'the relay shown dead', 30_000);
  }, UP_MS);
});
