import { CODE, editIpPool, fmt, getIpPool, M, networkInfo, renameNetworkOnPop, setMemberOv, setNetworkFr, type Endpoint } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';
import { completeOrder, frOfTicket, seedPool } from '../../../test/pop';
import type { RoleAuth } from '../../core/actor';


const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) =>
  t.call(e, e.method === 'GET' ? { token, query: input } : { token, body: input });

/** Expects a refusal with its code and message, and no change to the network tables or the POP resources. */
async function refused(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, code: number, msg: string) {
  const tables = async () => ({ ...(await networkTables(t)), fr: await t.db.selectFrom('network_fr').selectAll().orderBy('id').execute() });
  const before = await tables();
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code, msg });
  expect(await tables()).toEqual(before);
}

async function accepted(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, msg: string) {
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code: 200, msg });
}

const info = async (t: TestApp, token: string, n: string) => (await t.call(networkInfo, { token, query: { network_number: n } })).data!;

/** network.changed events of a network, after the events have settled. */
async function changesOf(t: TestApp, tenantId: number, networkId: number): Promise<string[]> {
  await t.ctx.events.settle();
  const rows = await t.db.selectFrom('event').select('payload').where('tenant_id', '=', tenantId).where('type', '=', 'network.changed').orderBy('id').execute();
  return rows.map((r) => JSON.parse(r.payload) as { network_id: number; change: string }).filter((p) => p.network_id === networkId).map((p) => p.change);
}

/** A tenant with a network of one center and two points, and a three-area resource made by an order for another network. */
async function tenantWithFr(t: TestApp) {
  const main = await newAccount(t);
  const [c, p1, p2, lone] = await seedFreshMembers(t, main.account.id, 4);
  const net = await seedNetwork(t, main.account.id, { center: [c!], point: [p1!, p2!] });
  const side = await seedNetwork(t, main.account.id, { center: [lone!] });
  const three = await frOfTicket(t, await completeOrder(t, main.account.id, side.network_number, { pop: ['south', 'north', 'east'] }));
  const two = await frOfTicket(t, await completeOrder(t, main.account.id, side.network_number, { pop: ['south', 'intl'] }));
  const areas = async (frId: number) => (await t.db.selectFrom('network_fr_area').select(['id', 'name']).where('network_fr_id', '=', frId).orderBy('id').execute());
  return { main, c: c!, p: [p1!, p2!], net, side, three: three.id, two: two.id, threeAreas: await areas(three.id), twoAreas: await areas(two.id) };
}

describeEachDatabase('network POP: pop.created assigns the new resource', (t) => {
  it('makes it the network’s, gives the order’s members their main area, and leaves a network that has one alone', async () => {
    const main = await newAccount(t());
    const [c, p, q] = await seedFreshMembers(t(), main.account.id, 3);
    const net = await seedNetwork(t(), main.account.id, { center: [c!], point: [p!, q!] });
    const ticket = await completeOrder(t(), main.account.id, net.network_number, {
      pop: ['south', 'north'],
      pop_conf: { south: [c!.toUpperCase()], north: [p!, 'someone-else'] },
    });
    await completeOrder(t(), main.account.id, net.network_number, {}, { ticketId: ticket });
    const fr = await frOfTicket(t(), ticket);
    const detail = await info(t(), main.token, net.network_number);
    expect(detail.network_fr).toEqual({ network_fr_id: fr.id, shortname: fr.name });
    const ov = Object.fromEntries(detail.member.map((m) => [m.router_name, [m.ov_id.main_name, m.ov_id.backup_name, m.ov_id.priority]]));
    expect(ov).toEqual({ [c!]: ['华南', '', 3], [p!]: ['华北', '', 3], [q!]: ['', '', 3] });
    expect(await changesOf(t(), main.account.id, net.id)).toEqual(['settings']);

    const later = await frOfTicket(t(), await completeOrder(t(), main.account.id, net.network_number, { pop: ['intl'], pop_conf: { intl: [q!] } }));
    const again = await info(t(), main.token, net.network_number);
    expect(again.network_fr?.network_fr_id).toBe(fr.id);
    expect(again.member.find((m) => m.router_name === q)!.ov_id.main).toBe(0);
    expect(later.id).not.toBe(fr.id);
    // the network list names it too
    const { listNetworks } = await import('@hublink/contract');
    expect((await t().call(listNetworks, { token: main.token })).data!.find((n) => n.network_number === net.network_number)!.fr_name).toBe(fr.name);
  });
});

