import {
  addNetworkMember,
  CODE,
  disableQuagga,
  editNetwork,
  editRouting,
  enableQuagga,
  fmt,
  getRouting,
  killUser,
  LIMITS,
  M,
  networkInfo,
  resendConfig,
  resetRespawn,
  setCiphers,
  setDefaultRoute,
  setDns,
  setQuagga,
  setSoftwareMode,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';
import type { RoleAuth } from '../../core/actor';

type Main = Awaited<ReturnType<typeof newAccount>>;

/**
 * A tenant with both feature flags, a network of two centers (c[0], c[1]) and two points (p[0]
 * offline, p[1] online), a spare member outside it and a second network of one center.
 */
async function tenantWith(t: TestApp, flags = { auth_quagga: 1, auth_default_route: 1 }) {
  const main = await newAccount(t);
  await t.db.updateTable('account').set(flags).where('id', '=', main.account.id).execute();
  const c = await seedFreshMembers(t, main.account.id, 2);
  const p = [...(await seedFreshMembers(t, main.account.id, 1)), ...(await seedFreshMembers(t, main.account.id, 1, { online_status: 1 }))];
  const [spare, lone] = await seedFreshMembers(t, main.account.id, 2);
  const net = await seedNetwork(t, main.account.id, { center: c, point: p });
  const single = await seedNetwork(t, main.account.id, { center: [lone!] });
  return { main, c, p, spare: spare!, net, single };
}

const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) =>
  t.call(e, e.method === 'GET' ? { token, query: input } : { token, body: input });

/** Expects a refusal with its code and message, and no change to the network tables or the commands. */
async function refused(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, code: number, msg: string) {
  const before = { ...(await networkTables(t)), commands: await t.db.selectFrom('member_command').selectAll().orderBy('id').execute() };
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code, msg });
  expect({ ...(await networkTables(t)), commands: await t.db.selectFrom('member_command').selectAll().orderBy('id').execute() }).toEqual(before);
}

async function accepted(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, msg: string) {
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code: 200, msg });
  return res;
}

/** network_member rows of a network by member name. */
async function rowsOf(t: TestApp, networkId: number) {
  const rows = await t.db
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select(['m.router_name', 'nm.routing', 'nm.default_route', 'nm.metric', 'nm.quagga', 'nm.mode'])
    .where('nm.network_id', '=', networkId)
    .execute();
  return Object.fromEntries(rows.map(({ router_name, ...r }) => [router_name, r]));
}

/** network.changed events of a network, by change, after the events have settled. */
async function changesOf(t: TestApp, tenantId: number, networkId: number): Promise<string[]> {
  await t.ctx.events.settle();
  const rows = await t.db.selectFrom('event').select(['type', 'payload']).where('tenant_id', '=', tenantId).where('type', '=', 'network.changed').orderBy('id').execute();
  return rows.map((r) => JSON.parse(r.payload) as { network_id: number; change: string }).filter((p) => p.network_id === networkId).map((p) => p.change);
}

const commandsOf = (t: TestApp, networkId: number) =>
  t.db
    .selectFrom('member_command as mc')
    .innerJoin('member as m', 'm.id', 'mc.member_id')
    .select(['m.router_name', 'mc.kind', 'mc.state', 'mc.payload', 'mc.tenant_id'])
    .where('mc.network_id', '=', networkId)
    .orderBy('mc.id')
    .execute();

