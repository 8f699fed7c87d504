import {
  addNetworkMember,
  CODE,
  createNetwork,
  deleteNetwork,
  editNetwork,
  listNetworks,
  M,
  networkConfig,
  networkInfo,
  networkMembers,
  networkStatus,
  removeNetworkMember,
  renameNetwork,
  selectNetworks,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { createNetworkThroughApi, networkTables, seedFreshMembers } from '../../../test/networks';
import type { RoleAuth } from '../../core/actor';

type Main = Awaited<ReturnType<typeof newAccount>>;

const role = (network: Partial<RoleAuth['easylink.network']>): RoleAuth => ({
  ...FULL_ROLE,
  'easylink.network': { create: 0, edit: 0, delete: 0, network: [], ...network },
});


/** Every network call naming a network, with a body or query for network `n` of members h. */
function callsOn(n: string, h: string[], spare: string): [Endpoint, Record<string, unknown>][] {
  return [
    [networkInfo, { network_number: n }],
    [networkStatus, { network_number: n }],
    [networkMembers, { network_number: n }],
    [editNetwork, { network_number: n, network_name: '改', center: [h[0]], point: [h[1]] }],
    [renameNetwork, { network_number: n, network_name: '改' }],
    [addNetworkMember, { network_number: n, router_name: spare, member_type: 'point' }],
    [removeNetworkMember, { network_number: n, router_name: h[1] }],
    [deleteNetwork, { network_number: n }],
  ];
}

const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) =>
  t.call(e, e.method === 'GET' ? { token, query: input } : { token, body: input });

describeEachDatabase("networks: one tenant never reaches another's", (t) => {
  it("answers B as if A's network did not exist, changing nothing, and refuses A's members in B's networks", async () => {
    const a = await newAccount(t());
    const b = await newAccount(t());
    const ha = await seedFreshMembers(t(), a.account.id, 3);
    const hb = await seedFreshMembers(t(), b.account.id, 2);
    const number = await createNetworkThroughApi(t(), a.token, { network_name: 'A的网络', center: [ha[0]!], point: [ha[1]!] });
    await createNetworkThroughApi(t(), b.token, { network_name: 'B的网络', center: [hb[0]!] });

    const before = await networkTables(t());
    for (const [e, input] of callsOn(number, ha, ha[2]!)) {
      const res = await send(t(), e, b.token, input);
      expect({ path: e.path, code: res.code, msg: res.msg }).toEqual({ path: e.path, code: CODE.notFound, msg: M.networkNotFound });
      expect(JSON.stringify(res)).not.toContain(ha[0]!);
    }
    expect(await networkTables(t())).toEqual(before);

    const lists = await t().call(listNetworks, { token: b.token, query: { page: 1, search: number } });
    expect(lists).toMatchObject({ code: 200, count: 0, data: [] });
    const sel = await t().call(selectNetworks, { token: b.token });
    expect(sel.data!.map((n) => n.network_number)).not.toContain(number);
    expect((await t().call(networkConfig, { token: b.token })).data).toMatchObject({ network_router_use: 1 });

    for (const body of [
      { network_name: '偷', point: [ha[0]] },
      { network_name: '偷', center: [hb[1]], point: [ha[2]] },
    ]) {
      const res = await t().call(createNetwork, { token: b.token, body });
      expect(res).toMatchObject({ code: CODE.invalid, msg: expect.stringContaining(body.point[0]!) });
    }
    expect(await networkTables(t())).toEqual(before);
  });
});

