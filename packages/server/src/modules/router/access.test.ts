import {
  addRouter,
  batchAddRouters,
  batchDeleteRouters,
  batchDeleteRoutersFile,
  batchStatus,
  DELETE_COLUMNS,
  deleteRouter,
  exportRouters,
  IMPORT_COLUMNS,
  listRouters,
  M,
  noteRouter,
  routerHardware,
  routerInfo,
  routerMembers,
  routerPassword,
  routerPhone,
  routerQuantity,
  routerSoftware,
  softwareTemplate,
  updateRouterStatus,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import type { RoleAuth } from '../../core/actor';
import { addMember, freshName, membersOf, upload, workbook } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

const NO_ROUTER: RoleAuth = { ...FULL_ROLE, 'easylink.router': { create: 0, edit: 0, delete: 0 } };

describeEachDatabase("members: another tenant's members are out of reach", (t) => {
  let a: Main;
  let b: Main;
  let name: string;
  let hw: string;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    name = await addMember(t(), a.token, { note: '甲的成员' });
    hw = await addMember(t(), a.token, { router_type: 1 });
  });

  it('B sees none of them in lists, pickers, counts, info or export', async () => {
    for (const type of [1, 2]) {
      expect(await t().call(listRouters, { token: b.token, query: { type } })).toMatchObject({ code: 200, data: [], count: 0 });
      expect(await t().call(listRouters, { token: b.token, query: { type, search: name } })).toMatchObject({ data: [], count: 0 });
    }
    expect(await t().call(routerMembers, { token: b.token })).toMatchObject({ data: { router: [], app: [] } });
    expect((await t().call(routerSoftware, { token: b.token })).data).toEqual([]);
    expect((await t().call(routerHardware, { token: b.token })).data).toEqual([]);
    expect(await t().call(routerQuantity, { token: b.token })).toMatchObject({ data: { hardware: 0, software: 0 } });
    for (const n of [name, hw]) expect(await t().call(routerInfo, { token: b.token, query: { router_name: n } })).toMatchObject({ code: 204, msg: M.memberNotFound });
    expect(await t().call(exportRouters, { token: b.token, query: { type: 2 } })).toMatchObject({ code: 422, msg: M.exportEmpty });
  });

  it('B changes or deletes none of them by name', async () => {
    const before = await membersOf(t(), a.account.id);
    const calls: [typeof noteRouter | typeof deleteRouter | typeof updateRouterStatus | typeof routerPassword | typeof routerPhone, Record<string, unknown>][] = [
      [noteRouter, { router_name: name, note: 'B改的' }],
      [updateRouterStatus, { router_name: name }],
      [routerPassword, { router_name: name, password: 'bchanged1' }],
      [routerPhone, { router_name: name, type: 1, phone: '13712345678', code: '123456' }],
      [routerPhone, { router_name: name, type: 1, phone: '', code: '' }],
      [deleteRouter, { router_name: name }],
      [deleteRouter, { router_name: hw }],
    ];
    for (const [endpoint, body] of calls) {
      expect({ path: endpoint.path, ...(await t().call(endpoint, { token: b.token, body })) }).toMatchObject({ path: endpoint.path, code: 204, msg: M.memberNotFound });
    }
    const res = await t().call(batchDeleteRouters, { token: b.token, body: { router_name: [name, hw] } });
    expect(res).toMatchObject({ data: { success: 0, fail: 2 } });
    const file = await upload(t(), batchDeleteRoutersFile.path, b.token, { filename: 'd.xlsx', body: await workbook(DELETE_COLUMNS, [[name]]) });
    expect(file).toMatchObject({ data: { success: 0, fail: 1, rows: [{ msg: M.memberNotFound }] } });
    expect(await membersOf(t(), a.account.id)).toEqual(before);
  });

  it("B's own member of the same name is B's, and A's stays A's", async () => {
    await addMember(t(), b.token, { username: name, note: '乙的成员' });
    expect((await t().call(routerInfo, { token: b.token, query: { router_name: name } })).data!.note).toBe('乙的成员');
    expect(await t().call(deleteRouter, { token: b.token, body: { router_name: name } })).toMatchObject({ code: 200 });
    expect((await t().call(routerInfo, { token: a.token, query: { router_name: name } })).data!.note).toBe('甲的成员');
  });
});