/** Every settings call on network `n` that succeeds for the tenant of tenantWith, with its success message. */
function callsOn(n: string, c: string[], p: string[]): [Endpoint, Record<string, unknown>, string][] {
  return [
    [editRouting, { network_number: n, type: 2, main_router: c[0], secondary_router: c[1] }, M.networkSetDone],
    [setDns, { network_number: n, dns: ['8.8.8.8'] }, M.saved],
    [setDefaultRoute, { network_number: n, router_name: p[0], model: 1, metric: 90 }, M.networkSetDone],
    [setCiphers, { network_number: n, ncp_ciphers: 'sm' }, M.modified],
    [setSoftwareMode, { network_number: n, router_name: p[0], mode: 2 }, M.networkSetDone],
    [setQuagga, { network_number: n, router_name: p[0], enable: 1 }, M.networkSetDone],
    [enableQuagga, { network_number: n }, M.networkSetDone],
    [disableQuagga, { network_number: n }, M.networkSetDone],
    [killUser, { network_number: n, router_name: p[1] }, M.networkCommandQueued],
    [resetRespawn, { network_number: n, router_name: p[1] }, M.networkCommandQueued],
    [resendConfig, { network_number: n }, M.networkConfigQueued],
  ];
}

describeEachDatabase('network settings: line main/backup', (t) => {
  let main: Main;
  let c: string[];
  let p: string[];
  let spare: string;
  let net: { id: number; network_number: string };
  let single: { id: number; network_number: string };

  beforeAll(async () => {
    ({ main, c, p, spare, net, single } = await tenantWith(t()));
  });

  it('answers dual primary by default, stores main-backup with its lines, and goes back to dual primary', async () => {
    const n = net.network_number;
    expect((await t().call(getRouting, { token: main.token, query: { network_number: n } })).data).toEqual({ type: 1, main_router: '', secondary_router: '' });

    await accepted(t(), main.token, editRouting, { network_number: n, type: 2, main_router: c[1]!.toUpperCase(), secondary_router: c[0] }, M.networkSetDone);
    expect((await t().call(getRouting, { token: main.token, query: { network_number: n } })).data).toEqual({ type: 2, main_router: c[1], secondary_router: c[0] });
    const rows = await rowsOf(t(), net.id);
    expect([rows[c[0]!]!.routing, rows[c[1]!]!.routing]).toEqual([2, 1]);
    const info = (await t().call(networkInfo, { token: main.token, query: { network_number: n } })).data!;
    expect(info.member.filter((m) => m.member_type === 'center').map((m) => [m.router_name, m.routing])).toEqual([
      [c[0], 2],
      [c[1], 1],
    ]);

    // The type as a form sends it, routers ignored in dual primary mode.
    await accepted(t(), main.token, editRouting, { network_number: n, type: '1', main_router: '', secondary_router: '' }, M.networkSetDone);
    expect((await t().call(getRouting, { token: main.token, query: { network_number: n } })).data).toEqual({ type: 1, main_router: '', secondary_router: '' });
    const after = await rowsOf(t(), net.id);
    expect([after[c[0]!]!.routing, after[c[1]!]!.routing]).toEqual([1, 1]);
    expect(await changesOf(t(), main.account.id, net.id)).toEqual(['settings', 'settings']);
  });

  it('refuses each rule with its message and changes nothing', async () => {
    const n = net.network_number;
    const tok = main.token;
    await refused(t(), tok, editRouting, { network_number: n, type: 3, main_router: c[0], secondary_router: c[1] }, CODE.invalid, M.networkRoutingTypeInvalid);
    await refused(t(), tok, editRouting, { network_number: n }, CODE.invalid, M.networkRoutingTypeInvalid);
    await refused(t(), tok, editRouting, { network_number: n, type: 2, secondary_router: c[1] }, CODE.invalid, M.networkRoutingMainRequired);
    await refused(t(), tok, editRouting, { network_number: n, type: 2, main_router: ' ', secondary_router: c[1] }, CODE.invalid, M.networkRoutingMainRequired);
    await refused(t(), tok, editRouting, { network_number: n, type: 2, main_router: c[0] }, CODE.invalid, M.networkRoutingBackupRequired);
    await refused(t(), tok, editRouting, { network_number: n, type: 2, main_router: c[0], secondary_router: c[0]!.toUpperCase() }, CODE.invalid, M.networkRoutingSame);
    await refused(t(), tok, editRouting, { network_number: n, type: 2, main_router: c[0], secondary_router: p[0] }, CODE.invalid, M.networkRoutingNotCenter);
    await refused(t(), tok, editRouting, { network_number: n, type: 2, main_router: spare, secondary_router: c[0] }, CODE.invalid, M.networkMemberNotIn);
    await refused(t(), tok, editRouting, { network_number: n, type: 2, main_router: 'nosuchmember', secondary_router: c[0] }, CODE.invalid, M.networkMemberNotIn);
    for (const type of [1, 2]) {
      await refused(t(), tok, editRouting, { network_number: single.network_number, type, main_router: c[0], secondary_router: c[1] }, CODE.invalid, M.networkRoutingCenters);
    }
  });
});

