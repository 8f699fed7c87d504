import {
  addNetworkMember,
  CODE,
  compareNetworkVersions,
  deleteRouter,
  editCenterGateway,
  editNetwork,
  editPrefix,
  fmt,
  getNetworkVersion,
  getPrefix,
  listNetworkVersions,
  M,
  networkInfo,
  removeNetworkMember,
  rollbackNetwork,
  setDefaultRoute,
  setDns,
  setQuagga,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { createNetworkThroughApi, networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';

type Main = Awaited<ReturnType<typeof newAccount>>;

const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) =>
  t.call(e, e.method === 'GET' ? { token, query: input } : { token, body: input });

async function ok(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>) {
  const res = await send(t, e, token, input);
  expect({ path: e.path, code: res.code, msg: res.msg }).toMatchObject({ path: e.path, code: 200 });
  return res;
}

const versions = async (t: TestApp, token: string, network_number: string) =>
  (await t.call(listNetworkVersions, { token, query: { network_number, limit: 100 } })).data!.map((v) => ({ version: v.version, who: v.who, summary: v.summary }));

/** What a refused rollback must leave as it was: the network tables and the versions. */
const state = async (t: TestApp) => ({ ...(await networkTables(t)), versions: await t.db.selectFrom('network_version').selectAll().orderBy('id').execute() });

/** A tenant with the dynamic-routing flag, two centers, two points and a spare member, and a network of them made through the API (version 1). */
async function tenantWith(t: TestApp) {
  const main = await newAccount(t);
  await t.db.updateTable('account').set({ auth_quagga: 1, auth_default_route: 1 }).where('id', '=', main.account.id).execute();
  const [c1, c2, p1, p2, spare] = (await seedFreshMembers(t, main.account.id, 5)) as [string, string, string, string, string];
  const number = await createNetworkThroughApi(t, main.token, { network_name: '历史网络', center: [c1, c2], point: [p1, p2] });
  const net = await t.db.selectFrom('network').select('id').where('network_number', '=', number).executeTakeFirstOrThrow();
  return { main, c1, c2, p1, p2, spare, number, id: net.id };
}

describeEachDatabase('network configuration history', (t) => {
  let s: Awaited<ReturnType<typeof tenantWith>>;
  let main: Main;
  let who: string;

  beforeAll(async () => {
    s = await tenantWith(t());
    main = s.main;
    who = fmt(M.histWhoMain, { name: main.username });
  });

  it('writes a version for each change of settings or membership, none for a no-op', async () => {
    const n = s.number;
    expect(await versions(t(), main.token, n)).toEqual([{ version: 1, who, summary: M.histCreated }]);
    await ok(t(), main.token, setDns, { network_number: n, dns: ['8.8.8.8'] });
    await ok(t(), main.token, setDns, { network_number: n, dns: ['8.8.8.8'] });
    await ok(t(), main.token, addNetworkMember, { network_number: n, router_name: s.spare, member_type: 'point' });
    await ok(t(), main.token, editNetwork, { network_number: n, network_name: '历史网络', center: [s.c1, s.p2], point: [s.c2, s.p1, s.spare] });
    await ok(t(), main.token, removeNetworkMember, { network_number: n, router_name: s.spare });
    await ok(t(), main.token, setQuagga, { network_number: n, router_name: s.c1, enable: 1 });
    await ok(t(), main.token, setQuagga, { network_number: n, router_name: s.c1, enable: 1 });
    expect(await versions(t(), main.token, n)).toEqual([
      { version: 6, who, summary: fmt(M.histMembersChanged, { names: s.c1 }) },
      { version: 5, who, summary: fmt(M.histMembersRemoved, { names: s.spare }) },
      { version: 4, who, summary: fmt(M.histMembersChanged, { names: `${s.c2}、${s.p2}` }) },
      { version: 3, who, summary: fmt(M.histMembersAdded, { names: s.spare }) },
      { version: 2, who, summary: M.histFieldDns },
      { version: 1, who, summary: M.histCreated },
    ]);
    const page = await t().call(listNetworkVersions, { token: main.token, query: { network_number: n, page: 2, limit: 4 } });
    expect({ count: page.count, versions: page.data!.map((v) => v.version) }).toEqual({ count: 6, versions: [2, 1] });
  });

  it('shows a version and compares two field by field', async () => {
    const v2 = await ok(t(), main.token, getNetworkVersion, { network_number: s.number, version: 2 });
    expect(v2.data).toMatchObject({ version: 2, who_kind: 'main', snapshot: { network_name: '历史网络', dns: ['8.8.8.8'] } });
    const diff = (await ok(t(), main.token, compareNetworkVersions, { network_number: s.number, a: 1, b: 4 })).data as {
      rows: { key: string; a: string; b: string; changed: boolean }[];
      members: unknown;
    };
    expect(diff.members).toEqual({ added: [s.spare], removed: [], changed: [s.c2, s.p2] });
    const row = (key: string) => diff.rows.find((r) => r.key === key);
    expect(row('network.dns')).toMatchObject({ a: '', b: '8.8.8.8', changed: true });
    expect(row('network.network_name')).toMatchObject({ a: '历史网络', b: '历史网络', changed: false });
    expect(row(`member.${s.p2}.member_type`)).toMatchObject({ a: 'point', b: 'center', changed: true });
    expect(row(`member.${s.spare}`)).toMatchObject({ a: M.histMemberAbsent, b: 'point', changed: true });
    // 0 is the network as it is now: the same as the latest version.
    const now = (await ok(t(), main.token, compareNetworkVersions, { network_number: s.number, a: 6, b: 0 })).data as { rows: { changed: boolean }[] };
    expect(now.rows.filter((r) => r.changed)).toEqual([]);
    const missing = await t().call(getNetworkVersion, { token: main.token, query: { network_number: s.number, version: 99 } });
    expect([missing.code, missing.msg]).toEqual([CODE.notFound, M.histVersionNotFound]);
  });

  it('rolls back settings and membership through the services, as a new version, and the compiler runs', async () => {
    const n = s.number;
    await ok(t(), main.token, setDns, { network_number: n, dns: ['1.1.1.1', '1.0.0.1'] });
    await t().ctx.events.settle();
    const configsBefore = await t().db.selectFrom('member_config').select(['member_id', 'version']).where('network_id', '=', s.id).orderBy('member_id').execute();
    const res = await ok(t(), main.token, rollbackNetwork, { network_number: n, version: 2 });
    expect([res.msg, res.data]).toEqual([fmt(M.histRollbackDone, { n: 2 }), { version: 8 }]);
    const info = (await t().call(networkInfo, { token: main.token, query: { network_number: n } })).data!;
    expect(info.network_dns).toEqual(['8.8.8.8']);
    expect(Object.fromEntries(info.member.map((m) => [m.router_name, [m.member_type, m.quagga]]))).toEqual({
      [s.c1]: ['center', 0],
      [s.c2]: ['center', 0],
      [s.p1]: ['point', 0],
      [s.p2]: ['point', 0],
    });
    expect((await versions(t(), main.token, n))[0]).toEqual({ version: 8, who, summary: fmt(M.histRollbackTo, { n: 2 }) });
    const diff = (await ok(t(), main.token, compareNetworkVersions, { network_number: n, a: 2, b: 8 })).data as { rows: { changed: boolean }[] };
    expect(diff.rows.filter((r) => r.changed)).toEqual([]);
    await t().ctx.events.settle();
    const configsAfter = await t().db.selectFrom('member_config').select(['member_id', 'version']).where('network_id', '=', s.id).orderBy('member_id').execute();
    expect(configsAfter.length).toBe(4);
    expect(configsAfter).not.toEqual(configsBefore);
    // Rolling back to what the network is already is refused.
    const same = await t().call(rollbackNetwork, { token: main.token, body: { network_number: n, version: 8 } });
    expect([same.code, same.msg]).toEqual([CODE.invalid, fmt(M.histRollbackSame, { n: 8 })]);
  });

  it('refuses a rollback the lowered quota no longer allows, changing nothing', async () => {
    // Version 3 had the spare member in the network; the spare is in no network now.
    const use = (await t().db.selectFrom('account').select('network_router_use').where('id', '=', main.account.id).executeTakeFirstOrThrow()).network_router_use;
    await t().db.updateTable('account').set({ network_router_count: use }).where('id', '=', main.account.id).execute();
    try {
      const before = await state(t());
      const res = await t().call(rollbackNetwork, { token: main.token, body: { network_number: s.number, version: 3 } });
      expect([res.code, res.msg]).toEqual([CODE.invalid, fmt(M.histRollbackRefused, { n: 3, reason: fmt(M.networkQuotaFull, { n: use }) })]);
      expect(await state(t())).toEqual(before);
    } finally {
      await t().db.updateTable('account').set({ network_router_count: 100 }).where('id', '=', main.account.id).execute();
    }
  });

  it('refuses a rollback to a version whose member was deleted since, changing nothing', async () => {
    await ok(t(), main.token, deleteRouter, { router_name: s.spare });
    const before = await state(t());
    const res = await t().call(rollbackNetwork, { token: main.token, body: { network_number: s.number, version: 3 } });
    expect([res.code, res.msg]).toEqual([CODE.invalid, fmt(M.histRollbackRefused, { n: 3, reason: fmt(M.networkMemberMissing, { name: s.spare }) })]);
    expect(await state(t())).toEqual(before);
  });

  it('writes a version, by the system, in every network a deleted member was in', async () => {
    const [c, p] = (await seedFreshMembers(t(), main.account.id, 2)) as [string, string];
    const one = await createNetworkThroughApi(t(), main.token, { network_name: '删除成员', center: [c], point: [p] });
    const two = await createNetworkThroughApi(t(), main.token, { network_name: '删除成员二', center: [c], point: [p] });
    await ok(t(), main.token, deleteRouter, { router_name: p });
    await t().ctx.events.settle();
    for (const n of [one, two]) {
      expect(await versions(t(), main.token, n)).toEqual([
        { version: 2, who: M.histWhoSystem, summary: fmt(M.histMembersRemoved, { names: p }) },
        { version: 1, who, summary: M.histCreated },
      ]);
    }
  });

  it('starts the history of a network made before it was kept with its configuration as it was', async () => {
    const [c] = await seedFreshMembers(t(), main.account.id, 1);
    const old = await seedNetwork(t(), main.account.id, { center: [c!], name: '旧网络' });
    await ok(t(), main.token, setDns, { network_number: old.network_number, dns: ['9.9.9.9'] });
    expect(await versions(t(), main.token, old.network_number)).toEqual([
      { version: 2, who, summary: M.histFieldDns },
      { version: 1, who: M.histWhoSystem, summary: M.histBaseline },
    ]);
    await ok(t(), main.token, rollbackNetwork, { network_number: old.network_number, version: 1 });
    expect((await t().call(networkInfo, { token: main.token, query: { network_number: old.network_number } })).data!.network_dns).toEqual([]);
  });

  it('names a sub-account as the author; keeps other tenants and networks outside a role out', async () => {
    const ram = await newRamAccount(t(), main.account.id, { auth: FULL_ROLE });
    const ramToken = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    await ok(t(), ramToken, setDns, { network_number: s.number, dns: ['4.4.4.4'] });
    expect((await versions(t(), main.token, s.number))[0]).toMatchObject({ who: fmt(M.histWhoRam, { name: ram.username }), summary: M.histFieldDns });

    const historyCalls = [
      [listNetworkVersions, { network_number: s.number }],
      [getNetworkVersion, { network_number: s.number, version: 1 }],
      [compareNetworkVersions, { network_number: s.number, a: 1, b: 2 }],
      [rollbackNetwork, { network_number: s.number, version: 1 }],
    ] as const;
    const everyCallRefuses = async (token: string, code: number) => {
      for (const [e, input] of historyCalls) {
        const res = await send(t(), e, token, input);
        expect({ path: e.path, code: res.code }).toEqual({ path: e.path, code });
      }
    };

    const other = await newAccount(t());
    const before = await state(t());
    await everyCallRefuses(other.token, CODE.notFound);

    const limited = await newRamAccount(t(), main.account.id, { auth: { ...FULL_ROLE, 'easylink.network': { create: 0, edit: 1, delete: 1, network: ['NOTHERNET01'] } } });
    const limitedToken = (await signIn(t(), limited.login, limited.password, { ram: true })).data!.access_token;
    await everyCallRefuses(limitedToken, CODE.forbidden);
    expect(await state(t())).toEqual(before);
  });
});

describeEachDatabase('network configuration history: rollbacks across the rules that keep settings apart', (t) => {
  const latest = async (t: TestApp, token: string, n: string) => (await versions(t, token, n))[0]!.version;

  it('swaps two advertisers’ priorities back', async () => {
    const s = await tenantWith(t());
    const route = (router_name: string, metric: number) => ({ network_number: s.number, router_name, model: 1, metric });
    await ok(t(), s.main.token, setDefaultRoute, route(s.p1, 30));
    await ok(t(), s.main.token, setDefaultRoute, route(s.p2, 60));
    const before = await latest(t(), s.main.token, s.number);
    await ok(t(), s.main.token, setDefaultRoute, route(s.p1, 90));
    await ok(t(), s.main.token, setDefaultRoute, route(s.p2, 30));
    await ok(t(), s.main.token, setDefaultRoute, route(s.p1, 60));
    await ok(t(), s.main.token, rollbackNetwork, { network_number: s.number, version: before });
    const info = (await t().call(networkInfo, { token: s.main.token, query: { network_number: s.number } })).data!;
    expect(info.member.filter((m) => m.default_route === 1).map((m) => [m.router_name, m.metric])).toEqual([
      [s.p1, 30],
      [s.p2, 60],
    ]);
  });

  it('puts a center’s segment back where a route prefix is now', async () => {
    const s = await tenantWith(t());
    const center = (router: string, software: string) => ({
      network_number: s.number,
      router_name: s.c1,
      router_network: { gateway: router, mask: 24 },
      software_network: { gateway: software, mask: 24 },
    });
    await ok(t(), s.main.token, editCenterGateway, center('10.1.0.0', '10.2.0.0'));
    const before = await latest(t(), s.main.token, s.number);
    await ok(t(), s.main.token, editCenterGateway, center('10.5.0.0', '10.6.0.0'));
    await ok(t(), s.main.token, editPrefix, { network_number: s.number, prefix: [{ ip: '10.1.0.0', mask: 16, name: s.p1 }] });
    await ok(t(), s.main.token, rollbackNetwork, { network_number: s.number, version: before });
    const info = (await t().call(networkInfo, { token: s.main.token, query: { network_number: s.number } })).data!;
    expect(info.member.find((m) => m.router_name === s.c1)!.gateway.router).toMatchObject({ gateway: '10.1.0.0', mask: 24 });
    expect((await t().call(getPrefix, { token: s.main.token, query: { network_number: s.number } })).data).toEqual([]);
    // And forward again: the prefix comes back after the segment has moved out of its way.
    await ok(t(), s.main.token, rollbackNetwork, { network_number: s.number, version: before + 2 });
    expect((await t().call(getPrefix, { token: s.main.token, query: { network_number: s.number } })).data!.map((r) => `${r.ip}/${r.mask}`)).toEqual(['10.1.0.0/16']);
  });
});
