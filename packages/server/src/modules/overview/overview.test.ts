import { CODE, createApiToken, createRole, dashboardOverview, listMessages, listRouters, M, MEMBER_STATE, ROUTER_TYPE, type MemberState } from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { freshMemberName, seedMembers, seedNetwork } from '../../../test/networks';

const HOUR = 3_600_000;

/** Seeds one member with its live state as the gateway would have left it; returns its name. */
async function member(t: TestApp, tenantId: number, kind: number, state: { online?: boolean; createdAgo?: number; seenAgo?: number | null; endedAgo?: number }) {
  const name = freshMemberName(kind === ROUTER_TYPE.software ? 's' : 'h');
  const [id] = await seedMembers(t, tenantId, [name], { router_type: kind, online_status: state.online ? 1 : 0 });
  const now = Date.now();
  await t.db
    .updateTable('member')
    .set({ create_time: now - (state.createdAgo ?? 0), online_time: state.seenAgo === undefined || state.seenAgo === null ? null : now - state.seenAgo })
    .where('id', '=', id!)
    .execute();
  if (state.endedAgo !== undefined) {
    const session = `s-${name}`;
    await t.db
      .insertInto('connect_log')
      .values([
        { tenant_id: tenantId, member_id: id!, router_name: name, online: 1, session_id: session, create_time: now - (state.seenAgo ?? 0) },
        { tenant_id: tenantId, member_id: id!, router_name: name, online: 0, session_id: session, create_time: now - state.endedAgo },
      ])
      .execute();
  }
  return { id: id!, name };
}

async function config(t: TestApp, tenantId: number, networkId: number, memberId: number, version: number, applied: number) {
  await t.db
    .insertInto('member_config')
    .values({ tenant_id: tenantId, network_id: networkId, member_id: memberId, version, hash: `h${version}`, config: '{}', openvpn: '{}', update_time: Date.now(), applied_version: applied })
    .execute();
}

async function alert(t: TestApp, tenantId: number, ago: number) {
  const at = Date.now() - ago;
  await t.db
    .insertInto('monitor_alert')
    .values({ tenant_id: tenantId, dedupe_key: `k${at}${Math.random()}`, kind: 'router_offline', member_id: null, router_name: '', title: 'alert', text: '', at, create_time: at })
    .execute();
}

