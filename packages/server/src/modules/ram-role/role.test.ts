import {
  CODE,
  createRam,
  createRole,
  deleteRole,
  editRole,
  fmt,
  LIMITS,
  listRoles,
  M,
  roleInfo,
  selectRoles,
  type Endpoint,
  type RoleAuth,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../../test/networks';

type Main = Awaited<ReturnType<typeof newAccount>>;

const NONE: RoleAuth = {
  'easylink.router': { create: 0, edit: 0, delete: 0 },
  'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
  monitor: { view: 1, create: 0, edit: 0, delete: 0 },
};

async function createThroughApi(t: TestApp, main: Main, name: string, auth: unknown = NONE, note = '') {
  const res = await t.call(createRole, { token: main.token, body: { name, note, auth } });
  if (res.code !== 200) throw new Error(`create role: ${res.msg}`);
  return res.data!.id;
}

/** A network of the tenant with this number (one fresh member in it). */
async function networkNumbered(t: TestApp, main: Main, network_number: string, name = '网络') {
  const [member] = await seedFreshMembers(t, main.account.id, 1);
  await seedNetwork(t, main.account.id, { network_number, name, center: [member!] });
}

const storedAuth = async (t: TestApp, id: number) =>
  JSON.parse((await t.db.selectFrom('ram_role').select('auth').where('id', '=', id).executeTakeFirstOrThrow()).auth) as RoleAuth;

describeEachDatabase('roles: /ram_role/create, /ram_role/info, /ram_role/lists, /ram_role/select', (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
    await networkNumbered(t(), main, 'N-100');
    await networkNumbered(t(), main, 'N-200');
  });

  it('creates a role and shows it whole', async () => {
    const auth: RoleAuth = {
      'easylink.router': { create: 1, edit: 1, delete: 0 },
      'easylink.network': { create: 1, edit: 1, delete: 1, network: [] },
      monitor: { view: 1, create: 1, edit: 0, delete: 1 },
    };
    const res = await t().call(createRole, { token: main.token, body: { name: ' 网络管理员 ', note: '管理全部网络', auth } });
    expect(res).toMatchObject({ code: 200, msg: M.saved });
    const info = await t().call(roleInfo, { token: main.token, query: { id: res.data!.id } });
    expect(info).toMatchObject({ code: 200 });
    expect(info.data).toEqual({
      id: res.data!.id,
      name: '网络管理员',
      note: '管理全部网络',
      auth,
      networks: [],
      create_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      update_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
  });

  it('keeps view on, drops empty network numbers and repeats, and clears network create when networks are specified', async () => {
    const id = await createThroughApi(t(), main, '指定网络', {
      'easylink.router': { create: 1 },
      'easylink.network': { create: 1, edit: 1, network: ['', ' N-100 ', 'N-200', 'N-100', '  '] },
      monitor: { view: 0, create: 1 },
    });
    expect(await storedAuth(t(), id)).toEqual({
      'easylink.router': { create: 1, edit: 0, delete: 0 },
      'easylink.network': { create: 0, edit: 1, delete: 0, network: ['N-100', 'N-200'] },
      monitor: { view: 1, create: 1, edit: 0, delete: 0 },
    });
    // Only empty numbers: no networks specified, create stays.
    const all = await createThroughApi(t(), main, '全部网络', { 'easylink.network': { create: 1, network: ['', ' '] } });
    expect((await storedAuth(t(), all))['easylink.network']).toEqual({ create: 1, edit: 0, delete: 0, network: [] });
    // No auth at all: nothing but view.
    expect(await storedAuth(t(), await createThroughApi(t(), main, '只读', undefined))).toEqual(NONE);
  });

  it('refuses bad input with its message, changing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, M.roleNameRequired],
      [{ name: '   ' }, M.roleNameRequired],
      [{}, M.roleNameRequired],
      [{ name: 'x'.repeat(LIMITS.roleNameMax + 1) }, fmt(M.roleNameTooLong, { n: LIMITS.roleNameMax })],
      [{ name: '角色', note: 'x'.repeat(LIMITS.roleNoteMax + 1) }, fmt(M.roleNoteTooLong, { n: LIMITS.roleNoteMax })],
      [{ name: '角色', auth: { 'easylink.network': { network: ['x'.repeat(LIMITS.networkNumberMax + 1)] } } }, fmt(M.roleNetworkTooLong, { n: LIMITS.networkNumberMax })],
      [
        { name: '角色', auth: { 'easylink.network': { network: Array.from({ length: LIMITS.roleNetworksMax + 1 }, (_, i) => `N${i}`) } } },
        fmt(M.roleNetworksTooMany, { n: LIMITS.roleNetworksMax }),
      ],
      [{ name: '角色', auth: { monitor: { create: 2 } } }, M.validationFailed],
      [{ name: '角色', auth: { 'easylink.router': { edit: '1' } } }, M.validationFailed],
      [{ name: '角色', auth: 'all' }, M.validationFailed],
      [{ name: '角色', auth: { 'easylink.network': { network: 'N1' } } }, M.validationFailed],
    ];
    for (const [body, msg] of cases) {
      const before = await t().snapshot();
      const res = await t().call(createRole, { token: main.token, body });
      expect({ body: JSON.stringify(body).slice(0, 80), code: res.code, msg: res.msg }).toEqual({ body: JSON.stringify(body).slice(0, 80), code: CODE.invalid, msg });
      expect(await t().snapshot()).toEqual(before);
    }
  });

  it("lists 10 per page newest first with search; select gives every role; only the tenant's own", async () => {
    const owner = await newAccount(t());
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await createThroughApi(t(), owner, i === 5 ? '财务_审计' : `角色${i}`, NONE, `备注${i}`));
    const other = await newAccount(t());
    await createThroughApi(t(), other, '别人的角色');

    const p1 = await t().call(listRoles, { token: owner.token, query: { page: 1 } });
    expect(p1).toMatchObject({ code: 200, count: 12 });
    expect(p1.data!.map((r) => r.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(p1.data![0]).toEqual({ id: ids[11], name: '角色11', note: '备注11', create_time: expect.any(String), update_time: expect.any(String) });
    const p2 = await t().call(listRoles, { token: owner.token, query: { page: 2 } });
    expect(p2.data!.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    const found = await t().call(listRoles, { token: owner.token, query: { page: 1, search: '角色1' } });
    expect(found.data!.map((r) => r.name).sort()).toEqual(['角色1', '角色10', '角色11']);
    expect((await t().call(listRoles, { token: owner.token, query: { page: 1, search: '_' } })).data!.map((r) => r.name)).toEqual(['财务_审计']);

    const sel = await t().call(selectRoles, { token: owner.token });
    expect(sel.code).toBe(200);
    expect(sel.data).toHaveLength(12);
    expect(sel.data!.map((r) => r.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(Object.keys(sel.data![0]!).sort()).toEqual(['id', 'name']);
  });

  it("answers 204 for another tenant's or an unknown role", async () => {
    const other = await newAccount(t());
    const theirs = await createThroughApi(t(), other, '别人的');
    expect(await t().call(roleInfo, { token: main.token, query: { id: theirs } })).toMatchObject({ code: CODE.notFound, msg: M.roleNotFound });
    expect(await t().call(roleInfo, { token: main.token, query: { id: 999999 } })).toMatchObject({ code: CODE.notFound });
  });
});

describeEachDatabase('roles: /ram_role/edit and /ram_role/delete', (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
    await networkNumbered(t(), main, 'N9');
  });

  it('edits name, note and permissions with the same rules as create', async () => {
    const id = await createThroughApi(t(), main, '旧名', NONE, '旧备注');
    const res = await t().call(editRole, {
      token: main.token,
      body: { id, name: '新名', note: '新备注', auth: { 'easylink.network': { create: 1, delete: 1, network: ['N9', ''] }, monitor: { view: 0, edit: 1 } } },
    });
    expect(res).toMatchObject({ code: 200, msg: M.updated });
    const info = await t().call(roleInfo, { token: main.token, query: { id } });
    expect(info.data).toMatchObject({
      name: '新名',
      note: '新备注',
      auth: {
        'easylink.router': { create: 0, edit: 0, delete: 0 },
        'easylink.network': { create: 0, edit: 0, delete: 1, network: ['N9'] },
        monitor: { view: 1, create: 0, edit: 1, delete: 0 },
      },
    });
  });

  it("refuses bad input and another tenant's or an unknown role, changing nothing", async () => {
    const id = await createThroughApi(t(), main, '不变');
    const other = await newAccount(t());
    const theirs = await createThroughApi(t(), other, '别人的');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ id, name: '' }, CODE.invalid, M.roleNameRequired],
      [{ id, name: '名', auth: { monitor: { delete: -1 } } }, CODE.invalid, M.validationFailed],
      [{ id: theirs, name: '偷改' }, CODE.notFound, M.roleNotFound],
      [{ id: 999999, name: '偷改' }, CODE.notFound, M.roleNotFound],
      [{ name: '无id' }, CODE.invalid, M.validationFailed],
    ];
    for (const [body, code, msg] of cases) {
      const before = await t().snapshot();
      const res = await t().call(editRole, { token: main.token, body });
      expect({ body, code: res.code, msg: res.msg }).toEqual({ body, code, msg });
      expect(await t().snapshot()).toEqual(before);
    }
  });

  it('deletes a role nobody has', async () => {
    const id = await createThroughApi(t(), main, '要删');
    expect(await t().call(deleteRole, { token: main.token, body: { id } })).toMatchObject({ code: 200, msg: M.deleted });
    expect(await t().call(roleInfo, { token: main.token, query: { id } })).toMatchObject({ code: CODE.notFound });
  });

  it('refuses to delete a role a sub-account has, and one of another tenant, changing nothing', async () => {
    const id = await createThroughApi(t(), main, '在用');
    const made = await t().call(createRam, { token: main.token, body: { role_id: id, nickname: '用户', username: 'roleuser1', password: 'pass1234' } });
    expect(made.code).toBe(200);
    const other = await newAccount(t());
    const theirs = await createThroughApi(t(), other, '别人的');
    const cases: [number, number, string][] = [
      [id, CODE.invalid, M.roleInUse],
      [theirs, CODE.notFound, M.roleNotFound],
      [999999, CODE.notFound, M.roleNotFound],
    ];
    for (const [target, code, msg] of cases) {
      const before = await t().snapshot();
      expect(await t().call(deleteRole, { token: main.token, body: { id: target } })).toMatchObject({ code, msg });
      expect(await t().snapshot()).toEqual(before);
    }
  });
});

