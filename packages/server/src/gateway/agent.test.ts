import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { simulate, type Simulation } from '@hublink/agent';
import { ROUTER_TYPE, killUser, networkStatus, onlineLog, softwareLoginLog } from '@hublink/contract';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';

const FAST = { firstMinMs: 20, firstMaxMs: 60, maxMs: 500, throttledMinMs: 500 };

// The reference agent (simulated mode) against the real gateway: what the console shows comes from it.
describeEachDatabase('the simulated agent against the gateway', (t) => {
  let sim: Simulation | undefined;
  let token = '';
  let networkNumber = '';
  let centers: string[] = [];
  let points: string[] = [];
  let apps: string[] = [];
  let sign = '';

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    const a = await newAccount(t());
    token = a.token;
    await t().db.updateTable('account').set({ network_router_count: 50 }).where('id', '=', a.account.id).execute();
    centers = await seedFreshMembers(t(), a.account.id, 1);
    points = await seedFreshMembers(t(), a.account.id, 6);
    apps = await seedFreshMembers(t(), a.account.id, 3, { router_type: ROUTER_TYPE.software });
    sign = (await t().db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;
    networkNumber = await createNetworkThroughApi(t(), token, { center: centers, point: [...points, ...apps] });
    await t().ctx.events.settle();
    sim = simulate({
      url: `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`,
      members: [
        ...[...centers, ...points].map((router_name) => ({ kind: 'router' as const, router_name, secret: SEEDED_MEMBER_SECRET })),
        ...apps.map((u) => ({ kind: 'app' as const, login: `${u}@${sign}`, secret: SEEDED_MEMBER_SECRET })),
      ],
      startSpreadMs: 200,
      linkDelayMs: [10, 50],
      backoff: FAST,
      // Flows with every status report, so the analysis minutes fill within the test.
      flowsEvery: 1,
    });
  });
  afterAll(async () => {
    await sim?.stop();
  });
  // The test polls the status call as fast as a condition needs, far above a console's 10 s.

  const status = async () => (await t().call(networkStatus, { token, query: { network_number: networkNumber } })).data!;

  it('brings every member online with its links up, its config applied, and its sessions and logins logged', async () => {
    await until(() => sim!.counts().connected === 10, 'all ten agents connected', 60_000);
    await until(async () => Object.values((await status()).online).every((o) => o === 1), 'the console shows every member online', 60_000);
    await until(async () => (await status()).link.length > 0 && (await status()).link.every((l) => l.vpn_online === 1 && l.vpn_ip !== ''), 'every link up with its address', 60_000);
    await until(async () => Object.values((await status()).device).every((d) => d.applied_version === d.config_version && d.config_version > 0), 'every config applied', 60_000);
    await until(async () => ((await t().call(onlineLog, { token, query: { mode: 'p2p', page: 1 } })).count ?? 0) >= points.length, 'p2p sessions in the online log', 60_000);
    const logins = await t().call(softwareLoginLog, { token, query: { page: 1 } });
    expect(logins.count).toBe(apps.length);
  });

  it("stores the agents' flow records and traffic as minute sums for SaaS analysis", async () => {
    const rows = (table: 'flow_minute' | 'traffic_minute') => t().db.selectFrom(table).select('member_id').distinct().execute();
    await until(async () => (await rows('traffic_minute')).length === 10, 'traffic minutes of every agent', 60_000);
    await until(async () => (await rows('flow_minute')).length > 0, 'flow minutes', 60_000);
    const sums = await t().db.selectFrom('flow_minute').select(['kind', 'download']).execute();
    expect(sums.some((r) => r.kind === 'app' && Number(r.download) > 0)).toBe(true);
  }, 90_000);

  it('carries out a command issued in the console and reports it done', async () => {
    expect((await t().call(killUser, { token, body: { network_number: networkNumber, router_name: points[0]! } })).code).toBe(200);
    await until(async () => (await status()).device[points[0]!]?.command?.state === 'done', 'the kill acknowledged', 30_000);
  });
}, { config: { apiRateLimitPerMinute: 1_000_000 } });
