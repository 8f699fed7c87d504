import {
  accountInfo,
  changeRamPassword,
  CODE,
  createRam,
  deleteRam,
  editRam,
  fmt,
  LIMITS,
  listRam,
  M,
  ramDomain,
  ramInfo,
  ramLog,
  ramQuantity,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { startOfDay } from '../../core/time';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** A role of the tenant made directly in the database (the role calls have their own tests). */
async function newRole(t: TestApp, tenantId: number, name = '运维') {
  const now = Date.now();
  const auth = JSON.stringify({
    'easylink.router': { create: 1, edit: 1, delete: 1 },
    'easylink.network': { create: 0, edit: 1, delete: 0, network: [] },
    monitor: { view: 1, create: 0, edit: 0, delete: 0 },
  });
  const r = await t.db.insertInto('ram_role').values({ tenant_id: tenantId, name, name_key: name.toLowerCase(), note: '', auth, create_time: now, update_time: now }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

let seq = 0;
const uniqueName = (prefix = 'sub') => `${prefix}${Date.now() % 100000}${++seq}`;

/** Creates a sub-account through POST /ram/create and returns its id and sign-in name. */
async function createThroughApi(t: TestApp, main: Main, roleId: number, over: Partial<{ username: string; nickname: string; password: string }> = {}) {
  const body = { role_id: roleId, nickname: '张三', username: uniqueName(), password: 'pass1234', ...over };
  const res = await t.call(createRam, { token: main.token, body });
  if (res.code !== 200) throw new Error(`create: ${res.msg}`);
  return { id: res.data!.id, ...body, login: `${body.username}@${main.account.domain}` };
}

const ramToken = async (t: TestApp, login: string, password: string) => (await signIn(t, login, password, { ram: true })).data!.access_token;

describeEachDatabase('sub-accounts: /ram/domain, /ram/quantity, /ram/create, /ram/lists, /ram/info', (t) => {
  let main: Main;
  let roleId: number;

  beforeAll(async () => {
    main = await newAccount(t());
    roleId = await newRole(t(), main.account.id);
  });

  it("answers the tenant's domain and its quota from the default plan", async () => {
    expect(await t().call(ramDomain, { token: main.token })).toMatchObject({ code: 200, data: { domain: main.account.domain } });
    const fresh = await newAccount(t());
    expect(await t().call(ramQuantity, { token: fresh.token })).toMatchObject({ code: 200, data: { count: 0, max: t().ctx.config.defaultPlan.ram_quantity } });
  });

  it('creates a sub-account that signs in as name@domain and appears in the list, the info and the count', async () => {
    const before = (await t().call(ramQuantity, { token: main.token })).data!.count;
    const res = await t().call(createRam, {
      token: main.token,
      body: { role_id: roleId, nickname: '李四', username: 'OpsLi01', password: 'pass1234' },
    });
    expect(res).toMatchObject({ code: 200, msg: M.saved });
    const id = res.data!.id;
    const row = await t().db.selectFrom('ram_account').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: main.account.id, username: 'OpsLi01', username_key: 'opsli01', nickname: '李四', role_id: roleId, status: 1, login_time: null });
    expect(row.password_hash).not.toContain('pass1234');

    const info = await t().call(ramInfo, { token: main.token, query: { id } });
    expect(info.data).toEqual({
      id,
      username: 'OpsLi01',
      nickname: '李四',
      role_id: roleId,
      role_name: '运维',
      create_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      login_time: null,
    });
    expect((await t().call(ramQuantity, { token: main.token })).data!.count).toBe(before + 1);

    const login = await signIn(t(), `opsli01@${main.account.domain.toUpperCase()}`, 'pass1234', { ram: true });
    expect(login.code).toBe(200);
    expect(login.data!.user).toMatchObject({ ram: 1, nickname: '李四' });
    await t().ctx.events.settle();
    const after = await t().call(ramInfo, { token: main.token, query: { id } });
    expect(after.data!.login_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('refuses bad input with the form’s messages, changing nothing', async () => {
    const valid = { role_id: roleId, nickname: '王五', username: 'wangwu1', password: 'pass1234' };
    const other = await newAccount(t());
    const otherRole = await newRole(t(), other.account.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, role_id: undefined }, M.ramRoleRequired],
      [{ ...valid, role_id: 0 }, M.ramRoleRequired],
      [{ ...valid, nickname: '' }, M.ramNicknameRequired],
      [{ ...valid, nickname: '   ' }, M.ramNicknameRequired],
      [{ ...valid, nickname: '一二三四五六七八九十一二三' }, fmt(M.ramNicknameTooLong, { n: LIMITS.nicknameMax })],
      [{ ...valid, username: '' }, M.ramUsernameRequired],
      [{ ...valid, username: 'a'.repeat(LIMITS.ramUsernameMax + 1) }, fmt(M.ramUsernameRule, { n: LIMITS.ramUsernameMax })],
      [{ ...valid, username: 'wang@wu' }, fmt(M.ramUsernameRule, { n: LIMITS.ramUsernameMax })],
      [{ ...valid, username: '王五' }, fmt(M.ramUsernameRule, { n: LIMITS.ramUsernameMax })],
      [{ ...valid, password: '' }, M.ramPasswordRequired],
      [{ ...valid, password: undefined }, M.ramPasswordRequired],
      [{ ...valid, password: '12345' }, M.passwordLength],
      [{ ...valid, password: 'a'.repeat(19) }, M.passwordLength],
      [{ ...valid, role_id: otherRole }, M.ramRoleMissing],
      [{ ...valid, role_id: 99999 }, M.ramRoleMissing],
    ];
    for (const [body, msg] of cases) {
      const before = await t().snapshot();
      const res = await t().call(createRam, { token: main.token, body });
      expect({ body, code: res.code, msg: res.msg }).toEqual({ body, code: CODE.invalid, msg });
      expect(await t().snapshot()).toEqual(before);
    }
  });

  it('refuses a username the tenant already has, in any case; another tenant may use it', async () => {
    const first = await createThroughApi(t(), main, roleId, { username: 'SameName' });
    const before = await t().snapshot();
    const res = await t().call(createRam, { token: main.token, body: { role_id: roleId, nickname: '重复', username: 'samename', password: 'pass1234' } });
    expect(res).toMatchObject({ code: CODE.invalid, msg: M.ramUsernameTaken });
    expect(await t().snapshot()).toEqual(before);

    const other = await newAccount(t());
    const otherRole = await newRole(t(), other.account.id);
    expect((await t().call(createRam, { token: other.token, body: { role_id: otherRole, nickname: '同名', username: first.username, password: 'pass1234' } })).code).toBe(200);
  });

  it('refuses a sub-account beyond the quota', async () => {
    const small = await newAccount(t());
    const role = await newRole(t(), small.account.id);
    await t().db.updateTable('account').set({ ram_quantity: 2 }).where('id', '=', small.account.id).execute();
    await createThroughApi(t(), small, role);
    await createThroughApi(t(), small, role);
    expect(await t().call(ramQuantity, { token: small.token })).toMatchObject({ data: { count: 2, max: 2 } });
    const before = await t().snapshot();
    const res = await t().call(createRam, { token: small.token, body: { role_id: role, nickname: '超额', username: 'overquota1', password: 'pass1234' } });
    expect(res).toMatchObject({ code: CODE.invalid, msg: M.ramQuotaFull });
    expect(await t().snapshot()).toEqual(before);
  });

  it('never gives more than the quota to creates racing for the last place', async () => {
    const racer = await newAccount(t());
    const role = await newRole(t(), racer.account.id);
    await t().db.updateTable('account').set({ ram_quantity: 1 }).where('id', '=', racer.account.id).execute();
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => t().call(createRam, { token: racer.token, body: { role_id: role, nickname: '并发', username: `race${i}`, password: 'pass1234' } })),
    );
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    expect(results.filter((r) => r.code !== 200).every((r) => r.msg === M.ramQuotaFull)).toBe(true);
    expect(await t().call(ramQuantity, { token: racer.token })).toMatchObject({ data: { count: 1, max: 1 } });
  });

  it("lists 10 per page, newest first, searches names and nicknames, and shows only the tenant's own", async () => {
    const owner = await newAccount(t());
    const role = await newRole(t(), owner.account.id, '审计');
    await t().db.updateTable('account').set({ ram_quantity: 20 }).where('id', '=', owner.account.id).execute();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createThroughApi(t(), owner, role, { username: `lister${i}`, nickname: i === 3 ? '财务_小赵' : `成员${i}` })).id);
    const other = await newAccount(t());
    await createThroughApi(t(), other, await newRole(t(), other.account.id), { username: 'lister99' });

    const p1 = await t().call(listRam, { token: owner.token, query: { page: 1 } });
    expect(p1).toMatchObject({ code: 200, count: 12 });
    expect(p1.data!.map((r) => r.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(p1.data![0]).toMatchObject({ username: 'lister11', role_id: role, role_name: '审计' });
    const p2 = await t().call(listRam, { token: owner.token, query: { page: 2 } });
    expect(p2.data!.map((r) => r.id)).toEqual([ids[1], ids[0]]);

    const byName = await t().call(listRam, { token: owner.token, query: { page: 1, search: 'LISTER1' } });
    expect(byName.data!.map((r) => r.username).sort()).toEqual(['lister1', 'lister10', 'lister11']);
    expect(byName.count).toBe(3);
    const bySignIn = await t().call(listRam, { token: owner.token, query: { page: 1, search: `lister3@${owner.account.domain.toUpperCase()}` } });
    expect(bySignIn.data!.map((r) => r.username)).toEqual(['lister3']);
    const byNick = await t().call(listRam, { token: owner.token, query: { page: 1, search: '小赵' } });
    expect(byNick.data!.map((r) => r.username)).toEqual(['lister3']);
    // % and _ are plain characters in a search.
    expect((await t().call(listRam, { token: owner.token, query: { page: 1, search: '%' } })).count).toBe(0);
    expect((await t().call(listRam, { token: owner.token, query: { page: 1, search: '_' } })).data!.map((r) => r.username)).toEqual(['lister3']);
    expect((await t().call(listRam, { token: owner.token, query: { page: 0 } })).code).toBe(CODE.invalid);
  });

  it("answers 204 for another tenant's sub-account or an unknown id", async () => {
    const other = await newAccount(t());
    const theirs = await createThroughApi(t(), other, await newRole(t(), other.account.id));
    expect(await t().call(ramInfo, { token: main.token, query: { id: theirs.id } })).toMatchObject({ code: CODE.notFound, msg: M.ramNotFound });
    expect(await t().call(ramInfo, { token: main.token, query: { id: 999999 } })).toMatchObject({ code: CODE.notFound });
    expect((await t().call(ramInfo, { token: main.token, query: { id: 'x' } })).code).toBe(CODE.invalid);
  });
});