describeEachDatabase('GET /dashboard/overview and the filtered lists it links to', (t) => {
  let a = { id: 0, token: '' };
  let b = { id: 0, token: '' };
  /** A sub-account of A whose role lists network N2 only, and one whose role lists none (all). */
  let ramN2 = '';
  let ramAll = '';
  const names: Record<string, string> = {};
  let n2 = '';

  beforeAll(async () => {
    const ra = await newAccount(t());
    const rb = await newAccount(t());
    a = { id: ra.account.id, token: ra.token };
    b = { id: rb.account.id, token: rb.token };
    const hw = ROUTER_TYPE.hardware;
    const sw = ROUTER_TYPE.software;
    const DAY = 24 * HOUR;
    const h1 = await member(t(), a.id, hw, { online: true, createdAgo: 3 * DAY, seenAgo: 3 * DAY });
    const h2 = await member(t(), a.id, hw, { online: true, createdAgo: 3 * DAY, seenAgo: HOUR });
    // Offline, last seen two days ago: offline longer than a day.
    const h3 = await member(t(), a.id, hw, { createdAgo: 3 * DAY, seenAgo: 2 * DAY });
    // Its session began two days ago but ended an hour ago: not yet.
    const h4 = await member(t(), a.id, hw, { createdAgo: 3 * DAY, seenAgo: 2 * DAY, endedAgo: HOUR });
    // Never connected, added just now: not yet; added three days ago: yes.
    const h5 = await member(t(), a.id, hw, {});
    const h6 = await member(t(), a.id, hw, { createdAgo: 3 * DAY, seenAgo: null });
    const s1 = await member(t(), a.id, sw, { online: true, createdAgo: DAY + HOUR, seenAgo: HOUR });
    const s2 = await member(t(), a.id, sw, { createdAgo: 2 * DAY, seenAgo: 30 * HOUR });
    Object.assign(names, { h1: h1.name, h2: h2.name, h3: h3.name, h4: h4.name, h5: h5.name, h6: h6.name, s1: s1.name, s2: s2.name });

    const net1 = await seedNetwork(t(), a.id, { center: [h1.name], point: [h2.name, s1.name] });
    const net2 = await seedNetwork(t(), a.id, { center: [h3.name], point: [s2.name] });
    n2 = net2.network_number;
    await config(t(), a.id, net1.id, h1.id, 2, 2);
    await config(t(), a.id, net1.id, h2.id, 3, 1); // behind
    await config(t(), a.id, net1.id, s1.id, 1, 0); // behind (never applied)
    await config(t(), a.id, net2.id, h3.id, 2, 1); // behind
    await config(t(), a.id, net2.id, s2.id, 1, 1);
    await alert(t(), a.id, HOUR);
    await alert(t(), a.id, 23 * HOUR);
    await alert(t(), a.id, 25 * HOUR); // older than a day

    // Tenant B: a network, an online member behind on its configuration, an offline one, an alert.
    const bh = await member(t(), b.id, hw, { online: true });
    const bo = await member(t(), b.id, sw, { createdAgo: 3 * DAY, seenAgo: 2 * DAY });
    const bn = await seedNetwork(t(), b.id, { center: [bh.name], point: [bo.name] });
    await config(t(), b.id, bn.id, bh.id, 5, 4);
    await alert(t(), b.id, HOUR);

    ramN2 = await ramToken(t(), a.id, { ...FULL_ROLE, 'easylink.network': { create: 0, edit: 1, delete: 0, network: [n2] } });
    ramAll = await ramToken(t(), a.id);
  });

  const overviewFor = async (token: string) => {
    const res = await t().call(dashboardOverview, { token });
    expect(res.code).toBe(CODE.ok);
    return res.data!;
  };

  it('counts each figure of the tenant for its main account', async () => {
    const o = await overviewFor(a.token);
    expect(o).toEqual({
      networks: 2,
      members: { hardware: 6, software: 2 },
      online: { hardware: 2, software: 1 },
      behind: { hardware: 2, software: 1 },
      offline_day: { hardware: 2, software: 1 },
      alerts: 2,
      quota: {
        members: { used: 8, max: t().ctx.config.defaultPlan.network_router_count },
        networked: { used: 5, max: t().ctx.config.defaultPlan.network_router_count },
        centers: t().ctx.config.defaultPlan.network_center_count,
        ram: { used: 2, max: t().ctx.config.defaultPlan.ram_quantity },
      },
    });
  });

  it('shows another tenant only its own figures', async () => {
    const o = await overviewFor(b.token);
    expect(o).toMatchObject({
      networks: 1,
      members: { hardware: 1, software: 1 },
      online: { hardware: 1, software: 0 },
      behind: { hardware: 1, software: 0 },
      offline_day: { hardware: 0, software: 1 },
      alerts: 1,
      quota: { members: { used: 2 }, networked: { used: 2 }, ram: { used: 0 } },
    });
    const fresh = await newAccount(t());
    expect(await overviewFor(fresh.token)).toMatchObject({
      networks: 0,
      members: { hardware: 0, software: 0 },
      online: { hardware: 0, software: 0 },
      behind: { hardware: 0, software: 0 },
      offline_day: { hardware: 0, software: 0 },
      alerts: 0,
    });
  });

  it("limits a sub-account's networks and configurations to its role's networks, and shows it no sub-account quota", async () => {
    const limited = await overviewFor(ramN2);
    expect(limited).toMatchObject({
      networks: 1,
      members: { hardware: 6, software: 2 },
      online: { hardware: 2, software: 1 },
      behind: { hardware: 1, software: 0 },
      offline_day: { hardware: 2, software: 1 },
      alerts: 2,
      quota: { members: { used: 8 }, ram: null },
    });
    const all = await overviewFor(ramAll);
    expect(all).toMatchObject({ networks: 2, behind: { hardware: 2, software: 1 }, quota: { ram: null } });
  });

  it('shows a role-scoped API token what a sub-account of its role sees, and a read-only token what the main account sees', async () => {
    const made = async (body: Record<string, unknown>) => {
      const res = await t().call(createApiToken, { token: a.token, body: { name: '总览', expires_days: 30, ...body } });
      expect(res.code).toBe(CODE.ok);
      return res.data!.token;
    };
    const roleRes = await t().call(createRole, {
      token: a.token,
      body: { name: `总览角色${Date.now() % 100_000}`, note: '', auth: { ...FULL_ROLE, 'easylink.network': { create: 0, edit: 1, delete: 0, network: [n2] } } },
    });
    expect(roleRes.code).toBe(CODE.ok);
    const roleId = (await t().db.selectFrom('ram_role').select('id').where('tenant_id', '=', a.id).orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    expect(await overviewFor(await made({ scope: 'role', role_id: roleId }))).toMatchObject({ networks: 1, quota: { ram: null } });
    const read = await overviewFor(await made({ scope: 'read' }));
    expect(read).toMatchObject({ networks: 2 });
    expect(read.quota.ram).not.toBeNull();
  });

  it('refuses a call without a token', async () => {
    const res = await t().call(dashboardOverview, {});
    expect(res.code).toBe(CODE.tokenInvalid);
  });

  describe('the member list filtered by state', () => {
    const listed = async (token: string, type: number, state: MemberState) => {
      const res = await t().call(listRouters, { token, query: { type, state, page: 1 } });
      expect(res.code).toBe(CODE.ok);
      return { names: res.data!.map((r) => r.router_name).sort(), count: res.count };
    };
    const sorted = (...keys: string[]) => keys.map((k) => names[k]!).sort();

    it('lists the members each figure counts, with the same total', async () => {
      const hw = ROUTER_TYPE.hardware;
      const sw = ROUTER_TYPE.software;
      expect(await listed(a.token, hw, MEMBER_STATE.online)).toEqual({ names: sorted('h1', 'h2'), count: 2 });
      expect(await listed(a.token, sw, MEMBER_STATE.online)).toEqual({ names: sorted('s1'), count: 1 });
      expect(await listed(a.token, hw, MEMBER_STATE.behind)).toEqual({ names: sorted('h2', 'h3'), count: 2 });
      expect(await listed(a.token, sw, MEMBER_STATE.behind)).toEqual({ names: sorted('s1'), count: 1 });
      expect(await listed(a.token, hw, MEMBER_STATE.offlineDay)).toEqual({ names: sorted('h3', 'h6'), count: 2 });
      expect(await listed(a.token, sw, MEMBER_STATE.offlineDay)).toEqual({ names: sorted('s2'), count: 1 });
      expect(await listed(ramN2, hw, MEMBER_STATE.behind)).toEqual({ names: sorted('h3'), count: 1 });
      expect(await listed(b.token, hw, MEMBER_STATE.online)).toMatchObject({ count: 1 });
      expect((await listed(b.token, hw, MEMBER_STATE.online)).names).not.toContain(names.h1);
    });

    it('combines the state with the search', async () => {
      const res = await t().call(listRouters, { token: a.token, query: { type: ROUTER_TYPE.hardware, state: MEMBER_STATE.online, search: names.h2!, page: 1 } });
      expect(res).toMatchObject({ code: CODE.ok, count: 1 });
      expect(res.data!.map((r) => r.router_name)).toEqual([names.h2]);
    });

    it('refuses an unknown state with the contract message', async () => {
      const res = await t().call(listRouters, { token: a.token, query: { type: 1, state: 'asleep', page: 1 } as never });
      expect(res).toMatchObject({ code: CODE.invalid, msg: M.memberStateInvalid });
    });
  });

  describe('the message centre filtered by type', () => {
    it("keeps the tenant's alert messages", async () => {
      const now = Date.now();
      await t()
        .db.insertInto('message')
        .values([
          { tenant_id: a.id, title: '告警一', content: '', type: 'alert', status: 0, create_time: now },
          { tenant_id: a.id, title: '系统一', content: '', type: 'system', status: 0, create_time: now },
          { tenant_id: b.id, title: '告警二', content: '', type: 'alert', status: 0, create_time: now },
        ])
        .execute();
      const res = await t().call(listMessages, { token: a.token, query: { page: 1, type: 'alert' } });
      expect(res).toMatchObject({ code: CODE.ok, count: 1 });
      expect(res.data!.map((m) => m.title)).toEqual(['告警一']);
      const all = await t().call(listMessages, { token: a.token, query: { page: 1 } });
      expect(all.data!.map((m) => m.title)).toEqual(expect.arrayContaining(['告警一', '系统一']));
      const bad = await t().call(listMessages, { token: a.token, query: { page: 1, type: 'nope' } as never });
      expect(bad).toMatchObject({ code: CODE.invalid, msg: M.messageTypeInvalid });
    });
  });
});
