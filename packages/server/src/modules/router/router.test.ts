import {
  deleteRouter,
  listRouters,
  M,
  noteRouter,
  routerHardware,
  routerInfo,
  routerMembers,
  routerPassword,
  routerQuantity,
  routerSoftware,
  updateRouterStatus,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { verifyPassword } from '../../core/passwords';
import { addMember, freshName, membersOf } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** A network of the tenant with members, made directly in the database (the network calls have their own tests). */
async function newNetwork(t: TestApp, tenantId: number, name: string, memberNames: string[]) {
  const now = Date.now();
  const net = await t.db
    .insertInto('network')
    .values({ tenant_id: tenantId, network_number: `N${freshName('x')}`, network_name: name, create_time: now, update_time: now })
    .returning(['id', 'network_number'])
    .executeTakeFirstOrThrow();
  for (const [i, n] of memberNames.entries()) {
    const m = await t.db.selectFrom('member').select('id').where('tenant_id', '=', tenantId).where('router_key', '=', n.toLowerCase()).executeTakeFirstOrThrow();
    await t.db.insertInto('network_member').values({ tenant_id: tenantId, network_id: net.id, member_id: m.id, member_type: i === 0 ? 'center' : 'point', create_time: now }).execute();
  }
  return net;
}

const setPlan = (t: TestApp, tenantId: number, count: number) => t.db.updateTable('account').set({ network_router_count: count }).where('id', '=', tenantId).execute();

describeEachDatabase('members: /router/lists, /router/member, /router/quantity, /router/software, /router/hardware', (t) => {
  let a: Main;
  const hardware: string[] = [];
  const software: string[] = [];

  beforeAll(async () => {
    a = await newAccount(t());
    await setPlan(t(), a.account.id, 100);
    for (let i = 0; i < 3; i++) hardware.push(await addMember(t(), a.token, { router_type: 1, username: freshName('hw'), password: 'devsecret1', note: `机房${i}` }));
    for (let i = 0; i < 12; i++) software.push(await addMember(t(), a.token, { username: freshName('sw'), note: i === 4 ? '财务部门' : '' }));
  });

  it('lists one tab, newest first, 10 a page, with the count', async () => {
    const first = await t().call(listRouters, { token: a.token, query: { type: 2, page: 1 } });
    expect(first).toMatchObject({ code: 200, count: 12 });
    expect(first.data!.map((r) => r.router_name)).toEqual([...software].reverse().slice(0, 10));
    const second = await t().call(listRouters, { token: a.token, query: { type: 2, page: 2 } });
    expect(second.data!.map((r) => r.router_name)).toEqual([...software].reverse().slice(10));
    expect(second.count).toBe(12);
    const past = await t().call(listRouters, { token: a.token, query: { type: 2, page: 3 } });
    expect(past).toMatchObject({ code: 200, data: [], count: 12 });

    const hw = await t().call(listRouters, { token: a.token, query: { type: 1 } });
    expect(hw.count).toBe(3);
    expect(hw.data![0]).toMatchObject({ router_name: hardware[2], router_type: 1, note: '机房2', phone: '', area_number: '', online_status: 0, status: 1, source: 'console' });
    expect(hw.data![0]!.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('searches the name (any case), the note and the phone; % and _ are taken literally', async () => {
    const byName = await t().call(listRouters, { token: a.token, query: { type: 2, search: software[3]!.toUpperCase() } });
    expect(byName.data!.map((r) => r.router_name)).toEqual([software[3]]);
    expect(byName.count).toBe(1);
    const byNote = await t().call(listRouters, { token: a.token, query: { type: 2, search: '财务' } });
    expect(byNote.data!.map((r) => r.router_name)).toEqual([software[4]]);
    const wild = await t().call(listRouters, { token: a.token, query: { type: 2, search: '%' } });
    expect(wild).toMatchObject({ data: [], count: 0 });
    // A full page: the total is counted; a last page tells it.
    expect(await t().call(listRouters, { token: a.token, query: { type: 2, search: 'sw', page: 1 } })).toMatchObject({ count: 12 });
    const many = await t().call(listRouters, { token: a.token, query: { type: 2, search: 'sw', page: 2 } });
    expect(many).toMatchObject({ count: 12 });
    expect(many.data).toHaveLength(2);
    const beyond = await t().call(listRouters, { token: a.token, query: { type: 2, search: 'sw', page: 5 } });
    expect(beyond).toMatchObject({ data: [], count: 12 });
    // The hardware tab does not show software members.
    const other = await t().call(listRouters, { token: a.token, query: { type: 1, search: software[3]! } });
    expect(other).toMatchObject({ data: [], count: 0 });
  });

  it('finds members by any part of 3 characters or more, and follows changes of note and phone', async () => {
    const names = async (search: string) => (await t().call(listRouters, { token: a.token, query: { type: 2, search } })).data!.map((r) => r.router_name);
    const name = await addMember(t(), a.token, { username: freshName('Find'), note: '市场部-华东区' });
    expect(await names(name.slice(2, 9).toUpperCase())).toEqual([name]);
    expect(await names('部-华东')).toEqual([name]);
    expect(await names('财务部门')).toEqual([software[4]]);
    for (const literal of ['%%%', 'f_n', '"部-', "d'x"]) expect(await names(literal)).toEqual([]);
    await t().call(noteRouter, { token: a.token, body: { router_name: name, note: '客服"一组"' } });
    expect(await names('华东区')).toEqual([]);
    expect(await names('"一组"')).toEqual([name]);
    const mobile = `139${String(Date.now()).slice(-8)}`;
    await t().db.updateTable('member').set({ phone: `+86 ${mobile}`, area_number: '86' }).where('tenant_id', '=', a.account.id).where('router_key', '=', name.toLowerCase()).execute();
    expect(await names(mobile.slice(3))).toEqual([name]);
    expect(await names(`+86 ${mobile.slice(0, 5)}`)).toEqual([name]);
    await t().call(deleteRouter, { token: a.token, body: { router_name: name } });
    expect(await names('客服"')).toEqual([]);
  });

  it('refuses a wrong type or page with the rule of the field', async () => {
    expect(await t().call(listRouters, { token: a.token, query: { type: 3 } })).toMatchObject({ code: 422, msg: M.memberTypeInvalid });
    expect(await t().call(listRouters, { token: a.token, query: { type: 1, page: 0 } })).toMatchObject({ code: 422, msg: M.pageInvalid });
  });

  it('answers every member for the pickers, hardware and software apart', async () => {
    const res = await t().call(routerMembers, { token: a.token });
    expect(res.data!.router.map((r) => r.router_name).sort()).toEqual([...hardware].sort());
    expect(res.data!.app.map((r) => r.router_name).sort()).toEqual([...software].sort());
    expect(res.data!.router[0]).toEqual({ router_name: hardware[2], note: '机房2', router_type: 1, online: 0 });
  });

  it('answers one kind for selects, with a search', async () => {
    const sw = await t().call(routerSoftware, { token: a.token });
    expect(sw.data!.map((r) => r.router_name).sort()).toEqual([...software].sort());
    const hw = await t().call(routerHardware, { token: a.token, query: { search: hardware[1]! } });
    expect(hw.data!.map((r) => r.router_name)).toEqual([hardware[1]]);
  });

  it('counts members by kind against the plan; software_surplus is never negative', async () => {
    expect(await t().call(routerQuantity, { token: a.token })).toMatchObject({ code: 200, data: { hardware: 3, software: 12, max: 100, software_surplus: 85 } });
    await setPlan(t(), a.account.id, 10);
    expect(await t().call(routerQuantity, { token: a.token })).toMatchObject({ data: { hardware: 3, software: 12, max: 10, software_surplus: 0 } });
    await setPlan(t(), a.account.id, 100);
  });

  it('keeps member_count equal to the members through adds and deletes', async () => {
    const counted = async () =>
      (await t().db.selectFrom('member_count').select(['router_type', 'n']).where('tenant_id', '=', a.account.id).orderBy('router_type').execute()).map((r) => [r.router_type, Number(r.n)]);
    const real = async () =>
      (
        await t()
          .db.selectFrom('member')
          .select(['router_type', (eb) => eb.fn.countAll<number>().as('n')])
          .where('tenant_id', '=', a.account.id)
          .groupBy('router_type')
          .orderBy('router_type')
          .execute()
      ).map((r) => [r.router_type, Number(r.n)]);
    expect(await counted()).toEqual(await real());
    const extra = await addMember(t(), a.token);
    await t().call(deleteRouter, { token: a.token, body: { router_name: software[0]! } });
    await t().call(deleteRouter, { token: a.token, body: { router_name: hardware[0]! } });
    expect(await counted()).toEqual([
      [1, 2],
      [2, 12],
    ]);
    expect(await counted()).toEqual(await real());
    await t().call(deleteRouter, { token: a.token, body: { router_name: extra } });
    software.shift();
    hardware.shift();
  });
});

describeEachDatabase('members: /router/info, /router/note, /router/update_status, /router/password, /router/delete', (t) => {
  let a: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    await setPlan(t(), a.account.id, 50);
  });

  it('shows a member with the networks it is in and their member counts', async () => {
    const hw = await addMember(t(), a.token, { router_type: 1, username: freshName('Edge'), password: 'devsecret1', note: '总部' });
    const sw1 = await addMember(t(), a.token);
    const sw2 = await addMember(t(), a.token);
    const n1 = await newNetwork(t(), a.account.id, '总部网络', [hw, sw1, sw2]);
    const n2 = await newNetwork(t(), a.account.id, '分部网络', [hw]);
    await newNetwork(t(), a.account.id, '无关网络', [sw1]);
    const res = await t().call(routerInfo, { token: a.token, query: { router_name: hw.toLowerCase() } });
    expect(res).toMatchObject({
      code: 200,
      data: {
        router_name: hw,
        router_type: 1,
        note: '总部',
        router_model: '',
        router_ipv4: '',
        router_mac: '',
        online_time: '',
        network: [
          { network_name: '总部网络', network_number: n1.network_number, network_member_count: 3 },
          { network_name: '分部网络', network_number: n2.network_number, network_member_count: 1 },
        ],
      },
    });
  });

  it("shows a sub-account only the networks of its role's list (all when the list is empty)", async () => {
    const hw = await addMember(t(), a.token, { router_type: 1, username: freshName('Role') });
    const n1 = await newNetwork(t(), a.account.id, '可见网络', [hw]);
    await newNetwork(t(), a.account.id, '不可见网络', [hw]);
    const limited = await newRamAccount(t(), a.account.id, { auth: { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: [n1.network_number] } } });
    const token = (await signIn(t(), limited.login, limited.password, { ram: true })).data!.access_token;
    const seen = await t().call(routerInfo, { token, query: { router_name: hw } });
    expect(seen.data!.network.map((n) => n.network_name)).toEqual(['可见网络']);
    const all = await newRamAccount(t(), a.account.id);
    const allToken = (await signIn(t(), all.login, all.password, { ram: true })).data!.access_token;
    expect((await t().call(routerInfo, { token: allToken, query: { router_name: hw } })).data!.network).toHaveLength(2);
  });

  it('answers 204 for an unknown member', async () => {
    expect(await t().call(routerInfo, { token: a.token, query: { router_name: 'nosuchmember' } })).toMatchObject({ code: 204, msg: M.memberNotFound });
  });

  it('saves a note of at most 24 characters', async () => {
    const name = await addMember(t(), a.token);
    expect(await t().call(noteRouter, { token: a.token, body: { router_name: name, note: '  研发部-张三  ' } })).toMatchObject({ code: 200, msg: M.saved });
    expect((await t().call(routerInfo, { token: a.token, query: { router_name: name } })).data!.note).toBe('研发部-张三');
    const before = await membersOf(t(), a.account.id);
    expect(await t().call(noteRouter, { token: a.token, body: { router_name: name, note: 'x'.repeat(25) } })).toMatchObject({ code: 422, msg: M.memberNoteTooLong });
    expect(await t().call(noteRouter, { token: a.token, body: { router_name: 'nosuch', note: 'x' } })).toMatchObject({ code: 204, msg: M.memberNotFound });
    expect(await membersOf(t(), a.account.id)).toEqual(before);
  });

  it('toggles a software member between enabled and disabled; hardware refused', async () => {
    const name = await addMember(t(), a.token);
    expect(await t().call(updateRouterStatus, { token: a.token, body: { router_name: name } })).toMatchObject({ code: 200, msg: M.memberStatusDisabled, data: { status: 0 } });
    expect((await t().call(routerInfo, { token: a.token, query: { router_name: name } })).data!.status).toBe(0);
    expect(await t().call(updateRouterStatus, { token: a.token, body: { router_name: name } })).toMatchObject({ code: 200, msg: M.memberStatusEnabled, data: { status: 1 } });
    const hw = await addMember(t(), a.token, { router_type: 1, username: freshName('hw') });
    expect(await t().call(updateRouterStatus, { token: a.token, body: { router_name: hw } })).toMatchObject({ code: 422, msg: M.memberSoftwareOnly });
  });

  it("sets a software member's password; hardware refused; the rule of the field", async () => {
    const name = await addMember(t(), a.token);
    expect(await t().call(routerPassword, { token: a.token, body: { router_name: name, password: 'newpass99' } })).toMatchObject({ code: 200, msg: M.memberPasswordChanged });
    const row = await t().db.selectFrom('member').select('secret_hash').where('router_key', '=', name.toLowerCase()).where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
    expect(await verifyPassword('newpass99', row.secret_hash)).toBe(true);
    expect(await t().call(routerPassword, { token: a.token, body: { router_name: name, password: '12345' } })).toMatchObject({ code: 422, msg: M.memberPasswordLength });
    expect(await t().call(routerPassword, { token: a.token, body: { router_name: name, password: '' } })).toMatchObject({ code: 422, msg: M.memberPasswordRequired });
    const hw = await addMember(t(), a.token, { router_type: 1, username: freshName('hw') });
    expect(await t().call(routerPassword, { token: a.token, body: { router_name: hw, password: 'newpass99' } })).toMatchObject({ code: 422, msg: M.memberSoftwareOnly });
    // A member imported from the directory signs in with the directory's password: none is set here.
    const imported = await addMember(t(), a.token);
    await t().db.updateTable('member').set({ source: 'ldap' }).where('router_key', '=', imported.toLowerCase()).where('tenant_id', '=', a.account.id).execute();
    const before = await t().snapshot();
    expect(await t().call(routerPassword, { token: a.token, body: { router_name: imported, password: 'newpass99' } })).toMatchObject({ code: 422, msg: M.memberDirectoryPassword });
    expect(await t().snapshot()).toEqual(before);
  });

  it('deletes a member and takes it out of its networks', async () => {
    const hw = await addMember(t(), a.token, { router_type: 1, username: freshName('hw') });
    const sw = await addMember(t(), a.token);
    const net = await newNetwork(t(), a.account.id, '删除测试', [hw, sw]);
    expect(await t().call(deleteRouter, { token: a.token, body: { router_name: sw.toUpperCase() } })).toMatchObject({ code: 200, msg: M.deleted });
    expect(await t().call(routerInfo, { token: a.token, query: { router_name: sw } })).toMatchObject({ code: 204 });
    const left = await t().db.selectFrom('network_member').select('member_id').where('network_id', '=', (await t().db.selectFrom('network').select('id').where('network_number', '=', net.network_number).executeTakeFirstOrThrow()).id).execute();
    expect(left).toHaveLength(1);
    expect(await t().call(deleteRouter, { token: a.token, body: { router_name: hw } })).toMatchObject({ code: 200 });
    expect(await t().call(deleteRouter, { token: a.token, body: { router_name: hw } })).toMatchObject({ code: 204, msg: M.memberNotFound });
  });
});