describeEachDatabase('network settings: main-backup with more than two centers', (t) => {
  it('makes every other center a backup line and answers the chosen backup until it leaves the centers', async () => {
    const main = await newAccount(t());
    const c = await seedFreshMembers(t(), main.account.id, 3);
    const [point] = await seedFreshMembers(t(), main.account.id, 1);
    const net = await seedNetwork(t(), main.account.id, { center: c, point: [point!] });
    const n = net.network_number;
    await accepted(t(), main.token, editRouting, { network_number: n, type: 2, main_router: c[2], secondary_router: c[1] }, M.networkSetDone);
    expect((await t().call(getRouting, { token: main.token, query: { network_number: n } })).data).toEqual({ type: 2, main_router: c[2], secondary_router: c[1] });
    const rows = await rowsOf(t(), net.id);
    expect(c.map((name) => rows[name]!.routing)).toEqual([2, 2, 1]);
    expect(rows[point!]!.routing).toBe(1);

    await t().db.updateTable('network_member').set({ member_type: 'point' }).where('network_id', '=', net.id).where('routing', '=', 2).execute();
    expect((await t().call(getRouting, { token: main.token, query: { network_number: n } })).data).toEqual({ type: 2, main_router: c[2], secondary_router: '' });
  });
});

describeEachDatabase('network settings: centers that join a main-backup network', (t) => {
  it('join as backup lines, by add_member and by the manage-members page; in dual primary mode as main lines', async () => {
    const main = await newAccount(t());
    await t().db.updateTable('account').set({ network_center_count: 5 }).where('id', '=', main.account.id).execute();
    const c = await seedFreshMembers(t(), main.account.id, 5);
    const net = await seedNetwork(t(), main.account.id, { center: [c[0]!, c[1]!], point: [c[3]!] });
    const n = net.network_number;
    await accepted(t(), main.token, editRouting, { network_number: n, type: 2, main_router: c[0], secondary_router: c[1] }, M.networkSetDone);
    await accepted(t(), main.token, addNetworkMember, { network_number: n, router_name: c[2], member_type: 'center' }, M.saved);
    await accepted(t(), main.token, editNetwork, { network_number: n, network_name: '主备', center: [c[0], c[1], c[2], c[3]], point: [] }, M.saved);
    const rows = await rowsOf(t(), net.id);
    expect(c.slice(0, 4).map((name) => rows[name]!.routing)).toEqual([1, 2, 2, 2]);
    expect((await t().call(getRouting, { token: main.token, query: { network_number: n } })).data).toEqual({ type: 2, main_router: c[0], secondary_router: c[1] });

    await accepted(t(), main.token, editRouting, { network_number: n, type: 1 }, M.networkSetDone);
    await accepted(t(), main.token, addNetworkMember, { network_number: n, router_name: c[4], member_type: 'center' }, M.saved);
    expect((await rowsOf(t(), net.id))[c[4]!]!.routing).toBe(1);
  });
});