describeEachDatabase('sub-accounts: /ram/edit and /ram/delete', (t) => {
  let main: Main;
  let roleA: number;
  let roleB: number;

  beforeAll(async () => {
    main = await newAccount(t());
    roleA = await newRole(t(), main.account.id, '角色A');
    roleB = await newRole(t(), main.account.id, '角色B');
  });

  it('changes nickname and role; the username stays; no password keeps the old one and the sessions', async () => {
    const ram = await createThroughApi(t(), main, roleA);
    const token = await ramToken(t(), ram.login, ram.password);
    for (const password of [undefined, '']) {
      const res = await t().call(editRam, { token: main.token, body: { id: ram.id, role_id: roleB, nickname: '改名', username: 'hijacked1', ...(password === undefined ? {} : { password }) } });
      expect(res).toMatchObject({ code: 200, msg: M.updated });
    }
    expect((await t().call(ramInfo, { token: main.token, query: { id: ram.id } })).data).toMatchObject({ username: ram.username, nickname: '改名', role_id: roleB, role_name: '角色B' });
    expect((await t().call(accountInfo, { token })).code).toBe(200);
    expect((await signIn(t(), ram.login, ram.password, { ram: true })).code).toBe(200);
  });

  it("sets a new password: the sub-account's sessions end and only the new password signs in", async () => {
    const ram = await createThroughApi(t(), main, roleA);
    const token = await ramToken(t(), ram.login, ram.password);
    const mainBefore = await t().call(accountInfo, { token: main.token });
    const res = await t().call(editRam, { token: main.token, body: { id: ram.id, role_id: roleA, nickname: ram.nickname, password: 'newpass88' } });
    expect(res).toMatchObject({ code: 200 });
    expect((await t().call(accountInfo, { token })).code).toBe(CODE.tokenInvalid);
    expect((await signIn(t(), ram.login, ram.password, { ram: true })).msg).toBe(M.loginFailed);
    expect((await signIn(t(), ram.login, 'newpass88', { ram: true })).code).toBe(200);
    expect((await t().call(accountInfo, { token: main.token })).code).toBe(mainBefore.code);
  });

  it('refuses bad input, a foreign role and a foreign or unknown sub-account, changing nothing', async () => {
    const ram = await createThroughApi(t(), main, roleA);
    const other = await newAccount(t());
    const otherRole = await newRole(t(), other.account.id);
    const theirs = await createThroughApi(t(), other, otherRole);
    const valid = { id: ram.id, role_id: roleA, nickname: '新名字' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...valid, nickname: '' }, CODE.invalid, M.ramNicknameRequired],
      [{ ...valid, role_id: undefined }, CODE.invalid, M.ramRoleRequired],
      [{ ...valid, password: '123' }, CODE.invalid, M.passwordLength],
      [{ ...valid, role_id: otherRole }, CODE.invalid, M.ramRoleMissing],
      [{ ...valid, id: theirs.id, role_id: roleA }, CODE.notFound, M.ramNotFound],
      [{ ...valid, id: theirs.id, role_id: otherRole }, CODE.notFound, M.ramNotFound],
      [{ ...valid, id: 999999 }, CODE.notFound, M.ramNotFound],
      [{ ...valid, id: undefined }, CODE.invalid, M.validationFailed],
    ];
    for (const [body, code, msg] of cases) {
      const before = await t().snapshot();
      const res = await t().call(editRam, { token: main.token, body });
      expect({ body, code: res.code, msg: res.msg }).toEqual({ body, code, msg });
      expect(await t().snapshot()).toEqual(before);
    }
  });

  it('deletes a sub-account: its sessions end, it cannot sign in, the count drops, its log stays', async () => {
    const ram = await createThroughApi(t(), main, roleA);
    const token = await ramToken(t(), ram.login, ram.password);
    await t().call(changeRamPassword, { token, body: { old_password: ram.password, password: 'pass5678', reset_password: 'pass5678' } });
    const token2 = await ramToken(t(), ram.login, 'pass5678');
    const count = (await t().call(ramQuantity, { token: main.token })).data!.count;

    expect(await t().call(deleteRam, { token: main.token, body: { id: ram.id } })).toMatchObject({ code: 200, msg: M.deleted });
    expect((await t().call(accountInfo, { token: token2 })).code).toBe(CODE.tokenInvalid);
    expect((await signIn(t(), ram.login, 'pass5678', { ram: true })).msg).toBe(M.loginFailed);
    expect((await t().call(ramQuantity, { token: main.token })).data!.count).toBe(count - 1);
    expect(await t().call(ramInfo, { token: main.token, query: { id: ram.id } })).toMatchObject({ code: CODE.notFound });
    await t().ctx.events.settle();
    const logs = await t().db.selectFrom('ram_log').select(['mode', 'action']).where('ram_id', '=', ram.id).execute();
    expect(logs).toEqual([{ mode: 'ram', action: 'password' }]);
    // The name is free again.
    expect((await t().call(createRam, { token: main.token, body: { role_id: roleA, nickname: '再来', username: ram.username, password: 'pass1234' } })).code).toBe(200);
  });

  it("refuses to delete another tenant's or an unknown sub-account, changing nothing", async () => {
    const other = await newAccount(t());
    const theirs = await createThroughApi(t(), other, await newRole(t(), other.account.id));
    for (const id of [theirs.id, 999999]) {
      const before = await t().snapshot();
      expect(await t().call(deleteRam, { token: main.token, body: { id } })).toMatchObject({ code: CODE.notFound, msg: M.ramNotFound });
      expect(await t().snapshot()).toEqual(before);
    }
    expect((await t().call(deleteRam, { token: main.token, body: {} })).code).toBe(CODE.invalid);
  });
});