describeEachDatabase('network POP: the POP resource config (network/fr)', (t) => {
  let s: Awaited<ReturnType<typeof tenantWithFr>>;
  beforeAll(async () => {
    s = await tenantWithFr(t());
  });

  it('answers 423 and changes nothing while the network has no POP pool, then sets the resource and line mode', async () => {
    const n = s.net.network_number;
    await refused(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 3 }, CODE.furtherAction, M.popPoolMissing);
    expect(await changesOf(t(), s.main.account.id, s.net.id)).toEqual([]);
    await seedPool(t(), s.net.id, { pop: '10.9.0.0/16' });
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 3 }, M.networkSetDone);
    const detail = await info(t(), s.main.token, n);
    expect(detail.network_fr?.network_fr_id).toBe(s.three);
    expect(detail.mode).toBe(3);
    expect(await changesOf(t(), s.main.account.id, s.net.id)).toEqual(['settings']);
  });

  it('refuses a resource of another tenant, an expired or processing one and a bad mode, changing nothing', async () => {
    const n = s.net.network_number;
    const b = await newAccount(t());
    const [bc] = await seedFreshMembers(t(), b.account.id, 1);
    const bNet = await seedNetwork(t(), b.account.id, { center: [bc!] });
    const theirs = await frOfTicket(t(), await completeOrder(t(), b.account.id, bNet.network_number));
    await refused(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: theirs.id, mode: 1 }, CODE.invalid, M.popFrNotFound);
    await refused(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.two, mode: 0 }, CODE.invalid, M.popModeInvalid);
    await refused(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: 'x', mode: 1 }, CODE.invalid, M.popFrRequired);
    await t().db.updateTable('network_fr').set({ expire_time: Date.now() - 1 }).where('id', '=', s.two).execute();
    await refused(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.two, mode: 1 }, CODE.invalid, M.popFrUnusable);
    await t().db.updateTable('network_fr').set({ expire_time: Date.now() + 86_400_000, status: 2 }).where('id', '=', s.two).execute();
    await refused(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.two, mode: 1 }, CODE.invalid, M.popFrUnusable);
    await t().db.updateTable('network_fr').set({ status: 1 }).where('id', '=', s.two).execute();
  });

  it('clears the members’ areas when another resource is chosen', async () => {
    const n = s.net.network_number;
    await seedPool(t(), s.net.id, { pop: '10.9.0.0/16' });
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 1 }, M.networkSetDone);
    await accepted(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: s.threeAreas[0]!.id }, M.saved);
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 2 }, M.networkSetDone);
    expect((await info(t(), s.main.token, n)).member.find((m) => m.router_name === s.p[0])!.ov_id.main).toBe(s.threeAreas[0]!.id);
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.two, mode: 2 }, M.networkSetDone);
    expect((await info(t(), s.main.token, n)).member.find((m) => m.router_name === s.p[0])!.ov_id.main).toBe(0);
  });
});

describeEachDatabase('network POP: members’ areas (network/member_ov)', (t) => {
  let s: Awaited<ReturnType<typeof tenantWithFr>>;
  beforeAll(async () => {
    s = await tenantWithFr(t());
  });

  it('refuses without a resource, then sets main and backup among its areas', async () => {
    const n = s.net.network_number;
    const [a, b, c] = s.threeAreas.map((x) => x.id);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: a }, CODE.invalid, M.popNetworkNoFr);
    await seedPool(t(), s.net.id, { pop: '10.9.0.0/16' });
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 1 }, M.networkSetDone);
    await accepted(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: a, ov_id_backup: c }, M.saved);
    const m = (await info(t(), s.main.token, n)).member.find((x) => x.router_name === s.p[0])!;
    expect(m.ov_id).toEqual({ main: a, backup: c, main_name: '华南', backup_name: '华东', priority: 3 });

    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: b, ov_id_backup: b }, CODE.invalid, M.popAreaSame);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: s.twoAreas[0]!.id }, CODE.invalid, M.popAreaNotOfFr);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: a, ov_id_backup: s.twoAreas[1]!.id }, CODE.invalid, M.popAreaNotOfFr);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: 0, ov_id_backup: c }, CODE.invalid, M.popAreaMainRequired);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: 'a' }, CODE.invalid, M.popAreaMainRequired);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: 'nobody', ov_id_main: a }, CODE.invalid, M.networkMemberNotIn);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.c, ov_id_main: a, ov_id_backup: -1 }, CODE.invalid, M.popAreaNotOfFr);

    await accepted(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: 0 }, M.saved);
    expect((await info(t(), s.main.token, n)).member.find((x) => x.router_name === s.p[0])!.ov_id).toMatchObject({ main: 0, backup: 0, main_name: '' });
  });

  it('allows a backup only when the resource has more than two areas', async () => {
    const n = s.net.network_number;
    await seedPool(t(), s.net.id, { pop: '10.9.0.0/16' });
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.two, mode: 1 }, M.networkSetDone);
    const [a, b] = s.twoAreas.map((x) => x.id);
    await refused(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[1], ov_id_main: a, ov_id_backup: b }, CODE.invalid, M.popAreaBackupNeedsAreas);
    await accepted(t(), s.main.token, setMemberOv, { network_number: n, router_name: s.p[1], ov_id_main: b, ov_id_backup: 0 }, M.saved);
    expect((await info(t(), s.main.token, n)).member.find((x) => x.router_name === s.p[1])!.ov_id).toMatchObject({ main: b, backup: 0, main_name: '国际' });
  });
});

