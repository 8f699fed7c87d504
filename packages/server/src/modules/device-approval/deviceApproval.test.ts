import { approveDevice, CODE, getDeviceApprovalSetting, listDeviceApprovals, M, refuseDevice, saveDeviceApprovalSetting, type RoleAuth } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, ramToken, signIn, type TestApp } from '../../../test/helpers';
import { seedMembers } from '../../../test/networks';

type Main = Awaited<ReturnType<typeof newAccount>>;

const NO_ROUTER_EDIT: RoleAuth = {
  'easylink.router': { create: 1, edit: 0, delete: 1 },
  'easylink.network': { create: 1, edit: 1, delete: 1, network: [] },
  monitor: { view: 1, create: 1, edit: 1, delete: 1 },
};

let seq = 0;
/** A device row as the gateway records it (gateway/approval.test.ts drives the real hellos). */
async function seedDevice(t: TestApp, tenantId: number, memberId: number, state: string, over: Record<string, unknown> = {}): Promise<number> {
  const now = Date.now() - 1000 * ++seq;
  const row = await t.db
    .insertInto('device_approval')
    .values({ tenant_id: tenantId, member_id: memberId, device_key: `id:dev${seq}`, ip: `198.51.100.${seq % 250}`, os: 'linux', model: 'HL-100', brand: 'HubLink', state, first_time: now, last_time: now, decided_by: '', decided_time: state === 'waiting' ? null : now, ...over })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const stateOf = async (t: TestApp, id: number) => (await t.db.selectFrom('device_approval').selectAll().where('id', '=', id).executeTakeFirstOrThrow());

describeEachDatabase('devices join by approval: /device_approval/*', (t) => {
  let a: Main;
  let b: Main;
  let aMember: number;
  let bMember: number;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    [aMember] = (await seedMembers(t(), a.account.id, [`apr${Date.now() % 100000}a`])) as [number];
    [bMember] = (await seedMembers(t(), b.account.id, [`apr${Date.now() % 100000}b`])) as [number];
  });

  it('the setting is off by default; the main account turns it on and off; sub-accounts read it but cannot change it', async () => {
    expect(await t().call(getDeviceApprovalSetting, { token: a.token })).toMatchObject({ code: 200, data: { enabled: 0 } });
    expect(await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled: 1 } })).toMatchObject({ code: 200, msg: M.deviceApprovalSaved });
    expect(await t().call(getDeviceApprovalSetting, { token: a.token })).toMatchObject({ data: { enabled: 1 } });
    const row = await t().db.selectFrom('device_approval_setting').selectAll().where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
    expect(row.enabled_time).toBeGreaterThan(0);
    // B's setting is its own.
    expect(await t().call(getDeviceApprovalSetting, { token: b.token })).toMatchObject({ data: { enabled: 0 } });

    const sub = await ramToken(t(), a.account.id);
    expect(await t().call(getDeviceApprovalSetting, { token: sub })).toMatchObject({ code: 200, data: { enabled: 1 } });
    expect(await t().call(saveDeviceApprovalSetting, { token: sub, body: { enabled: 0 } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    for (const bad of [2, '1', null, -1]) {
      expect(await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled: bad } as never })).toMatchObject({ code: CODE.invalid, msg: M.deviceApprovalSettingInvalid });
    }
    expect(await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled: 0 } })).toMatchObject({ code: 200 });
    expect(await t().call(getDeviceApprovalSetting, { token: a.token })).toMatchObject({ data: { enabled: 0 } });
    // Turned on again, enabled_time moves on; turned on twice, it stays.
    await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled: 1 } });
    const on = await t().db.selectFrom('device_approval_setting').selectAll().where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
    expect(on.enabled_time!).toBeGreaterThanOrEqual(row.enabled_time!);
    await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled: 1 } });
    expect((await t().db.selectFrom('device_approval_setting').selectAll().where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow()).enabled_time).toBe(on.enabled_time);
    expect(await t().call(getDeviceApprovalSetting, {})).toMatchObject({ code: CODE.tokenInvalid });
  });

  it('lists the tenant’s devices: waiting by default, decided, all; search and paging; never another tenant’s', async () => {
    const c = await newAccount(t());
    const [cm] = (await seedMembers(t(), c.account.id, [`aprlist${Date.now() % 100000}`])) as [number];
    const w1 = await seedDevice(t(), c.account.id, cm, 'waiting', { model: 'X-200', ip: '203.0.113.9' });
    const w2 = await seedDevice(t(), c.account.id, cm, 'waiting');
    const ap = await seedDevice(t(), c.account.id, cm, 'approved');
    const rf = await seedDevice(t(), c.account.id, cm, 'refused', { decided_by: 'boss' });
    await seedDevice(t(), b.account.id, bMember, 'waiting');

    const waiting = await t().call(listDeviceApprovals, { token: c.token, query: { page: 1 } });
    expect(waiting).toMatchObject({ code: 200, count: 2 });
    expect(waiting.data!.map((d) => d.id)).toEqual([w1, w2]);
    expect(waiting.data![0]).toMatchObject({ router_type: 1, ip: '203.0.113.9', os: 'linux', model: 'X-200', brand: 'HubLink', state: 'waiting', decided_by: '', decided_time: '' });
    expect(waiting.data![0]!.first_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const decided = await t().call(listDeviceApprovals, { token: c.token, query: { page: 1, state: 'decided' } });
    expect(decided.data!.map((d) => d.id).sort()).toEqual([ap, rf].sort());
    const all = await t().call(listDeviceApprovals, { token: c.token, query: { page: 1, state: 'all' } });
    expect(all.count).toBe(4);
    // Waiting devices come first.
    expect(all.data!.slice(0, 2).map((d) => d.state)).toEqual(['waiting', 'waiting']);
    const paged = await t().call(listDeviceApprovals, { token: c.token, query: { page: 2, limit: 3, state: 'all' } });
    expect(paged).toMatchObject({ count: 4 });
    expect(paged.data).toHaveLength(1);
    expect((await t().call(listDeviceApprovals, { token: c.token, query: { page: 1, state: 'all', search: 'X-2' } })).data!.map((d) => d.id)).toEqual([w1]);
    expect((await t().call(listDeviceApprovals, { token: c.token, query: { page: 1, state: 'all', search: '203.0.113' } })).data!.map((d) => d.id)).toEqual([w1]);
    expect(await t().call(listDeviceApprovals, { token: c.token, query: { page: 1, state: 'bogus' } as never })).toMatchObject({ code: CODE.invalid, msg: M.deviceApprovalFilterInvalid });
    // A sub-account of any role reads the list.
    const sub = await ramToken(t(), c.account.id, NO_ROUTER_EDIT);
    expect(await t().call(listDeviceApprovals, { token: sub, query: { page: 1 } })).toMatchObject({ code: 200, count: 2 });
  });

  it('approves and refuses with the audit trail; says when the device already is so', async () => {
    const w = await seedDevice(t(), a.account.id, aMember, 'waiting');
    expect(await t().call(approveDevice, { token: a.token, body: { id: w } })).toMatchObject({ code: 200, msg: M.deviceApproved });
    expect(await stateOf(t(), w)).toMatchObject({ state: 'approved', decided_by: a.username });
    expect((await stateOf(t(), w)).decided_time).toBeGreaterThan(0);
    expect(await t().call(approveDevice, { token: a.token, body: { id: w } })).toMatchObject({ code: CODE.invalid, msg: M.deviceAlreadyApproved });
    expect(await t().call(refuseDevice, { token: a.token, body: { id: w } })).toMatchObject({ code: 200, msg: M.deviceRefused });
    expect(await stateOf(t(), w)).toMatchObject({ state: 'refused' });
    expect(await t().call(refuseDevice, { token: a.token, body: { id: w } })).toMatchObject({ code: CODE.invalid, msg: M.deviceAlreadyRefused });
    // A refused device may be approved again.
    expect(await t().call(approveDevice, { token: a.token, body: { id: w } })).toMatchObject({ code: 200 });

    await t().ctx.events.settle();
    const entries = await t().db.selectFrom('audit_entry').selectAll().where('tenant_id', '=', a.account.id).where('path', 'like', '%/device_approval/%').orderBy('id').execute();
    expect(entries.map((e) => e.path.replace(/^.*\/device_approval\//, ''))).toEqual(expect.arrayContaining(['approve', 'refuse']));
    const refusal = entries.find((e) => e.path.endsWith('/refuse'))!;
    expect(refusal.object_type).toBe('device_approval');
    expect(refusal.changes).toContain('refused');
  });

  it('needs easylink.router.edit to decide; a sub-account with it decides under its name', async () => {
    const w = await seedDevice(t(), a.account.id, aMember, 'waiting');
    const without = await ramToken(t(), a.account.id, NO_ROUTER_EDIT);
    expect(await t().call(approveDevice, { token: without, body: { id: w } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
    expect(await t().call(refuseDevice, { token: without, body: { id: w } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });
    expect((await stateOf(t(), w)).state).toBe('waiting');

    const ram = await newRamAccount(t(), a.account.id);
    const res = await signIn(t(), ram.login, ram.password, { ram: true });
    expect(await t().call(refuseDevice, { token: res.data!.access_token, body: { id: w } })).toMatchObject({ code: 200 });
    expect(await stateOf(t(), w)).toMatchObject({ state: 'refused', decided_by: ram.username });
  });

  it('keeps tenants apart: B neither decides on nor sees A’s devices', async () => {
    const w = await seedDevice(t(), a.account.id, aMember, 'waiting', { model: 'A-ONLY' });
    for (const call of [approveDevice, refuseDevice]) {
      expect(await t().call(call, { token: b.token, body: { id: w } })).toMatchObject({ code: CODE.notFound, msg: M.deviceApprovalNotFound });
    }
    expect((await stateOf(t(), w)).state).toBe('waiting');
    const bList = await t().call(listDeviceApprovals, { token: b.token, query: { page: 1, state: 'all', limit: 100 } });
    expect(JSON.stringify(bList)).not.toContain('A-ONLY');
    expect(bList.data!.map((d) => d.id)).not.toContain(w);
    expect(await t().call(approveDevice, { token: a.token, body: { id: 99_999_999 } })).toMatchObject({ code: CODE.notFound });
  });
});