describeEachDatabase('sub-accounts cannot manage roles', (t) => {
  it('refuses a sub-account every /ram_role call with 403, changing nothing', async () => {
    const main = await newAccount(t());
    const ram = await newRamAccount(t(), main.account.id);
    const token = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    const calls: [Endpoint, Record<string, unknown>][] = [
      [listRoles, { page: 1 }],
      [roleInfo, { id: ram.roleId }],
      [selectRoles, {}],
      [createRole, { name: '越权', auth: NONE }],
      [editRole, { id: ram.roleId, name: '越权', auth: NONE }],
      [deleteRole, { id: ram.roleId }],
    ];
    for (const [endpoint, input] of calls) {
      const before = await t().snapshot();
      const res = await t().call(endpoint, endpoint.method === 'GET' ? { token, query: input } : { token, body: input });
      expect({ path: endpoint.path, code: res.code, msg: res.msg }).toEqual({ path: endpoint.path, code: CODE.forbidden, msg: M.deniedMainOnly });
      expect(await t().snapshot()).toEqual(before);
    }
  });
});

describeEachDatabase("roles: network numbers name the tenant's networks", (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
  });

  const limitedTo = (network: string[]) => ({ 'easylink.network': { edit: 1, network } });

  it('refuses an unknown number and one of another tenant with the number in the message, changing nothing', async () => {
    await networkNumbered(t(), main, 'NOURS1');
    const other = await newAccount(t());
    await networkNumbered(t(), other, 'NTHEIRS1');
    const id = await createThroughApi(t(), main, '改网络', limitedTo(['NOURS1']));
    for (const network of [['NOURS1', 'NUNKNOWN'], ['NTHEIRS1'], [' NTHEIRS1 ', 'NOURS1']]) {
      const missing = network.map((n) => n.trim()).find((n) => n !== 'NOURS1')!;
      const before = await t().snapshot();
      expect(await t().call(createRole, { token: main.token, body: { name: '越界', auth: limitedTo(network) } })).toMatchObject({
        code: CODE.invalid,
        msg: fmt(M.roleNetworkMissing, { n: missing }),
      });
      expect(await t().call(editRole, { token: main.token, body: { id, name: '越界', auth: limitedTo(network) } })).toMatchObject({
        code: CODE.invalid,
        msg: fmt(M.roleNetworkMissing, { n: missing }),
      });
      expect(await t().snapshot()).toEqual(before);
    }
  });

  it("shows the role's networks by name; a deleted network keeps its number with an empty name and may stay in the role", async () => {
    await networkNumbered(t(), main, 'NKEEP1', '总部网络');
    await networkNumbered(t(), main, 'NGONE1', '将删除');
    await networkNumbered(t(), main, 'NLATER1', '后加的');
    const id = await createThroughApi(t(), main, '两张网', limitedTo(['NKEEP1', 'NGONE1']));
    const info = await t().call(roleInfo, { token: main.token, query: { id } });
    expect(info.data!.networks).toEqual([
      { network_number: 'NKEEP1', network_name: '总部网络' },
      { network_number: 'NGONE1', network_name: '将删除' },
    ]);

    await t().db.deleteFrom('network').where('network_number', '=', 'NGONE1').execute();
    const after = await t().call(roleInfo, { token: main.token, query: { id } });
    expect(after.data!.networks).toEqual([
      { network_number: 'NKEEP1', network_name: '总部网络' },
      { network_number: 'NGONE1', network_name: '' },
    ]);
    expect(after.data!.auth['easylink.network'].network).toEqual(['NKEEP1', 'NGONE1']);

    // Saving the role again keeps it restricted to the deleted network too; a new role cannot name it.
    expect(await t().call(editRole, { token: main.token, body: { id, name: '两张网', auth: limitedTo(['NKEEP1', 'NGONE1', 'NLATER1']) } })).toMatchObject({ code: 200 });
    expect((await storedAuth(t(), id))['easylink.network'].network).toEqual(['NKEEP1', 'NGONE1', 'NLATER1']);
    expect(await t().call(createRole, { token: main.token, body: { name: '新角色', auth: limitedTo(['NGONE1']) } })).toMatchObject({
      code: CODE.invalid,
      msg: fmt(M.roleNetworkMissing, { n: 'NGONE1' }),
    });
  });
});

