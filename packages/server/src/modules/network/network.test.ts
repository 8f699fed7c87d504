import {
  addNetworkMember,
  CODE,
  createNetwork,
  deleteNetwork,
  editNetwork,
  fmt,
  LIMITS,
  listNetworks,
  M,
  networkConfig,
  networkInfo,
  networkMembers,
  networkStatus,
  removeNetworkMember,
  renameNetwork,
  ROUTER_TYPE,
  selectNetworks,
  type Endpoint,
  type NetworkMember,
} from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { createNetworkThroughApi, networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';

type Main = Awaited<ReturnType<typeof newAccount>>;
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const NUMBER = /^N[A-Z2-7]{11}$/;

/** A tenant with hardware members h[] and software members s[]. */
async function tenantWith(t: TestApp, hardware = 4, software = 2) {
  const main = await newAccount(t);
  const h = await seedFreshMembers(t, main.account.id, hardware);
  const s = await seedFreshMembers(t, main.account.id, software, { router_type: ROUTER_TYPE.software });
  return { main, h, s };
}

const member = (router_name: string, member_type: 'center' | 'point', router_type: number = ROUTER_TYPE.hardware, over: Partial<NetworkMember> = {}): NetworkMember => ({
  router_name,
  note: '',
  member_type,
  router_type,
  online: 0,
  routing: 1,
  ov_id: { main: 0, backup: 0, main_name: '', backup_name: '', priority: 3 },
  default_route: 0,
  metric: 30,
  quagga: 0,
  mode: 1,
  fixed_port: { router: null, software: null },
  gateway: { router: null, software: null },
  ...over,
});

async function info(t: TestApp, main: Main, network_number: string) {
  const res = await t.call(networkInfo, { token: main.token, query: { network_number } });
  expect(res.code).toBe(200);
  return res.data!;
}

/** Expects a refusal with its code and message and no change to the member and network tables. */
async function refused(t: TestApp, token: string, endpoint: Endpoint, body: Record<string, unknown>, code: number, msg: string) {
  const before = await networkTables(t);
  const res = await t.call(endpoint, { token, body });
  expect({ path: endpoint.path, body, code: res.code, msg: res.msg }).toEqual({ path: endpoint.path, body, code, msg });
  expect(await networkTables(t)).toEqual(before);
}

describeEachDatabase('networks: create, info, lists, member, config, select', (t) => {
  it('builds a hub network of centers and points and shows it whole', async () => {
    const { main, h, s } = await tenantWith(t());
    await t().db.updateTable('member').set({ note: '总部', online_status: 1 }).where('router_key', '=', h[0]!.toLowerCase()).execute();
    const res = await t().call(createNetwork, {
      token: main.token,
      body: { network_name: ' 华东网络 ', center: [h[0]], point: [h[1], s[0]!.toUpperCase()] },
    });
    expect(res).toMatchObject({ code: 200, msg: M.saved });
    const number = res.data!.network_number;
    expect(number).toMatch(NUMBER);

    expect(await info(t(), main, number)).toEqual({
      network_number: number,
      network_name: '华东网络',
      network_status: 1,
      network_service: 1,
      network_type: 1,
      network_level: 1,
      member_count: 3,
      member: [member(h[0]!, 'center', 1, { note: '总部', online: 1 }), member(h[1]!, 'point'), member(s[0]!, 'point', 2)],
      centers: [member(h[0]!, 'center', 1, { note: '总部', online: 1 })],
      link_count: 2,
      link: [
        { router_name: h[1], router_name_note: '', center_router_name: h[0], center_router_name_note: '总部', vpn_online: 0, vpn_ip: '', vpn_online_time: '' },
        { router_name: s[0], router_name_note: '', center_router_name: h[0], center_router_name_note: '总部', vpn_online: 0, vpn_ip: '', vpn_online_time: '' },
      ],
      network_config: { network_router_use: 3, network_router_count: 10, network_level: 1, network_center_count: 2, dns_quantity: 2 },
      ncp_ciphers: 'default',
      network_dns: [],
      network_fr: null,
      mode: 1,
      network_center_link: 0,
      network_center_link_show: 0,
      network_center_link_network: { gateway: '', mask: 0, public_ip: '', public_port: 0, static_port: 0, center_router_name: '', line_mode: 1 },
      network_interconnect: { enable: 0, segment: null },
      create_time: expect.stringMatching(TIME),
    });

    const list = await t().call(listNetworks, { token: main.token, query: { page: 1 } });
    expect(list).toMatchObject({ code: 200, count: 1 });
    expect(list.data).toEqual([
      { network_number: number, network_name: '华东网络', network_type: 1, member_count: 3, fr_name: '', network_status: 1, create_time: expect.stringMatching(TIME) },
    ]);
    expect(await t().call(networkConfig, { token: main.token })).toMatchObject({
      code: 200,
      data: { network_router_use: 3, network_router_count: 10, network_level: 1, network_center_count: 2 },
    });
  });

  it('shows the standard service for another level and the twin-center link option with two centers', async () => {
    const { main, h } = await tenantWith(t());
    await t().db.updateTable('account').set({ network_level: 2, dns_quantity: 4 }).where('id', '=', main.account.id).execute();
    const number = await createNetworkThroughApi(t(), main.token, { center: [h[0]!, h[1]!], point: [h[2]!] });
    const d = await info(t(), main, number);
    expect(d).toMatchObject({ network_service: 2, network_level: 2, network_center_link_show: 1, member_count: 3 });
    expect(d.network_config.dns_quantity).toBe(4);
    expect(d.link.map((l) => [l.router_name, l.center_router_name])).toEqual([
      [h[2], h[0]],
      [h[2], h[1]],
    ]);
  });

  it('gives the members, or only the centers or only the points', async () => {
    const { main, h, s } = await tenantWith(t());
    const number = await createNetworkThroughApi(t(), main.token, { center: [h[1]!, h[0]!], point: [s[0]!, h[2]!] });
    const names = async (query: Record<string, unknown>) => {
      const res = await t().call(networkMembers, { token: main.token, query: { network_number: number, ...query } });
      expect(res.code).toBe(200);
      return res.data!.map((m) => `${m.member_type}:${m.router_name}`);
    };
    expect(await names({})).toEqual([`center:${h[1]}`, `center:${h[0]}`, `point:${s[0]}`, `point:${h[2]}`]);
    expect(await names({ member_type: 'center' })).toEqual([`center:${h[1]}`, `center:${h[0]}`]);
    expect(await names({ member_type: 'point' })).toEqual([`point:${s[0]}`, `point:${h[2]}`]);
    expect(await t().call(networkMembers, { token: main.token, query: { network_number: number, member_type: 'all' } })).toMatchObject({
      code: CODE.invalid,
      msg: M.networkMemberTypeInvalid,
    });
  });

  it('lists 10 a page newest first with member counts, searches name or number, and selects every network', async () => {
    const { main, h } = await tenantWith(t(), 3, 0);
    const numbers: string[] = [];
    for (let i = 0; i < 12; i++) {
      numbers.push(await createNetworkThroughApi(t(), main.token, { network_name: i === 4 ? '财务_网络' : `网络${i}`, point: h.slice(0, (i % 3) + 1) }));
    }
    const other = await tenantWith(t(), 1, 0);
    await createNetworkThroughApi(t(), other.main.token, { network_name: '网络0', point: other.h });

    const p1 = await t().call(listNetworks, { token: main.token, query: { page: 1 } });
    expect(p1).toMatchObject({ code: 200, count: 12 });
    expect(p1.data!.map((n) => n.network_number)).toEqual([...numbers].reverse().slice(0, 10));
    expect(p1.data!.map((n) => n.member_count)).toEqual([3, 2, 1, 3, 2, 1, 3, 2, 1, 3]);
    const p2 = await t().call(listNetworks, { token: main.token, query: { page: 2 } });
    expect(p2.data!.map((n) => n.network_number)).toEqual([numbers[1], numbers[0]]);
    expect(p2.data!.map((n) => n.member_count)).toEqual([2, 1]);
    expect(p2.count).toBe(12);
    expect(await t().call(listNetworks, { token: main.token, query: { page: 3 } })).toMatchObject({ data: [], count: 12 });

    const search = async (text: string) =>
      (await t().call(listNetworks, { token: main.token, query: { page: 1, search: text } })).data!.map((n) => n.network_name).sort();
    expect(await search('网络1')).toEqual(['网络1', '网络10', '网络11']);
    expect(await search('_')).toEqual(['财务_网络']);
    expect(await search('%')).toEqual([]);
    expect(await search(numbers[7]!.slice(2, 9).toLowerCase())).toEqual(['网络7']);
    const found = await t().call(listNetworks, { token: main.token, query: { page: 1, search: '网络1' } });
    expect(found.count).toBe(3);

    const sel = await t().call(selectNetworks, { token: main.token });
    expect(sel.code).toBe(200);
    expect(sel.data!.map((n) => n.network_number).sort()).toEqual([...numbers].sort());
    expect(Object.keys(sel.data![0]!).sort()).toEqual(['network_name', 'network_number']);
  });

  it('answers 204 for a network the tenant does not have', async () => {
    const { main, h } = await tenantWith(t(), 1, 0);
    for (const [endpoint, query] of [
      [networkInfo, { network_number: 'NNOSUCHNET000' }],
      [networkStatus, { network_number: 'NNOSUCHNET000' }],
      [networkMembers, { network_number: 'NNOSUCHNET000' }],
    ] as const) {
      expect(await t().call(endpoint, { token: main.token, query })).toMatchObject({ code: CODE.notFound, msg: M.networkNotFound });
    }
    const n = { network_number: 'NNOSUCHNET000' };
    await refused(t(), main.token, editNetwork, { ...n, network_name: '改', point: [h[0]] }, CODE.notFound, M.networkNotFound);
    await refused(t(), main.token, renameNetwork, { ...n, network_name: '改' }, CODE.notFound, M.networkNotFound);
    await refused(t(), main.token, deleteNetwork, n, CODE.notFound, M.networkNotFound);
    await refused(t(), main.token, addNetworkMember, { ...n, router_name: h[0], member_type: 'point' }, CODE.notFound, M.networkNotFound);
    await refused(t(), main.token, removeNetworkMember, { ...n, router_name: h[0] }, CODE.notFound, M.networkNotFound);
  });
});

describeEachDatabase('networks: the rules of create and edit', (t) => {
  it('refuses a create breaking a rule with its message, changing nothing', async () => {
    const { main, h, s } = await tenantWith(t());
    const other = await tenantWith(t(), 1, 0);
    const cases: [Record<string, unknown>, string][] = [
      [{ center: [h[0]] }, M.networkNameRequired],
      [{ network_name: '   ', center: [h[0]] }, M.networkNameRequired],
      [{ network_name: 'x'.repeat(LIMITS.networkNameMax + 1), center: [h[0]] }, M.networkNameTooLong],
      [{ network_name: '网' }, M.networkMembersRequired],
      [{ network_name: '网', center: [], point: [] }, M.networkMembersRequired],
      [{ network_name: '网', center: [''] }, M.networkMembersRequired],
      [{ network_name: '网', center: 'h1' }, M.networkMembersRequired],
      [{ network_name: '网', point: Array.from({ length: LIMITS.memberPickerMax + 1 }, (_, i) => `p${i}`) }, fmt(M.networkQuotaFull, { n: LIMITS.memberPickerMax })],
      [{ network_name: '网', center: [h[0]], point: ['nosuchmember'] }, fmt(M.networkMemberMissing, { name: 'nosuchmember' })],
      [{ network_name: '网', center: [h[0]], point: [other.h[0]] }, fmt(M.networkMemberMissing, { name: other.h[0]! })],
      [{ network_name: '网', center: [h[0]], point: [h[1], h[0]!.toUpperCase()] }, fmt(M.networkMemberTwice, { name: h[0]!.toUpperCase() })],
      [{ network_name: '网', point: [h[1], h[1]] }, fmt(M.networkMemberTwice, { name: h[1]! })],
      [{ network_name: '网', center: [s[0]], point: [h[1]] }, M.networkSoftwareCenter],
      [{ network_name: '网', center: [h[0], h[1], h[2]], point: [h[3]] }, fmt(M.networkCenterLimit, { n: 2 })],
    ];
    for (const [body, msg] of cases) await refused(t(), main.token, createNetwork, body, CODE.invalid, msg);
  });

  it('takes a name of exactly 24 characters and a network of points only', async () => {
    const { main, h } = await tenantWith(t(), 2, 0);
    const name = '网'.repeat(LIMITS.networkNameMax);
    const number = await createNetworkThroughApi(t(), main.token, { network_name: name, point: h });
    expect(await info(t(), main, number)).toMatchObject({ network_name: name, member_count: 2, link: [] });
  });

  it('replaces the member list on edit: kept members keep their settings, moved ones change position, removed ones lose their links', async () => {
    const { main, h, s } = await tenantWith(t(), 6, 1);
    const number = await createNetworkThroughApi(t(), main.token, { network_name: '旧名', center: [h[0]!, h[3]!], point: [h[1]!, h[2]!, s[0]!, h[5]!] });
    const net = await t().db.selectFrom('network').select('id').where('network_number', '=', number).executeTakeFirstOrThrow();
    const idOf = async (name: string) => (await t().db.selectFrom('member').select('id').where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow()).id;
    await t().db.updateTable('network_member').set({ metric: 90, quagga: 1 }).where('network_id', '=', net.id).where('member_id', '=', await idOf(h[1]!)).execute();
    const now = Date.now();
    const up = async (point: string, center: string) =>
      t()
        .db.insertInto('member_link')
        .values({ network_id: net.id, member_id: await idOf(point), center_member_id: await idOf(center), vpn_online: 1, vpn_ip: '10.0.0.1', vpn_online_time: now, update_time: now })
        .execute();
    for (const p of [h[1]!, h[2]!, s[0]!, h[5]!]) await up(p, h[0]!);
    await up(h[1]!, h[3]!);

    // h0 moves to the points, h2 to the centers, h5 leaves, h4 joins; h1, h3 and s0 stay where they were.
    const res = await t().call(editNetwork, { token: main.token, body: { network_number: number, network_name: '新名', center: [h[2], h[3]], point: [h[0], h[1], s[0], h[4]] } });
    expect(res).toMatchObject({ code: 200, msg: M.saved });
    const d = await info(t(), main, number);
    expect(d.network_name).toBe('新名');
    // Centers first; within a position, in the order the members joined the network.
    expect(d.member.map((m) => `${m.member_type}:${m.router_name}`)).toEqual([`center:${h[3]}`, `center:${h[2]}`, `point:${h[0]}`, `point:${h[1]}`, `point:${s[0]}`, `point:${h[4]}`]);
    expect(d.member.find((m) => m.router_name === h[1])).toMatchObject({ metric: 90, quagga: 1 });
    // Only the link between members that kept their positions keeps its reported state.
    expect(await t().db.selectFrom('member_link').select(['member_id', 'center_member_id']).where('network_id', '=', net.id).execute()).toEqual([
      { member_id: await idOf(h[1]!), center_member_id: await idOf(h[3]!) },
    ]);
    expect(d.link).toHaveLength(8);
    expect(d.link.filter((l) => l.vpn_online === 1).map((l) => [l.router_name, l.center_router_name])).toEqual([[h[1], h[3]]]);
    expect(d.network_config.network_router_use).toBe(6);

    // The same list again changes nothing but the name.
    await t().call(editNetwork, { token: main.token, body: { network_number: number, network_name: '新名', center: [h[2], h[3]], point: [h[0], h[1], s[0], h[4]] } });
    expect((await info(t(), main, number)).member).toEqual(d.member);
  });

  it('refuses an edit breaking a rule with its message, changing nothing', async () => {
    const { main, h, s } = await tenantWith(t());
    const other = await tenantWith(t(), 1, 0);
    const number = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: [h[1]!] });
    const n = { network_number: number, network_name: '网' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ network_number: number, center: [h[0]] }, CODE.invalid, M.networkNameRequired],
      [{ ...n }, CODE.invalid, M.networkMembersRequired],
      [{ ...n, center: [h[0]], point: ['ghost'] }, CODE.invalid, fmt(M.networkMemberMissing, { name: 'ghost' })],
      [{ ...n, center: [h[0]], point: [other.h[0]] }, CODE.invalid, fmt(M.networkMemberMissing, { name: other.h[0]! })],
      [{ ...n, center: [h[0]], point: [h[0]] }, CODE.invalid, fmt(M.networkMemberTwice, { name: h[0]! })],
      [{ ...n, center: [h[0], s[1]] }, CODE.invalid, M.networkSoftwareCenter],
      [{ ...n, center: [h[0], h[1], h[2]] }, CODE.invalid, fmt(M.networkCenterLimit, { n: 2 })],
      [{ network_name: '网', center: [h[0]] }, CODE.invalid, M.networkNotFound],
    ];
    for (const [body, code, msg] of cases) await refused(t(), main.token, editNetwork, body, code, msg);
  });

  it('renames a network (24 characters at most) and deletes it with its member list, keeping the members', async () => {
    const { main, h } = await tenantWith(t(), 2, 0);
    const number = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: [h[1]!] });
    expect(await t().call(renameNetwork, { token: main.token, body: { network_number: number, network_name: ' 新名字 ' } })).toMatchObject({ code: 200, msg: M.modified });
    expect((await info(t(), main, number)).network_name).toBe('新名字');
    await refused(t(), main.token, renameNetwork, { network_number: number, network_name: '' }, CODE.invalid, M.networkNameRequired);
    await refused(t(), main.token, renameNetwork, { network_number: number, network_name: 'x'.repeat(25) }, CODE.invalid, M.networkNameTooLong);
    await refused(t(), main.token, renameNetwork, { network_number: '', network_name: '名' }, CODE.invalid, M.networkNotFound);

    expect(await t().call(deleteNetwork, { token: main.token, body: { network_number: number } })).toMatchObject({ code: 200, msg: M.deleted });
    expect(await t().call(networkInfo, { token: main.token, query: { network_number: number } })).toMatchObject({ code: CODE.notFound });
    expect(await t().db.selectFrom('network_member').selectAll().where('tenant_id', '=', main.account.id).execute()).toEqual([]);
    expect(await t().db.selectFrom('member').select('router_name').where('tenant_id', '=', main.account.id).orderBy('id').execute()).toEqual(h.map((router_name) => ({ router_name })));
    expect((await t().call(networkConfig, { token: main.token })).data).toMatchObject({ network_router_use: 0 });
    await refused(t(), main.token, deleteNetwork, { network_number: number }, CODE.notFound, M.networkNotFound);
  });
});