describeEachDatabase('network POP: IP address pools', (t) => {
  let s: Awaited<ReturnType<typeof tenantWithFr>>;
  beforeAll(async () => {
    s = await tenantWithFr(t());
    await t().db.updateTable('network_member').set({ gateway: JSON.stringify({ router: { gateway: '192.168.10.0', mask: 24 }, software: null }) }).where('network_id', '=', s.net.id).where('member_type', '=', 'center').execute();
  });

  it('answers empty pools, stores valid ones whole and reads them back', async () => {
    const n = s.net.network_number;
    expect((await t().call(getIpPool, { token: s.main.token, query: { network_number: n } })).data).toEqual({ pop: '', center_link_network: '', center_network: '', pop_software: '', other: '' });
    await accepted(t(), s.main.token, editIpPool, { network_number: n, pop: ' 10.9.0.0/16 ', center_network: '10.10.0.0/24', center_link_network: '10.11.0.0/24' }, M.saved);
    expect((await t().call(getIpPool, { token: s.main.token, query: { network_number: n } })).data).toEqual({
      pop: '10.9.0.0/16',
      center_link_network: '10.11.0.0/24',
      center_network: '10.10.0.0/24',
      pop_software: '',
      other: '',
    });
    await accepted(t(), s.main.token, editIpPool, { network_number: n, pop: '10.9.0.0/16' }, M.saved);
    expect((await t().call(getIpPool, { token: s.main.token, query: { network_number: n } })).data!.center_network).toBe('');
  });

  it('refuses each rule with its message and changes nothing', async () => {
    const n = s.net.network_number;
    const refuse = (body: Record<string, unknown>, msg: string) => refused(t(), s.main.token, editIpPool, { network_number: n, ...body }, CODE.invalid, msg);
    await refuse({ pop: '10.9.0.0' }, M.popPoolInvalid);
    await refuse({ pop: '0.9.0.0/16' }, M.popPoolInvalid);
    await refuse({ pop: '10.09.0.0/16' }, M.popPoolInvalid);
    await refuse({ other: '10.9.0.0/8' }, M.popPoolMaskRange);
    await refuse({ other: '10.9.0.0/25' }, M.popPoolMaskRange);
    await refuse({ center_network: '10.9.1.0/16' }, M.popPoolNotNetwork);
    await refuse({ pop: '10.9.0.0/16', other: '10.9.5.0/24' }, fmt(M.popPoolOverlap, { a: M.popPoolPop, b: M.popPoolOther }));
    await refuse({ center_network: '192.168.0.0/16' }, fmt(M.popPoolOverlap, { a: M.popPoolCenter, b: fmt(M.popPoolMember, { name: s.c }) }));
    await refuse({ center_network: '10.1.0.0/24', fr_id: s.three }, M.popPoolPopRequired);
    await refuse({ pop: '10.1.0.0/24', fr_id: 999_999 }, M.popFrNotFound);
    await refuse({ pop: ['10.1.0.0/24'] }, M.popPoolInvalid);
  });

  it('requires the POP pool while the network has a resource', async () => {
    const n = s.net.network_number;
    await accepted(t(), s.main.token, editIpPool, { network_number: n, pop: '10.20.0.0/16', fr_id: s.three }, M.saved);
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 1 }, M.networkSetDone);
    await refused(t(), s.main.token, editIpPool, { network_number: n, center_network: '10.10.0.0/24' }, CODE.invalid, M.popPoolPopRequired);
  });
});

const role = (network: Partial<RoleAuth['easylink.network']>): RoleAuth => ({ ...FULL_ROLE, 'easylink.network': { create: 0, edit: 0, delete: 0, network: [], ...network } });