describeEachDatabase('network settings: form-encoded bodies (spec 2 §7)', (t) => {
  const postForm = (token: string, payload: string) =>
    t().app.inject({
      method: 'POST',
      url: `/api/v1${setDns.path}`,
      payload,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('reads dns[i] as the list, with the same rules as JSON', async () => {
    const { main, net } = await tenantWith(t());
    const res = await postForm(main.token, `network_number=${net.network_number}&dns%5B0%5D=8.8.8.8&dns%5B1%5D=114.114.114.114`);
    expect(res.json<unknown>()).toEqual({ code: CODE.ok, msg: M.saved, data: null });
    const info = await t().call(networkInfo, { token: main.token, query: { network_number: net.network_number } });
    expect(info.data!.network_dns).toEqual(['8.8.8.8', '114.114.114.114']);

    const before = await networkTables(t());
    const repeated = await postForm(main.token, `network_number=${net.network_number}&dns[0]=1.1.1.1&dns[1]=1.1.1.1`);
    expect(repeated.json<unknown>()).toMatchObject({ code: CODE.invalid, msg: M.networkDnsRepeat });
    expect(await networkTables(t())).toEqual(before);
  });

  it('answers a form past its bounds or shaped to pollute prototypes in the envelope, changing nothing', async () => {
    const { main, net } = await tenantWith(t());
    const before = await networkTables(t());
    for (const payload of [
      `network_number=${net.network_number}&dns[500]=8.8.8.8`,
      `network_number=${net.network_number}&dns[0][a][b][c]=1`,
      `network_number=${net.network_number}&__proto__[dns]=8.8.8.8&constructor[prototype][x]=1`,
      Array.from({ length: 2000 }, (_, i) => `f${i}=1`).join('&'),
      '%E0%A4%A',
    ]) {
      const res = await postForm(main.token, payload);
      expect(res.statusCode).not.toBe(500);
      expect(res.json<{ code: number }>().code).toBe(CODE.invalid);
    }
    expect(({} as Record<string, unknown>).dns).toBeUndefined();
    expect(await networkTables(t())).toEqual(before);
  });
});

describeEachDatabase('network settings: DNS, ciphers, dial mode', (t) => {
  let main: Main;
  let c: string[];
  let p: string[];
  let spare: string;
  let net: { id: number; network_number: string };

  beforeAll(async () => {
    ({ main, c, p, spare, net } = await tenantWith(t()));
  });

  const dnsOf = async () => (await t().call(networkInfo, { token: main.token, query: { network_number: net.network_number } })).data!.network_dns;

  it('stores the DNS list up to the plan, and clears it', async () => {
    const n = net.network_number;
    await accepted(t(), main.token, setDns, { network_number: n, dns: [' 8.8.8.8 ', '114.114.114.114'] }, M.saved);
    expect(await dnsOf()).toEqual(['8.8.8.8', '114.114.114.114']);
    await refused(t(), main.token, setDns, { network_number: n, dns: ['1.1.1.1', '2.2.2.2', '3.3.3.3'] }, CODE.invalid, fmt(M.networkDnsLimit, { n: 2 }));
    expect(fmt(M.networkDnsLimit, { n: 2 })).toBe('DNS仅支持 2 个');
    await t().db.updateTable('account').set({ dns_quantity: 3 }).where('id', '=', main.account.id).execute();
    await accepted(t(), main.token, setDns, { network_number: n, dns: ['1.1.1.1', '2.2.2.2', '223.5.5.5'] }, M.saved);
    expect(await dnsOf()).toEqual(['1.1.1.1', '2.2.2.2', '223.5.5.5']);
    await accepted(t(), main.token, setDns, { network_number: n, dns: [] }, M.saved);
    expect(await dnsOf()).toEqual([]);
    expect(await changesOf(t(), main.account.id, net.id)).toEqual(['settings', 'settings', 'settings']);
  });

  it('refuses each DNS rule with its message', async () => {
    const n = net.network_number;
    const tok = main.token;
    for (const row of ['', '  ']) await refused(t(), tok, setDns, { network_number: n, dns: ['8.8.8.8', row] }, CODE.invalid, M.networkDnsRequired);
    for (const row of ['0.1.2.3', '256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.04', 'a.b.c.d', '8.8.8.8/24']) {
      await refused(t(), tok, setDns, { network_number: n, dns: [row] }, CODE.invalid, M.networkDnsInvalid);
    }
    await refused(t(), tok, setDns, { network_number: n, dns: ['8.8.8.8', ' 8.8.8.8'] }, CODE.invalid, M.networkDnsRepeat);
    await refused(t(), tok, setDns, { network_number: n, dns: '8.8.8.8' }, CODE.invalid, M.networkDnsRequired);
    await refused(t(), tok, setDns, { network_number: n, dns: Array.from({ length: 40 }, (_, i) => `10.0.0.${i + 1}`) }, CODE.invalid, 'DNS仅支持 32 个');
  });

  it('sets the ciphers and a member’s dial mode', async () => {
    const n = net.network_number;
    await accepted(t(), main.token, setCiphers, { network_number: n, ncp_ciphers: 'sm' }, M.modified);
    expect((await t().call(networkInfo, { token: main.token, query: { network_number: n } })).data!.ncp_ciphers).toBe('sm');
    await refused(t(), main.token, setCiphers, { network_number: n, ncp_ciphers: 'aes' }, CODE.invalid, M.networkCiphersInvalid);
    await accepted(t(), main.token, setCiphers, { network_number: n, ncp_ciphers: 'default' }, M.modified);

    await accepted(t(), main.token, setSoftwareMode, { network_number: n, router_name: p[0], mode: 3 }, M.networkSetDone);
    expect((await rowsOf(t(), net.id))[p[0]!]!.mode).toBe(3);
    const info = (await t().call(networkInfo, { token: main.token, query: { network_number: n } })).data!;
    expect(info.member.find((m) => m.router_name === p[0])!.mode).toBe(3);
    expect(info.member.find((m) => m.router_name === c[0])!.mode).toBe(1);
    for (const mode of [0, 4, 'x', 1.5]) {
      await refused(t(), main.token, setSoftwareMode, { network_number: n, router_name: p[0], mode }, CODE.invalid, M.networkDialModeInvalid);
    }
    await refused(t(), main.token, setSoftwareMode, { network_number: n, router_name: spare, mode: 2 }, CODE.invalid, M.networkMemberNotIn);
  });
});

describeEachDatabase('network settings: default route and dynamic routing need their flags', (t) => {
  it('refuses them without the account’s flags, changing nothing', async () => {
    const { main, p, net } = await tenantWith(t(), { auth_quagga: 0, auth_default_route: 0 });
    const n = net.network_number;
    await refused(t(), main.token, setDefaultRoute, { network_number: n, router_name: p[0], model: 2 }, CODE.forbidden, M.networkRouteNotOpen);
    await refused(t(), main.token, setQuagga, { network_number: n, router_name: p[0], enable: 1 }, CODE.forbidden, M.networkQuaggaNotOpen);
    await refused(t(), main.token, enableQuagga, { network_number: n }, CODE.forbidden, M.networkQuaggaNotOpen);
    await refused(t(), main.token, disableQuagga, { network_number: n }, CODE.forbidden, M.networkQuaggaNotOpen);
    expect(await changesOf(t(), main.account.id, net.id)).toEqual([]);
  });

  it('sets a member’s default route, its metric only when it advertises', async () => {
    const { main, c, p, spare, net } = await tenantWith(t());
    const n = net.network_number;
    await accepted(t(), main.token, setDefaultRoute, { network_number: n, router_name: p[0], model: 1, metric: '60' }, M.networkSetDone);
    expect((await rowsOf(t(), net.id))[p[0]!]).toMatchObject({ default_route: 1, metric: 60 });
    await accepted(t(), main.token, setDefaultRoute, { network_number: n, router_name: p[0], model: 2, metric: 'ignored' }, M.networkSetDone);
    expect((await rowsOf(t(), net.id))[p[0]!]).toMatchObject({ default_route: 2, metric: 60 });
    await accepted(t(), main.token, setDefaultRoute, { network_number: n, router_name: c[0], model: 1, metric: 150 }, M.networkSetDone);
    const info = (await t().call(networkInfo, { token: main.token, query: { network_number: n } })).data!;
    expect(info.member.find((m) => m.router_name === c[0])).toMatchObject({ default_route: 1, metric: 150 });
    await accepted(t(), main.token, setDefaultRoute, { network_number: n, router_name: c[0], model: 0 }, M.networkSetDone);
    expect((await rowsOf(t(), net.id))[c[0]!]).toMatchObject({ default_route: 0, metric: 150 });

    for (const metric of [undefined, 45, 0, '30a', 180]) {
      await refused(t(), main.token, setDefaultRoute, { network_number: n, router_name: p[0], model: 1, metric }, CODE.invalid, M.networkRouteMetricInvalid);
    }
    for (const model of [3, -1, 'on', undefined]) {
      await refused(t(), main.token, setDefaultRoute, { network_number: n, router_name: p[0], model }, CODE.invalid, M.networkRouteModelInvalid);
    }
    await refused(t(), main.token, setDefaultRoute, { network_number: n, router_name: spare, model: 2 }, CODE.invalid, M.networkMemberNotIn);
    expect(await changesOf(t(), main.account.id, net.id)).toEqual(['settings', 'settings', 'settings', 'settings']);
  });

  it('refuses a priority another member of the network advertises with, naming it; the member’s own is fine', async () => {
    const { main, c, p, net, single } = await tenantWith(t());
    const n = net.network_number;
    const route = (router_name: string, model: number, metric?: number) => ({ network_number: n, router_name, model, metric });
    const taken = (metric: number, name: string) => fmt(M.networkRoutePriorityTaken, { n: LIMITS.defaultRouteMetrics.indexOf(metric as 30) + 1, name });
    await accepted(t(), main.token, setDefaultRoute, route(p[0]!, 1, 60), M.networkSetDone);
    await refused(t(), main.token, setDefaultRoute, route(c[0]!, 1, 60), CODE.invalid, taken(60, p[0]!));
    await accepted(t(), main.token, setDefaultRoute, route(c[0]!, 1, 90), M.networkSetDone);
    // Saved again with its own priority, or moved to a free one.
    await accepted(t(), main.token, setDefaultRoute, route(p[0]!, 1, 60), M.networkSetDone);
    await refused(t(), main.token, setDefaultRoute, route(p[0]!.toUpperCase(), 1, 90), CODE.invalid, taken(90, c[0]!));
    await accepted(t(), main.token, setDefaultRoute, route(p[0]!, 1, 30), M.networkSetDone);
    // A receiver or a member turned off keeps its metric but holds no priority.
    await accepted(t(), main.token, setDefaultRoute, route(p[0]!, 2), M.networkSetDone);
    await accepted(t(), main.token, setDefaultRoute, route(c[0]!, 0), M.networkSetDone);
    await accepted(t(), main.token, setDefaultRoute, route(c[1]!, 1, 30), M.networkSetDone);
    await accepted(t(), main.token, setDefaultRoute, route(p[1]!, 1, 90), M.networkSetDone);
    // Another network's advertisers are not this one's.
    const [lone] = (await t().db.selectFrom('network_member as nm').innerJoin('member as m', 'm.id', 'nm.member_id').select('m.router_name').where('nm.network_id', '=', single.id).execute()).map((r) => r.router_name);
    await accepted(t(), main.token, setDefaultRoute, { network_number: single.network_number, router_name: lone, model: 1, metric: 30 }, M.networkSetDone);
    expect(await rowsOf(t(), net.id)).toMatchObject({
      [p[0]!]: { default_route: 2, metric: 30 },
      [c[0]!]: { default_route: 0, metric: 90 },
      [c[1]!]: { default_route: 1, metric: 30 },
      [p[1]!]: { default_route: 1, metric: 90 },
    });

    // Two advertisers of one priority from before the rule: each may be saved as it is, neither may take another's.
    await t().db.updateTable('network_member').set({ default_route: 1, metric: 30 }).where('network_id', '=', net.id).execute();
    await accepted(t(), main.token, setDefaultRoute, route(c[1]!, 1, 30), M.networkSetDone);
    await accepted(t(), main.token, setDefaultRoute, route(c[1]!, 1, 150), M.networkSetDone);
    await refused(t(), main.token, setDefaultRoute, route(p[0]!, 1, 150), CODE.invalid, taken(150, c[1]!));
  });

  it('turns one member’s dynamic routing on and off, and every member’s at once', async () => {
    const { main, c, p, spare, net, single } = await tenantWith(t());
    const n = net.network_number;
    const quagga = async () => Object.fromEntries(Object.entries(await rowsOf(t(), net.id)).map(([k, v]) => [k, v.quagga]));
    await accepted(t(), main.token, setQuagga, { network_number: n, router_name: p[1], enable: 1 }, M.networkSetDone);
    expect(await quagga()).toEqual({ [c[0]!]: 0, [c[1]!]: 0, [p[0]!]: 0, [p[1]!]: 1 });
    await accepted(t(), main.token, enableQuagga, { network_number: n }, M.networkSetDone);
    expect(await quagga()).toEqual({ [c[0]!]: 1, [c[1]!]: 1, [p[0]!]: 1, [p[1]!]: 1 });
    // The other network is untouched.
    expect(Object.values(await rowsOf(t(), single.id)).map((r) => r.quagga)).toEqual([0]);
    await accepted(t(), main.token, setQuagga, { network_number: n, router_name: c[0], enable: '0' }, M.networkSetDone);
    expect((await quagga())[c[0]!]).toBe(0);
    await accepted(t(), main.token, disableQuagga, { network_number: n }, M.networkSetDone);
    expect(await quagga()).toEqual({ [c[0]!]: 0, [c[1]!]: 0, [p[0]!]: 0, [p[1]!]: 0 });
    for (const enable of [2, -1, 'yes', undefined]) {
      await refused(t(), main.token, setQuagga, { network_number: n, router_name: p[0], enable }, CODE.invalid, M.networkQuaggaInvalid);
    }
    await refused(t(), main.token, setQuagga, { network_number: n, router_name: spare, enable: 1 }, CODE.invalid, M.networkMemberNotIn);
    expect(await changesOf(t(), main.account.id, net.id)).toEqual(['settings', 'settings', 'settings', 'settings']);
  });
});

describeEachDatabase('network settings: member commands', (t) => {
  it('queues kick offline and restart for an online member once, and refuses an offline one', async () => {
    const { main, p, spare, net } = await tenantWith(t());
    const n = net.network_number;
    await refused(t(), main.token, killUser, { network_number: n, router_name: p[0] }, CODE.invalid, M.networkMemberOffline);
    await refused(t(), main.token, resetRespawn, { network_number: n, router_name: p[0] }, CODE.invalid, M.networkMemberOffline);
    await refused(t(), main.token, killUser, { network_number: n, router_name: spare }, CODE.invalid, M.networkMemberNotIn);

    await accepted(t(), main.token, killUser, { network_number: n, router_name: p[1]!.toUpperCase() }, M.networkCommandQueued);
    await accepted(t(), main.token, killUser, { network_number: n, router_name: p[1] }, M.networkCommandQueued);
    await accepted(t(), main.token, resetRespawn, { network_number: n, router_name: p[1] }, M.networkCommandQueued);
    const tenant_id = main.account.id;
    expect(await commandsOf(t(), net.id)).toEqual([
      { router_name: p[1], kind: 'kill', state: 'queued', payload: '{}', tenant_id },
      { router_name: p[1], kind: 'restart', state: 'queued', payload: '{}', tenant_id },
    ]);
    // A command is no settings change.
    expect(await changesOf(t(), main.account.id, net.id)).toEqual([]);
    await t().ctx.events.settle();
    const queued = await t().db.selectFrom('event').select('payload').where('tenant_id', '=', tenant_id).where('type', '=', 'member.command_queued').execute();
    expect(queued.map((e) => (JSON.parse(e.payload) as { kind: string }).kind)).toEqual(['kill', 'restart']);
  });

  it('queues the config for one member, or for every member of the network', async () => {
    const { main, c, p, spare, net } = await tenantWith(t());
    const n = net.network_number;
    const payload = JSON.stringify({ network_number: n });
    await accepted(t(), main.token, resendConfig, { network_number: n, router_name: p[0] }, M.networkConfigQueued);
    expect(await commandsOf(t(), net.id)).toEqual([{ router_name: p[0], kind: 'resend_config', state: 'queued', payload, tenant_id: main.account.id }]);
    await accepted(t(), main.token, resendConfig, { network_number: n }, M.networkConfigQueued);
    expect((await commandsOf(t(), net.id)).map((r) => [r.router_name, r.kind])).toEqual([
      [p[0], 'resend_config'],
      [c[0], 'resend_config'],
      [c[1], 'resend_config'],
      [p[1], 'resend_config'],
    ]);
    await refused(t(), main.token, resendConfig, { network_number: n, router_name: spare }, CODE.invalid, M.networkMemberNotIn);
  });
});

const role = (network: Partial<RoleAuth['easylink.network']>): RoleAuth => ({
  ...FULL_ROLE,
  'easylink.network': { create: 0, edit: 0, delete: 0, network: [], ...network },
});

describeEachDatabase('network settings: who may change them', (t) => {
  let main: Main;
  let c: string[];
  let p: string[];
  let net: { id: number; network_number: string };
  let single: { id: number; network_number: string };

  beforeAll(async () => {
    ({ main, c, p, net, single } = await tenantWith(t()));
  });

  it('lets a sub-account without the edit right read the routing and change nothing', async () => {
    const token = await ramToken(t(), main.account.id, role({ create: 1, delete: 1 }));
    expect(await send(t(), getRouting, token, { network_number: net.network_number })).toMatchObject({ code: 200 });
    for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), token, e, input, CODE.forbidden, M.deniedPermission);
  });

  it('refuses a role limited to other networks, and lets a sub-account with the edit right on this one change it', async () => {
    const other = await ramToken(t(), main.account.id, role({ edit: 1, network: [single.network_number] }));
    await refused(t(), other, getRouting, { network_number: net.network_number }, CODE.forbidden, M.deniedNetwork);
    for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), other, e, input, CODE.forbidden, M.deniedNetwork);

    const editor = await ramToken(t(), main.account.id, role({ edit: 1, network: [net.network_number] }));
    for (const [e, input, msg] of callsOn(net.network_number, c, p)) await accepted(t(), editor, e, input, msg);
  });

  it("answers another tenant as if the network did not exist", async () => {
    const b = await newAccount(t());
    await t().db.updateTable('account').set({ auth_quagga: 1, auth_default_route: 1 }).where('id', '=', b.account.id).execute();
    await refused(t(), b.token, getRouting, { network_number: net.network_number }, CODE.notFound, M.networkNotFound);
    for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), b.token, e, input, CODE.notFound, M.networkNotFound);
  });

  it('refuses every change while the network is disabled, and reads it all the same', async () => {
    await t().db.updateTable('account').set({ network_router_count: 2 }).where('id', '=', main.account.id).execute();
    try {
      expect(await send(t(), getRouting, main.token, { network_number: net.network_number })).toMatchObject({ code: 200 });
      const before = await changesOf(t(), main.account.id, net.id);
      for (const [e, input] of callsOn(net.network_number, c, p)) await refused(t(), main.token, e, input, CODE.invalid, M.networkSettingsDisabled);
      expect(await changesOf(t(), main.account.id, net.id)).toEqual(before);
    } finally {
      await t().db.updateTable('account').set({ network_router_count: 10 }).where('id', '=', main.account.id).execute();
    }
  });
});
