import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { simulate, type DeviceClient, type Simulation } from '@hublink/agent';
import { BM, DEVICE_CLOSE, DEVICE_TIMING, ROUTER_TYPE, networkDelivery, routerDiagnosis, setDns, updateRouterStatus, type DeviceLink } from '@hublink/contract';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';

const FAST = { firstMinMs: 20, firstMaxMs: 60, maxMs: 500, throttledMinMs: 500 };

/*
 * 诊断 against the real gateway: each cause is produced by a fault injected into the reference agent
 * (simulated mode) or its device, and the API names it. One server and one simulation for the file.
 */
describeEachDatabase('device diagnosis', (t) => {
  let sim: Simulation | undefined;
  let token = '';
  let tenantId = 0;
  let networkNumber = '';
  let center = '';
  let never = '';
  let wrong = '';
  let lost = '';
  let cert = '';
  let tunnel = '';
  let behind = '';
  let healthy = '';
  let app = '';
  const client = (name: string) => sim!.clients.find((c) => c.name === name || c.name.startsWith(`${name}@`))!;

  const diagnose = async (router_name: string) => {
    const res = await t().call(routerDiagnosis, { token, query: { router_name } });
    expect(res.code).toBe(200);
    return res.data!;
  };
  const memberId = async (name: string) => (await t().db.selectFrom('member').select('id').where('tenant_id', '=', tenantId).where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    const a = await newAccount(t());
    token = a.token;
    tenantId = a.account.id;
    await t().db.updateTable('account').set({ network_router_count: 50 }).where('id', '=', tenantId).execute();
    [center = '', never = '', wrong = '', lost = '', cert = '', tunnel = '', behind = '', healthy = ''] = await seedFreshMembers(t(), tenantId, 8);
    [app = ''] = await seedFreshMembers(t(), tenantId, 1, { router_type: ROUTER_TYPE.software });
    const sign = (await t().db.selectFrom('account').select('sign').where('id', '=', tenantId).executeTakeFirstOrThrow()).sign;
    networkNumber = await createNetworkThroughApi(t(), token, { center: [center], point: [never, wrong, lost, cert, tunnel, behind, healthy, app] });
    await t().ctx.events.settle();
    sim = simulate({
      url: `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`,
      members: [
        ...[center, lost, cert, tunnel, behind, healthy].map((router_name) => ({ kind: 'router' as const, router_name, secret: SEEDED_MEMBER_SECRET })),
        { kind: 'router' as const, router_name: wrong, secret: 'not-the-secret' },
        { kind: 'app' as const, login: `${app}@${sign}`, secret: SEEDED_MEMBER_SECRET },
      ],
      startSpreadMs: 100,
      linkDelayMs: [10, 50],
      backoff: FAST,
    });
    // The faults that must be there from the start: a device whose tunnel never comes up, and one that never acknowledges a config.
    const tunnelDevice = client(tunnel).device as unknown as { links(): DeviceLink[] };
    const links = tunnelDevice.links.bind(tunnelDevice);
    tunnelDevice.links = () => links().map((l) => ({ ...l, online: 0, since: 0 }));
    silence(client(behind), (m) => m.type === 'applied');
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('names a member whose device never connected', async () => {
    const d = await diagnose(never);
    expect(d).toMatchObject({ cause: 'never_connected', online: 0, last_seen: '' });
    expect(d.message).toContain('从未连接');
  });

  it('names a wrong secret with the time and address of the refused hello', async () => {
    await until(() => client(wrong).state === 'failed', 'the agent with the wrong secret gave up');
    const d = await diagnose(wrong);
    expect(d).toMatchObject({ cause: 'wrong_secret', online: 0, failure_ip: '127.0.0.1' });
    expect(d.failure_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(d.message).toContain(d.failure_time);
    expect(d.message).toContain('127.0.0.1');
  });

  it('names a healthy member once its tunnel is up and its config acknowledged', async () => {
    await until(async () => {
      const d = await diagnose(healthy);
      return d.cause === 'healthy' && d.networks[0]!.links.length > 0;
    }, 'the healthy member diagnosed healthy with its link reported', 30_000);
    const d = await diagnose(healthy);
    expect(d.online).toBe(1);
    expect(d.networks, JSON.stringify(d.networks)).toEqual([expect.objectContaining({ network_number: networkNumber, links: [{ center, vpn_online: 1 }] })]);
    expect(d.networks[0]!.applied_version).toBe(d.networks[0]!.config_version);
    expect(d.message).toContain('配置已是最新');
  });

  it('names a tunnel down to its center from the agent’s status', async () => {
    await until(async () => (await diagnose(tunnel)).cause === 'tunnel_down', 'the tunnel-down member diagnosed', 30_000);
    const d = await diagnose(tunnel);
    expect(d.online).toBe(1);
    expect(d.message).toContain(center);
    expect(d.networks[0]!.links).toEqual([{ center, vpn_online: 0 }]);
  });

  it('names a device that does not acknowledge its configuration, and the network lists it', async () => {
    await until(async () => {
      const d = await diagnose(behind);
      return d.cause === 'config_behind' && d.networks[0]!.links.length > 0;
    }, 'the member that never acknowledges diagnosed with its link reported', 30_000);
    const d = await diagnose(behind);
    expect(d.online).toBe(1);
    expect(d.networks[0]!.links).toEqual([{ center, vpn_online: 1 }]);
    expect(d.networks[0]).toMatchObject({ applied_version: 0, applied_time: '' });
    expect(d.networks[0]!.config_version).toBeGreaterThan(0);
  });

  it('measures a change until its acknowledgements: p50 and p95, and the members behind', async () => {
    await until(async () => (await diagnose(healthy)).cause === 'healthy', 'healthy before the change', 30_000);
    const before = (await diagnose(healthy)).networks[0]!.config_version;
    expect((await t().call(setDns, { token, body: { network_number: networkNumber, dns: ['223.5.5.5'] } })).code).toBe(200);
    await until(async () => (await diagnose(healthy)).networks[0]!.config_version > before, 'a new version compiled');
    await until(async () => {
      const d = (await diagnose(healthy)).networks[0]!;
      return d.applied_version === d.config_version;
    }, 'the new version acknowledged by the healthy member', 30_000);
    const res = await t().call(networkDelivery, { token, query: { network_number: networkNumber } });
    expect(res.code).toBe(200);
    const { behind: late, last_change } = res.data!;
    const names = late.map((b) => b.router_name);
    expect(names).toContain(behind);
    expect(names).toContain(never);
    expect(names).not.toContain(healthy);
    expect(res.data!.behind_count).toBe(late.length);
    // Paged (issue 34): one page of the same list, the count of all of it.
    const page = async (behind_page: number) => (await t().call(networkDelivery, { token, query: { network_number: networkNumber, behind_page, page_size: 1 } })).data!;
    for (const [i, name] of names.entries()) expect(await page(i + 1)).toMatchObject({ behind: [{ router_name: name }], behind_count: late.length });
    expect((await page(names.length + 1)).behind).toEqual([]);
    expect((await t().call(networkDelivery, { token, query: { network_number: networkNumber, behind_page: 0 } })).msg).toBe(BM.pageInvalid);
    expect(last_change!.members).toBeGreaterThanOrEqual(1);
    expect(last_change!.acknowledged).toBeGreaterThanOrEqual(1);
    expect(last_change!.acknowledged).toBeLessThan(last_change!.members);
    expect(last_change!.p50_seconds).toBeGreaterThanOrEqual(0);
    expect(last_change!.p95_seconds).toBeGreaterThanOrEqual(last_change!.p50_seconds!);
    // Another tenant sees nothing of it.
    const other = await newAccount(t());
    expect((await t().call(networkDelivery, { token: other.token, query: { network_number: networkNumber } })).code).toBe(204);
    expect((await t().call(routerDiagnosis, { token: other.token, query: { router_name: healthy } })).code).toBe(204);
  });

  it('names an expired certificate', async () => {
    await until(async () => (await diagnose(cert)).online === 1, 'the member online', 30_000);
    await t().db.updateTable('member_certificate').set({ not_after: Date.now() - 1000 }).where('member_id', '=', await memberId(cert)).execute();
    const d = await diagnose(cert);
    expect(d.cause).toBe('certificate');
    expect(d.message).toContain('证书');
  });

  it('names a disabled member', async () => {
    await until(async () => (await diagnose(app)).online === 1, 'the software member online', 30_000);
    expect((await t().call(updateRouterStatus, { token, body: { router_name: app } })).code).toBe(200);
    await until(() => client(app).state === 'failed', 'the agent stopped on 4002');
    await until(async () => (await diagnose(app)).online === 0, 'the session ended');
    const d = await diagnose(app);
    expect(d).toMatchObject({ cause: 'disabled', online: 0, close_code: DEVICE_CLOSE.disabled });
  });

  it('names a lost heartbeat with the last-seen time and address; the member is offline within two missed heartbeats', async () => {
    await until(async () => (await diagnose(lost)).online === 1, 'the member online', 30_000);
    // The device goes silent (its uplink died): it sends nothing more, not even pings.
    silence(client(lost), () => true);
    const silencedAt = Date.now();
    const id = await memberId(lost);
    await until(async () => (await diagnose(lost)).online === 0, 'offline after the heartbeat timeout', 40_000);
    const d = await diagnose(lost);
    expect(d).toMatchObject({ cause: 'heartbeat_lost', remote_ip: '127.0.0.1', close_code: DEVICE_CLOSE.heartbeatTimeout });
    expect(d.message).toContain(d.last_seen);
    const row = await t().db.selectFrom('member_diagnosis').select('seen_time').where('member_id', '=', id).executeTakeFirstOrThrow();
    const end = await t().db.selectFrom('connect_log').select('create_time').where('member_id', '=', id).where('online', '=', 0).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const lastMessage = Number(row.seen_time);
    expect(lastMessage).toBeLessThanOrEqual(silencedAt);
    // Two missed pings are due 2 × ping_interval after the last message; 5 s of grace and the 1 s check after that.
    expect(Number(end.create_time) - lastMessage).toBeLessThanOrEqual((2 * DEVICE_TIMING.pingInterval + 5 + 1) * 1000 + 500);
    expect(Number(end.create_time) - lastMessage).toBeGreaterThanOrEqual(2 * DEVICE_TIMING.pingInterval * 1000);
    expect((await t().db.selectFrom('member').select('online_status').where('id', '=', id).executeTakeFirstOrThrow()).online_status).toBe(0);
  }, 60_000);
}, { config: { apiRateLimitPerMinute: 1_000_000 } });

/** Makes the agent drop the messages `which` picks, as a device whose uplink (or config step) fails would. */
function silence(c: DeviceClient, which: (m: { type: string }) => boolean) {
  const send = c.send.bind(c);
  c.send = (m) => (which(m) ? true : send(m));
}