describeEachDatabase('networks: /network/add_member and /network/remove_member', (t) => {
  it('adds a member at a position and removes it', async () => {
    const { main, h, s } = await tenantWith(t());
    const number = await createNetworkThroughApi(t(), main.token, { center: [h[0]!], point: [h[1]!] });
    expect(await t().call(addNetworkMember, { token: main.token, body: { network_number: number, router_name: h[2], member_type: 'center' } })).toMatchObject({
      code: 200,
      msg: M.saved,
    });
    expect(await t().call(addNetworkMember, { token: main.token, body: { network_number: number, router_name: s[0]!.toUpperCase(), member_type: 'point' } })).toMatchObject({
      code: 200,
    });
    let d = await info(t(), main, number);
    expect(d.member.map((m) => `${m.member_type}:${m.router_name}`)).toEqual([`center:${h[0]}`, `center:${h[2]}`, `point:${h[1]}`, `point:${s[0]}`]);
    expect(d.network_center_link_show).toBe(1);

    expect(await t().call(removeNetworkMember, { token: main.token, body: { network_number: number, router_name: h[0]!.toUpperCase() } })).toMatchObject({
      code: 200,
      msg: M.deleted,
    });
    d = await info(t(), main, number);
    expect(d.member.map((m) => m.router_name)).toEqual([h[2], h[1], s[0]]);
    expect(d.network_center_link_show).toBe(0);
  });

  it('refuses an add or a removal breaking a rule with its message, changing nothing', async () => {
    const { main, h, s } = await tenantWith(t());
    const other = await tenantWith(t(), 1, 0);
    const number = await createNetworkThroughApi(t(), main.token, { center: [h[0]!, h[1]!], point: [h[2]!] });
    const lone = await createNetworkThroughApi(t(), main.token, { point: [h[3]!] });
    const n = { network_number: number };
    const adds: [Record<string, unknown>, string][] = [
      [{ ...n, router_name: h[2], member_type: 'point' }, M.networkMemberExists],
      [{ ...n, router_name: h[2]!.toUpperCase(), member_type: 'center' }, M.networkMemberExists],
      [{ ...n, router_name: 'ghost', member_type: 'point' }, fmt(M.networkMemberMissing, { name: 'ghost' })],
      [{ ...n, router_name: other.h[0], member_type: 'point' }, fmt(M.networkMemberMissing, { name: other.h[0]! })],
      [{ ...n, router_name: s[0], member_type: 'center' }, M.networkSoftwareCenter],
      [{ ...n, router_name: h[3], member_type: 'center' }, fmt(M.networkCenterLimit, { n: 2 })],
      [{ ...n, router_name: h[3], member_type: 'main' }, M.networkMemberTypeInvalid],
      [{ ...n, router_name: h[3] }, M.networkMemberTypeInvalid],
      [{ ...n, member_type: 'point' }, M.networkMembersRequired],
    ];
    for (const [body, msg] of adds) await refused(t(), main.token, addNetworkMember, body, CODE.invalid, msg);
    const removals: [Record<string, unknown>, string][] = [
      [{ ...n, router_name: h[3] }, M.networkMemberNotIn],
      [{ ...n, router_name: 'ghost' }, M.networkMemberNotIn],
      [{ ...n, router_name: other.h[0] }, M.networkMemberNotIn],
      [{ network_number: lone, router_name: h[3] }, M.networkLastMember],
      [{ ...n }, M.memberNotFound],
    ];
    for (const [body, msg] of removals) await refused(t(), main.token, removeNetworkMember, body, CODE.invalid, msg);
  });

  it('keeps a network whose last member was deleted, with no members', async () => {
    const { main, h } = await tenantWith(t(), 1, 0);
    const number = await createNetworkThroughApi(t(), main.token, { point: [h[0]!] });
    await t().db.deleteFrom('member').where('router_key', '=', h[0]!.toLowerCase()).execute();
    expect(await info(t(), main, number)).toMatchObject({ member_count: 0, member: [], link: [] });
    const list = await t().call(listNetworks, { token: main.token, query: { page: 1 } });
    expect(list.data![0]).toMatchObject({ network_number: number, member_count: 0 });
  });

  it('seeded networks (fixtures) read like built ones', async () => {
    const { main, h } = await tenantWith(t(), 2, 0);
    const { network_number } = await seedNetwork(t(), main.account.id, { name: '种子', center: [h[0]!], point: [h[1]!] });
    expect(await info(t(), main, network_number)).toMatchObject({ network_name: '种子', member_count: 2, link: [{ router_name: h[1], center_router_name: h[0] }] });
  });
});