describeEachDatabase('networks: role permissions of sub-accounts', (t) => {
  let main: Main;
  let h: string[];
  let x: string;
  let y: string;

  beforeAll(async () => {
    main = await newAccount(t());
    h = await seedFreshMembers(t(), main.account.id, 6);
    x = await createNetworkThroughApi(t(), main.token, { network_name: '网络X', center: [h[0]!], point: [h[1]!] });
    y = await createNetworkThroughApi(t(), main.token, { network_name: '网络Y', center: [h[0]!], point: [h[1]!] });
  });

  it('lets a sub-account without network rights read everything and change nothing', async () => {
    const token = await ramToken(t(), main.account.id, role({}));
    expect((await t().call(listNetworks, { token, query: { page: 1 } })).count).toBe(2);
    const before = await networkTables(t());
    for (const [e, input] of [...callsOn(x, h, h[2]!), [createNetwork, { network_name: '新', point: [h[3]] }] as [Endpoint, Record<string, unknown>]]) {
      const res = await send(t(), e, token, input);
      const expected = e.method === 'GET' ? { code: 200, msg: 'success' } : { code: CODE.forbidden, msg: M.deniedPermission };
      expect({ path: e.path, code: res.code, msg: res.msg }).toEqual({ path: e.path, ...expected });
    }
    expect(await networkTables(t())).toEqual(before);
  });

  it('lets a sub-account with each right do that and only that', async () => {
    const creator = await ramToken(t(), main.account.id, role({ create: 1 }));
    const made = await createNetworkThroughApi(t(), creator, { network_name: '子账号建', point: [h[3]!] });
    expect(await send(t(), renameNetwork, creator, { network_number: made, network_name: '改' })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
    const editor = await ramToken(t(), main.account.id, role({ edit: 1 }));
    const edits: [Endpoint, Record<string, unknown>][] = [
      [editNetwork, { network_number: made, network_name: '改', center: [h[3]], point: [h[4]] }],
      [renameNetwork, { network_number: made, network_name: '再改' }],
      [addNetworkMember, { network_number: made, router_name: h[5], member_type: 'point' }],
      [removeNetworkMember, { network_number: made, router_name: h[5] }],
    ];
    for (const [e, input] of edits) expect({ path: e.path, code: (await send(t(), e, editor, input)).code }).toEqual({ path: e.path, code: 200 });
    expect(await send(t(), deleteNetwork, editor, { network_number: made })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
    expect(await send(t(), createNetwork, editor, { network_name: '新', point: [h[3]] })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
    const deleter = await ramToken(t(), main.account.id, role({ delete: 1 }));
    expect(await send(t(), deleteNetwork, deleter, { network_number: made })).toMatchObject({ code: 200, msg: M.deleted });
  });

  it('limits a role with networks to them: lists and selects only those, 403 elsewhere, no create', async () => {
    const token = await ramToken(t(), main.account.id, role({ create: 1, edit: 1, delete: 1, network: [x] }));
    const list = await t().call(listNetworks, { token, query: { page: 1 } });
    expect(list).toMatchObject({ code: 200, count: 1 });
    expect(list.data!.map((n) => n.network_number)).toEqual([x]);
    expect((await t().call(listNetworks, { token, query: { page: 1, search: '网络Y' } })).count).toBe(0);
    expect((await t().call(selectNetworks, { token })).data!.map((n) => n.network_number)).toEqual([x]);

    const before = await networkTables(t());
    for (const [e, input] of callsOn(y, h, h[2]!)) {
      const res = await send(t(), e, token, input);
      expect({ path: e.path, code: res.code, msg: res.msg }).toEqual({ path: e.path, code: CODE.forbidden, msg: M.deniedNetwork });
    }
    // Even a role stored with the create flag set (the role form clears it) cannot create.
    expect(await send(t(), createNetwork, token, { network_name: '新', point: [h[3]] })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
    expect(await networkTables(t())).toEqual(before);

    for (const [e, input] of callsOn(x, h, h[2]!)) {
      expect({ path: e.path, code: (await send(t(), e, token, input)).code }).toEqual({ path: e.path, code: 200 });
    }
  });

  it('keeps a role restricted to a deleted network restricted: it sees nothing', async () => {
    const gone = await createNetworkThroughApi(t(), main.token, { network_name: '要删', point: [h[5]!] });
    const token = await ramToken(t(), main.account.id, role({ edit: 1, network: [gone] }));
    await t().call(deleteNetwork, { token: main.token, body: { network_number: gone } });
    expect(await t().call(listNetworks, { token, query: { page: 1 } })).toMatchObject({ code: 200, count: 0, data: [] });
    expect(await t().call(selectNetworks, { token })).toMatchObject({ code: 200, data: [] });
    expect(await send(t(), networkInfo, token, { network_number: gone })).toMatchObject({ code: CODE.notFound });
    expect(await send(t(), networkInfo, token, { network_number: y })).toMatchObject({ code: CODE.forbidden, msg: M.deniedNetwork });
  });
});