describeEachDatabase('network POP: who may change it', (t) => {
  let s: Awaited<ReturnType<typeof tenantWithFr>>;
  let calls: [Endpoint, Record<string, unknown>, string][];
  beforeAll(async () => {
    s = await tenantWithFr(t());
    await seedPool(t(), s.net.id, { pop: '10.9.0.0/16' });
    await t().db.updateTable('network').set({ network_fr_id: s.three }).where('id', '=', s.net.id).execute();
    const n = s.net.network_number;
    calls = [
      [setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 2 }, M.networkSetDone],
      [setMemberOv, { network_number: n, router_name: s.p[0], ov_id_main: s.threeAreas[1]!.id }, M.saved],
      [editIpPool, { network_number: n, pop: '10.9.0.0/16', other: '10.30.0.0/24' }, M.saved],
    ];
  });

  it('lets a sub-account without the edit right read the pools and change nothing', async () => {
    const token = await ramToken(t(), s.main.account.id, role({ create: 1, delete: 1 }));
    expect((await send(t(), getIpPool, token, { network_number: s.net.network_number })).code).toBe(200);
    for (const [e, input] of calls) await refused(t(), token, e, input, CODE.forbidden, M.deniedPermission);
  });

  it('refuses a role limited to other networks, and lets an editor of this one change it', async () => {
    const other = await ramToken(t(), s.main.account.id, role({ edit: 1, network: [s.side.network_number] }));
    await refused(t(), other, getIpPool, { network_number: s.net.network_number }, CODE.forbidden, M.deniedNetwork);
    for (const [e, input] of calls) await refused(t(), other, e, input, CODE.forbidden, M.deniedNetwork);
    const editor = await ramToken(t(), s.main.account.id, role({ edit: 1, network: [s.net.network_number] }));
    for (const [e, input, msg] of calls) await accepted(t(), editor, e, input, msg);
  });

  it('answers another tenant as if the network did not exist', async () => {
    const b = await newAccount(t());
    await refused(t(), b.token, getIpPool, { network_number: s.net.network_number }, CODE.notFound, M.networkNotFound);
    for (const [e, input] of calls) await refused(t(), b.token, e, input, CODE.notFound, M.networkNotFound);
  });

  it('refuses every change while the network is disabled, and reads the pools all the same', async () => {
    await t().db.updateTable('account').set({ network_router_count: 1 }).where('id', '=', s.main.account.id).execute();
    try {
      expect((await send(t(), getIpPool, s.main.token, { network_number: s.net.network_number })).code).toBe(200);
      for (const [e, input] of calls) await refused(t(), s.main.token, e, input, CODE.invalid, M.networkSettingsDisabled);
    } finally {
      await t().db.updateTable('account').set({ network_router_count: 10 }).where('id', '=', s.main.account.id).execute();
    }
  });
});

describeEachDatabase('network POP: the POP config page renames the network (network/pop_name)', (t) => {
  let s: Awaited<ReturnType<typeof tenantWithFr>>;
  beforeAll(async () => {
    s = await tenantWithFr(t());
  });

  it('needs a POP resource, takes up to 32 characters there (24 elsewhere), and refuses an empty name', async () => {
    const n = s.net.network_number;
    await refused(t(), s.main.token, renameNetworkOnPop, { network_number: n, network_name: '华东POP网络' }, CODE.invalid, M.popNetworkNoFr);
    await seedPool(t(), s.net.id, { pop: '10.9.0.0/16' });
    await accepted(t(), s.main.token, setNetworkFr, { network_number: n, network_fr_id: s.three, mode: 1 }, M.networkSetDone);
    const long = '长'.repeat(32);
    await refused(t(), s.main.token, renameNetworkOnPop, { network_number: n, network_name: `${long}x` }, CODE.invalid, '网络名称不能超过32个字符');
    await refused(t(), s.main.token, renameNetworkOnPop, { network_number: n, network_name: '  ' }, CODE.invalid, M.networkNameRequired);
    await refused(t(), s.main.token, renameNetworkOnPop, { network_number: n }, CODE.invalid, M.networkNameRequired);
    await accepted(t(), s.main.token, renameNetworkOnPop, { network_number: n, network_name: long }, M.modified);
    expect((await info(t(), s.main.token, n)).network_name).toBe(long);
    expect((await changesOf(t(), s.main.account.id, s.net.id)).at(-1)).toBe('edited');
  });

  it('refuses another tenant’s network and a role without the edit right', async () => {
    const other = await newAccount(t());
    await refused(t(), other.token, renameNetworkOnPop, { network_number: s.net.network_number, network_name: '别人的' }, CODE.notFound, M.networkNotFound);
    const viewer = await ramToken(t(), s.main.account.id, { ...FULL_ROLE, 'easylink.network': { create: 0, edit: 0, delete: 0, network: [] } });
    await refused(t(), viewer, renameNetworkOnPop, { network_number: s.net.network_number, network_name: '只读' }, CODE.forbidden, M.deniedPermission);
  });
});