describeEachDatabase('sub-accounts: GET /ram/log', (t) => {
  let main: Main;
  let ramId: number;
  const DAY = 86_400_000;

  /** A log row at a wall-clock time of the tenant's time zone. */
  const at = (date: string, hms: string) => {
    const [h, m, s] = hms.split(':').map(Number) as [number, number, number];
    return startOfDay(date, t().ctx.config.timezone) + ((h * 60 + m) * 60 + s) * 1000;
  };

  beforeAll(async () => {
    main = await newAccount(t());
    ramId = (await createThroughApi(t(), main, await newRole(t(), main.account.id))).id;
    const rows = [
      ['2026-03-01', '00:00:00', 'first'],
      ['2026-03-01', '23:59:59', 'late'],
      ['2026-03-02', '12:00:00', 'middle'],
      ['2026-03-03', '00:00:00', 'last'],
    ] as const;
    for (const [date, time, action] of rows) {
      await t().db.insertInto('ram_log').values({ tenant_id: main.account.id, ram_id: ramId, mode: 'network', action, message: M.saved, create_time: at(date, time) }).execute();
    }
    for (let i = 0; i < 11; i++) {
      await t().db.insertInto('ram_log').values({ tenant_id: main.account.id, ram_id: ramId, mode: 'router', action: `bulk${i}`, message: M.deleted, create_time: Date.now() - 3 * DAY + i }).execute();
    }
  });

  it('lists newest first with whole days of the time zone, both ends included', async () => {
    const res = await t().call(ramLog, { token: main.token, query: { page: 1, ram_id: ramId, start_time: '2026-03-01', end_time: '2026-03-02' } });
    expect(res).toMatchObject({ code: 200, count: 3 });
    expect(res.data!.map((r) => r.action)).toEqual(['middle', 'late', 'first']);
    expect(res.data![0]).toEqual({ id: expect.any(Number), mode: 'network', action: 'middle', message: M.saved, create_time: '2026-03-02 12:00:00' });
    const oneDay = await t().call(ramLog, { token: main.token, query: { page: 1, ram_id: ramId, start_time: '2026-03-03', end_time: '2026-03-03' } });
    expect(oneDay.data!.map((r) => r.action)).toEqual(['last']);
  });

  it('pages (limit as asked, 10 by default) and works without dates', async () => {
    const all = await t().call(ramLog, { token: main.token, query: { page: 1, ram_id: ramId } });
    expect(all).toMatchObject({ code: 200, count: 15 });
    expect(all.data).toHaveLength(LIMITS.pageSize);
    expect(all.data![0]!.action).toBe('bulk10');
    const p2 = await t().call(ramLog, { token: main.token, query: { page: 2, limit: 4, ram_id: ramId } });
    expect(p2.data!.map((r) => r.action)).toEqual(['bulk6', 'bulk5', 'bulk4', 'bulk3']);
  });

  it('refuses bad dates and a reversed range', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ start_time: '2026-02-30' }, M.logDateInvalid],
      [{ end_time: '03/01/2026' }, M.logDateInvalid],
      [{ start_time: '2026-03-02', end_time: '2026-03-01' }, M.logRangeInvalid],
      [{}, M.validationFailed],
    ];
    for (const [extra, msg] of cases) {
      const query = { page: 1, ...(Object.keys(extra).length ? { ram_id: ramId } : {}), ...extra };
      expect(await t().call(ramLog, { token: main.token, query })).toMatchObject({ code: CODE.invalid, msg });
    }
  });

  it("answers 204 for another tenant's sub-account", async () => {
    const other = await newAccount(t());
    expect(await t().call(ramLog, { token: other.token, query: { page: 1, ram_id: ramId } })).toMatchObject({ code: CODE.notFound, msg: M.ramNotFound });
  });
});