describeEachDatabase('roles: a name is unique in the tenant without regard to case', (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
  });

  const names = async () => (await t().db.selectFrom('ram_role').select('name').where('tenant_id', '=', main.account.id).orderBy('id').execute()).map((r) => r.name);

  it('refuses a create with a name the tenant has, whatever its case and spaces, changing nothing', async () => {
    await createThroughApi(t(), main, 'Ops 运维');
    for (const name of ['Ops 运维', ' ops 运维 ', 'OPS 运维']) {
      expect(await t().call(createRole, { token: main.token, body: { name, note: '', auth: NONE } })).toMatchObject({ code: CODE.invalid, msg: M.roleNameTaken });
    }
    expect(await names()).toEqual(['Ops 运维']);
    const select = await t().call(selectRoles, { token: main.token });
    expect(select.data!.map((r) => r.name)).toEqual(['Ops 运维']);
  });

  it("refuses an edit to another role's name, and accepts a role keeping or recasing its own", async () => {
    const first = await createThroughApi(t(), main, '审计员');
    const second = await createThroughApi(t(), main, '值班员', NONE, '夜班');
    const refused = await t().call(editRole, { token: main.token, body: { id: second, name: '审计员', note: '改了', auth: NONE } });
    expect(refused).toMatchObject({ code: CODE.invalid, msg: M.roleNameTaken });
    expect((await t().call(roleInfo, { token: main.token, query: { id: second } })).data).toMatchObject({ name: '值班员', note: '夜班' });
    expect(await t().call(editRole, { token: main.token, body: { id: first, name: '审计员', note: '同名保存', auth: NONE } })).toMatchObject({ code: 200 });
    expect(await t().call(editRole, { token: main.token, body: { id: second, name: '值班员X', note: '', auth: NONE } })).toMatchObject({ code: 200 });
    expect(await t().call(editRole, { token: main.token, body: { id: second, name: '值班员x', note: '', auth: NONE } })).toMatchObject({ code: 200 });
    expect((await t().call(roleInfo, { token: main.token, query: { id: second } })).data).toMatchObject({ name: '值班员x' });
  });

  it('lets another tenant use the same name', async () => {
    const other = await newAccount(t());
    await createThroughApi(t(), main, '共用名');
    expect(await t().call(createRole, { token: other.token, body: { name: '共用名', note: '', auth: NONE } })).toMatchObject({ code: 200 });
  });

  it('keeps one role when two creates with the same name race', async () => {
    const body = { name: '赛跑', note: '', auth: NONE };
    const answers = await Promise.all([t().call(createRole, { token: main.token, body }), t().call(createRole, { token: main.token, body: { ...body, name: '赛跑'.toUpperCase() } })]);
    expect(answers.map((a) => a.code).sort()).toEqual([200, CODE.invalid]);
    expect(answers.find((a) => a.code !== 200)).toMatchObject({ msg: M.roleNameTaken });
    expect((await names()).filter((n) => n === '赛跑')).toHaveLength(1);
  });
});