describeEachDatabase('members: sub-accounts act by their role', (t) => {
  let a: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    await t().db.updateTable('account').set({ network_router_count: 100 }).where('id', '=', a.account.id).execute();
  });

  it('a role without easylink.router.* reads the members but changes nothing (403)', async () => {
    const token = await ramToken(t(), a.account.id, NO_ROUTER);
    const name = await addMember(t(), a.token);
    expect((await t().call(listRouters, { token, query: { type: 2 } })).data!.map((r) => r.router_name)).toContain(name);
    expect(await t().call(routerInfo, { token, query: { router_name: name } })).toMatchObject({ code: 200 });
    expect((await t().call(softwareTemplate, { token })).file).toBeDefined();
    expect((await t().call(exportRouters, { token, query: { type: 2 } })).file).toBeDefined();

    const before = await membersOf(t(), a.account.id);
    const posts: [{ path: string; method: 'POST' }, unknown][] = [
      [addRouter, { router_type: 2, username: freshName(), password: 'pass1234' }],
      [noteRouter, { router_name: name, note: 'x' }],
      [updateRouterStatus, { router_name: name }],
      [routerPassword, { router_name: name, password: 'pass5678' }],
      [routerPhone, { router_name: name, type: 1, phone: '', code: '' }],
      [deleteRouter, { router_name: name }],
      [batchDeleteRouters, { router_name: [name] }],
    ];
    for (const [endpoint, body] of posts) {
      expect({ path: endpoint.path, ...(await t().call(endpoint as typeof addRouter, { token, body })) }).toMatchObject({ path: endpoint.path, code: 403, msg: M.deniedPermission });
    }
    const xlsx = { filename: 'x.xlsx', body: await workbook(IMPORT_COLUMNS, [[freshName(), 'pass1234']]) };
    expect(await upload(t(), batchAddRouters.path, token, xlsx)).toMatchObject({ code: 403, msg: M.deniedPermission });
    expect(await t().call(batchStatus, { token })).toMatchObject({ code: 403, msg: M.deniedPermission });
    expect(await upload(t(), batchDeleteRoutersFile.path, token, { filename: 'd.xlsx', body: await workbook(DELETE_COLUMNS, [[name]]) })).toMatchObject({ code: 403 });
    expect(await membersOf(t(), a.account.id)).toEqual(before);
  });

  it('each permission opens its calls', async () => {
    const only = (flags: Partial<RoleAuth['easylink.router']>): RoleAuth => ({ ...NO_ROUTER, 'easylink.router': { create: 0, edit: 0, delete: 0, ...flags } });
    const creator = await ramToken(t(), a.account.id, only({ create: 1 }));
    const name = freshName('byram');
    expect(await t().call(addRouter, { token: creator, body: { router_type: 2, username: name, password: 'pass1234' } })).toMatchObject({ code: 200 });
    const started = await upload(t(), batchAddRouters.path, creator, { filename: 'x.xlsx', body: await workbook(IMPORT_COLUMNS, [[freshName(), 'pass1234']]) });
    expect(started).toMatchObject({ code: 200, data: { id: expect.any(Number) } });
    expect(await t().call(batchStatus, { token: creator, query: { id: started.data!.id } })).toMatchObject({ code: 200, data: { id: started.data!.id, state: 'running' } });
    expect(await t().call(noteRouter, { token: creator, body: { router_name: name, note: 'x' } })).toMatchObject({ code: 403 });

    const editor = await ramToken(t(), a.account.id, only({ edit: 1 }));
    expect(await t().call(noteRouter, { token: editor, body: { router_name: name, note: '子账号改' } })).toMatchObject({ code: 200 });
    expect(await t().call(updateRouterStatus, { token: editor, body: { router_name: name } })).toMatchObject({ code: 200 });
    expect(await t().call(routerPassword, { token: editor, body: { router_name: name, password: 'pass5678' } })).toMatchObject({ code: 200 });
    expect(await t().call(deleteRouter, { token: editor, body: { router_name: name } })).toMatchObject({ code: 403 });

    const deleter = await ramToken(t(), a.account.id, only({ delete: 1 }));
    expect(await t().call(batchDeleteRouters, { token: deleter, body: { router_name: [name] } })).toMatchObject({ code: 200, data: { success: 1 } });
    // The sub-account's successful changes are in its operation log.
    await t().ctx.events.settle();
    const logged = await t().db.selectFrom('ram_log').select(['mode', 'action']).where('tenant_id', '=', a.account.id).execute();
    expect(logged.map((r) => `/${r.mode}/${r.action}`)).toEqual(expect.arrayContaining([addRouter.path, batchAddRouters.path, noteRouter.path, batchDeleteRouters.path]));
  });
});