describeEachDatabase('sub-accounts cannot manage sub-accounts', (t) => {
  it('refuses a sub-account every /ram call but /ram/password with 403, changing nothing', async () => {
    const main = await newAccount(t());
    const ram = await newRamAccount(t(), main.account.id);
    const token = await ramToken(t(), ram.login, ram.password);
    const calls: [Endpoint, Record<string, unknown>][] = [
      [ramDomain, {}],
      [ramQuantity, {}],
      [ramInfo, { id: ram.id }],
      [listRam, { page: 1 }],
      [createRam, { role_id: ram.roleId, nickname: '越权', username: 'sneaky1', password: 'pass1234' }],
      [editRam, { id: ram.id, role_id: ram.roleId, nickname: '越权' }],
      [deleteRam, { id: ram.id }],
      [ramLog, { page: 1, ram_id: ram.id }],
    ];
    for (const [endpoint, input] of calls) {
      const before = await t().snapshot();
      const res = await t().call(endpoint, endpoint.method === 'GET' ? { token, query: input } : { token, body: input });
      expect({ path: endpoint.path, code: res.code, msg: res.msg }).toEqual({ path: endpoint.path, code: CODE.forbidden, msg: M.deniedMainOnly });
      expect(await t().snapshot()).toEqual(before);
    }
  });
});
