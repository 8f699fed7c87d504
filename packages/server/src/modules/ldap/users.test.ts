import {
  CODE,
  fmt,
  importAllLdapUsers,
  importLdapUser,
  ldapSyncStatus,
  listLdapUsers,
  listRouters,
  M,
  networkMembers,
  removeAllLdapUsers,
  removeDisabledLdapUsers,
  removeLdapUser,
  restartLdapSync,
  syncLdap,
  type Endpoint,
  type RouterItem,
} from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RoleAuth } from '../../core/actor';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { seedMembers, seedNetwork } from '../../../test/networks';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { directoryOf, enableLdap, listing, userNamed } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

let s: Slapd;
beforeAll(async () => {
  s = await startSlapd();
});
afterAll(async () => {
  await s?.stop();
});

/** A tenant with LDAP on over a directory of its own holding `users`. */
async function tenantWith(t: TestApp, users: Parameters<typeof directoryOf>[1], over: Record<string, unknown> = {}, kind: 'openldap' | 'ad' = 'openldap'): Promise<Main & { base: string }> {
  const main = await newAccount(t);
  const base = await directoryOf(s, users, kind);
  await enableLdap(t, main, s, { base_dn: base, type: kind === 'ad' ? 2 : 1, ...over });
  return { ...main, base };
}

const softwareMembers = async (t: TestApp, token: string): Promise<RouterItem[]> => (await t.call(listRouters, { token, query: { type: 2, limit: 100 } })).data!;
const memberNamed = async (t: TestApp, token: string, name: string) => (await softwareMembers(t, token)).find((m) => m.router_name === name);

/** The call is refused with `code` and `msg`, and neither the members nor the listing change. */
async function refused(t: TestApp, token: string, endpoint: Endpoint, body: unknown, code: number, msg: string) {
  const before = [await t.snapshot(), await t.db.selectFrom('ldap_user').selectAll().orderBy('id').execute()];
  const res = await t.call(endpoint, { token, body });
  expect({ path: endpoint.path, code: res.code, msg: res.msg }).toEqual({ path: endpoint.path, code, msg });
  expect([await t.snapshot(), await t.db.selectFrom('ldap_user').selectAll().orderBy('id').execute()]).toEqual(before);
}

const ok = async (t: TestApp, token: string, endpoint: Endpoint, body: unknown) => {
  const res = await t.call(endpoint, { token, body });
  expect({ path: endpoint.path, code: res.code, msg: res.msg }).toMatchObject({ path: endpoint.path, code: 200 });
  return res;
};

describeEachDatabase('LDAP users: /ldap/user, import, import_all, remove, remove_all, remove_disable, sync', (t) => {
  it('lists the directory’s users by page; search (name or description) shows at most 10; the imported filter', async () => {
    const users = Array.from({ length: 12 }, (_, i) => ({ uid: `staff${String(i + 1).padStart(2, '0')}`, description: i < 3 ? '财务部' : '研发部' }));
    const a = await tenantWith(t(), users);
    const first = await t().call(listLdapUsers, { token: a.token, query: { page: 1 } });
    expect(first.count).toBe(12);
    expect(first.data!.list.map((u) => u.username)).toEqual(users.slice(0, 10).map((u) => u.uid));
    expect(first.data!.list[0]).toEqual({ username: 'staff01', member_name: 'staff01', description: '财务部', phone: '', email: '', issue: '', uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), exist: false, verify: '', disable: 0 });
    expect((await t().call(listLdapUsers, { token: a.token, query: { page: 2 } })).data!.list.map((u) => u.username)).toEqual(['staff11', 'staff12']);

    const search = await t().call(listLdapUsers, { token: a.token, query: { search: 'STAFF' } });
    expect([search.count, search.data!.list.length]).toEqual([10, 10]);
    const byDescription = await t().call(listLdapUsers, { token: a.token, query: { search: '财务' } });
    expect(byDescription.data!.list.map((u) => u.username)).toEqual(['staff01', 'staff02', 'staff03']);
    expect((await t().call(listLdapUsers, { token: a.token, query: { search: '%' } })).count).toBe(0);

    const hash = first.data!.hash;
    await ok(t(), a.token, importLdapUser, { hash, uuid: first.data!.list[1]!.uuid });
    const imported = await t().call(listLdapUsers, { token: a.token, query: { exist: 1 } });
    expect(imported.data!.list.map((u) => [u.username, u.exist])).toEqual([['staff02', true]]);
    expect((await t().call(listLdapUsers, { token: a.token, query: { exist: 0 } })).count).toBe(11);
    // Importing changes who is imported, not the listing: the hash stays.
    expect(imported.data!.hash).toBe(hash);
  });

  it('imports a user as a software member: source ldap, its description as note, no password of its own; disabled users disabled', async () => {
    const a = await tenantWith(t(), [
      { uid: 'alice', description: '研发部 后端组' },
      { uid: 'bob', disabled: true },
    ]);
    const alice = await userNamed(t(), a.token, 'alice');
    expect(await ok(t(), a.token, importLdapUser, { hash: alice.hash, uuid: alice.uuid })).toMatchObject({ msg: M.ldapImported });
    expect(await memberNamed(t(), a.token, 'alice')).toMatchObject({ router_type: 2, source: 'ldap', note: '研发部 后端组', status: 1 });
    const row = await t().db.selectFrom('member').select(['id', 'secret_hash']).where('tenant_id', '=', a.account.id).where('router_key', '=', 'alice').executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe('directory');
    await t().ctx.events.settle();
    const created = await t().db.selectFrom('event').select('payload').where('type', '=', 'member.created').where('tenant_id', '=', a.account.id).execute();
    expect(created.map((e) => JSON.parse(e.payload) as object)).toEqual([expect.objectContaining({ member_id: row.id, router_type: 2 })]);
    expect((await userNamed(t(), a.token, 'alice')).exist).toBe(true);

    await refused(t(), a.token, importLdapUser, { hash: alice.hash, uuid: alice.uuid }, CODE.invalid, M.ldapUserImported);
    await refused(t(), a.token, importLdapUser, { hash: alice.hash, uuid: '00000000-0000-0000-0000-000000000000' }, CODE.invalid, M.ldapUserMissing);
    await refused(t(), a.token, importLdapUser, { hash: alice.hash }, CODE.invalid, M.ldapUserMissing);
    await refused(t(), a.token, importLdapUser, { uuid: alice.uuid }, CODE.invalid, M.ldapHashRequired);

    const bob = await userNamed(t(), a.token, 'bob');
    expect(bob.disable).toBe(1);
    await ok(t(), a.token, importLdapUser, { hash: bob.hash, uuid: bob.uuid });
    expect(await memberNamed(t(), a.token, 'bob')).toMatchObject({ source: 'ldap', status: 0 });
  });

  it('says why a user cannot be imported: a name that maps to nothing, two names that map to one, a name taken, the quota full', async () => {
    const a = await tenantWith(t(), [{ uid: 'john-doe' }, { uid: 'John_Doe' }, { uid: '---' }, { uid: 'averyveryverylongname' }, { uid: 'Taken1' }, { uid: 'fits1' }, { uid: 'nofit' }]);
    // The member-name rule (contract memberNameOf): '-' becomes '_', cut to 18; both john-doe and John_Doe map to john_doe (case aside).
    expect(Object.fromEntries((await listing(t(), a.token)).users.map((u) => [u.username, [u.member_name, u.issue]]))).toEqual({
      'john-doe': ['john_doe', M.ldapNameCollision],
      John_Doe: ['John_Doe', M.ldapNameCollision],
      '---': ['', M.ldapNameEmpty],
      averyveryverylongname: ['averyveryverylongn', ''],
      Taken1: ['Taken1', ''],
      fits1: ['fits1', ''],
      nofit: ['nofit', ''],
    });
    await seedMembers(t(), a.account.id, ['taken1'], { router_type: 2 });
    // One member in use and room for two more.
    await t().db.updateTable('account').set({ network_router_count: 3 }).where('id', '=', a.account.id).execute();
    for (const [name, msg] of [
      ['john-doe', M.ldapNameCollision],
      ['John_Doe', M.ldapNameCollision],
      ['---', M.ldapNameEmpty],
      ['Taken1', M.ldapImportNameTaken],
    ] as const) {
      const u = await userNamed(t(), a.token, name);
      await refused(t(), a.token, importLdapUser, { hash: u.hash, uuid: u.uuid }, CODE.invalid, msg);
    }
    const { hash } = await listing(t(), a.token);
    const all = await ok(t(), a.token, importAllLdapUsers, { hash });
    expect(all).toMatchObject({ data: { success: 2, fail: 5 }, msg: fmt(M.ldapImportDone, { success: 2, fail: 5 }) });
    expect(await memberNamed(t(), a.token, 'averyveryverylongn')).toMatchObject({ source: 'ldap' });
    const full = fmt(M.ldapImportQuotaFull, { n: 3 });
    expect(Object.fromEntries((await listing(t(), a.token)).users.map((u) => [u.username, [u.exist, u.verify]]))).toEqual({
      'john-doe': [false, M.ldapNameCollision],
      John_Doe: [false, M.ldapNameCollision],
      '---': [false, M.ldapNameEmpty],
      averyveryverylongname: [true, ''],
      Taken1: [false, M.ldapImportNameTaken],
      fits1: [true, ''],
      nofit: [false, full],
    });
    const nofit = await userNamed(t(), a.token, 'nofit');
    await refused(t(), a.token, importLdapUser, { hash, uuid: nofit.uuid }, CODE.invalid, full);
    // Room again: the same user imports, and its reason is gone.
    await t().db.updateTable('account').set({ network_router_count: 10 }).where('id', '=', a.account.id).execute();
    await ok(t(), a.token, importLdapUser, { hash, uuid: nofit.uuid });
    expect(await userNamed(t(), a.token, 'nofit')).toMatchObject({ exist: true, verify: '' });
  });

  it('a sync brings the directory’s changes to the members: description → note, disabled → status 0 and back, gone → removed', async () => {
    const a = await tenantWith(t(), [{ uid: 'carol', description: '销售部' }, { uid: 'dave' }, { uid: 'erin' }]);
    const { hash } = await listing(t(), a.token);
    await ok(t(), a.token, importAllLdapUsers, { hash });
    await t().ctx.events.settle();
    const eventsBefore = await t().db.selectFrom('event').select('id').where('tenant_id', '=', a.account.id).execute();

    await s.modifyUser('carol', { description: '市场部 华东区域负责人兼销售部副经理及其他职务' });
    await s.modifyUser('dave', { disabled: true });
    await s.deleteUser('erin');
    await s.addUser({ uid: 'frank', ou: a.base.slice(3, a.base.indexOf(',')) });
    expect(await ok(t(), a.token, syncLdap, { hash })).toMatchObject({ msg: M.ldapSynced });

    expect(await memberNamed(t(), a.token, 'carol')).toMatchObject({ note: '市场部 华东区域负责人兼销售部副经理及其他职务'.slice(0, 24), status: 1 });
    expect(await memberNamed(t(), a.token, 'dave')).toMatchObject({ status: 0 });
    expect(await memberNamed(t(), a.token, 'erin')).toBeUndefined();
    const after = await listing(t(), a.token);
    expect(after.users.map((u) => [u.username, u.exist, u.disable])).toEqual([
      ['carol', true, 0],
      ['dave', true, 1],
      ['frank', false, 0],
    ]);
    expect(after.hash).not.toBe(hash);
    await t().ctx.events.settle();
    const events = (await t().db.selectFrom('event').select(['id', 'type', 'payload']).where('tenant_id', '=', a.account.id).orderBy('id').execute())
      .filter((e) => !eventsBefore.some((b) => b.id === e.id))
      .map((e) => ({ type: e.type, ...(JSON.parse(e.payload) as { fields?: string[] }) }));
    expect(events.map((e) => [e.type, e.fields ?? []])).toEqual(
      expect.arrayContaining([
        ['member.changed', ['note']],
        ['member.changed', ['status']],
        ['member.deleted', []],
      ]),
    );

    // Enabled again: the member is enabled again; a sync that changes nothing keeps the hash.
    await s.modifyUser('dave', { disabled: false });
    await ok(t(), a.token, syncLdap, { hash: after.hash });
    expect(await memberNamed(t(), a.token, 'dave')).toMatchObject({ status: 1 });
    const again = (await listing(t(), a.token)).hash;
    await ok(t(), a.token, syncLdap, { hash: again });
    expect((await listing(t(), a.token)).hash).toBe(again);
    expect((await t().call(ldapSyncStatus, { token: a.token })).data).toMatchObject({ count: 3, service: { status: 1, message: '' } });
  });

  it('syncs Active Directory users: objectGUID as the id, userAccountControl’s disabled bit', async () => {
    const a = await tenantWith(t(), [{ uid: 'grace', description: 'IT' }, { uid: 'heidi' }], {}, 'ad');
    const { users, hash } = await listing(t(), a.token);
    expect(users.map((u) => [u.username, u.uuid, u.disable])).toEqual([
      ['grace', expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/), 0],
      ['heidi', expect.any(String), 0],
    ]);
    await ok(t(), a.token, importAllLdapUsers, { hash });
    await s.setAdDisabled('heidi', true);
    await ok(t(), a.token, syncLdap, { hash });
    expect(await memberNamed(t(), a.token, 'heidi')).toMatchObject({ status: 0, source: 'ldap' });
    expect(await memberNamed(t(), a.token, 'grace')).toMatchObject({ status: 1, note: 'IT' });
  });

  it('refuses every call on a listing that changed since it was read, changing nothing', async () => {
    const a = await tenantWith(t(), [{ uid: 'ivan' }, { uid: 'judy', disabled: true }]);
    const before = await listing(t(), a.token);
    await ok(t(), a.token, importLdapUser, { hash: before.hash, uuid: before.users[0]!.uuid });
    await s.modifyUser('judy', { description: '新描述' });
    await ok(t(), a.token, syncLdap, { hash: before.hash });
    const stale = before.hash;
    const uuid = before.users[1]!.uuid;
    for (const [endpoint, body] of [
      [importLdapUser, { hash: stale, uuid }],
      [importAllLdapUsers, { hash: stale }],
      [removeLdapUser, { hash: stale, uuid: before.users[0]!.uuid }],
      [removeAllLdapUsers, { hash: stale }],
      [removeDisabledLdapUsers, { hash: stale }],
      [syncLdap, { hash: stale }],
    ] as [Endpoint, unknown][]) {
      await refused(t(), a.token, endpoint, body, CODE.invalid, M.ldapStale);
    }
    // Another tenant's hash is no hash here.
    const b = await tenantWith(t(), [{ uid: 'kim' }]);
    await refused(t(), a.token, importAllLdapUsers, { hash: (await listing(t(), b.token)).hash }, CODE.invalid, M.ldapStale);
  });

  it('removes one member, the disabled ones, all of them; the users stay listed as not imported', async () => {
    const a = await tenantWith(t(), [{ uid: 'leo' }, { uid: 'mia', disabled: true }, { uid: 'ned', disabled: true }, { uid: 'olga' }]);
    const { hash, users } = await listing(t(), a.token);
    await ok(t(), a.token, importAllLdapUsers, { hash });
    const names = async () => (await softwareMembers(t(), a.token)).map((m) => m.router_name).sort();
    expect(await names()).toEqual(['leo', 'mia', 'ned', 'olga']);

    expect(await ok(t(), a.token, removeLdapUser, { hash, uuid: users[0]!.uuid })).toMatchObject({ msg: M.ldapRemoved });
    expect(await names()).toEqual(['mia', 'ned', 'olga']);
    await refused(t(), a.token, removeLdapUser, { hash, uuid: users[0]!.uuid }, CODE.invalid, M.ldapUserNotImported);
    await refused(t(), a.token, removeLdapUser, { hash, uuid: 'nobody' }, CODE.invalid, M.ldapUserMissing);

    expect(await ok(t(), a.token, removeDisabledLdapUsers, { hash })).toMatchObject({ data: { count: 2 }, msg: fmt(M.ldapRemoveDone, { n: 2 }) });
    expect(await names()).toEqual(['olga']);
    expect(await ok(t(), a.token, removeAllLdapUsers, { hash })).toMatchObject({ data: { count: 1 } });
    expect(await names()).toEqual([]);
    expect((await listing(t(), a.token)).users.map((u) => u.exist)).toEqual([false, false, false, false]);
    // A member deleted in the member list is no longer imported either.
    await ok(t(), a.token, importAllLdapUsers, { hash });
    await t().db.deleteFrom('member').where('tenant_id', '=', a.account.id).where('router_key', '=', 'leo').execute();
    expect((await userNamed(t(), a.token, 'leo')).exist).toBe(false);
  });

  it('asks the member permissions of sub-accounts: import create, remove delete, sync edit; reading is open', async () => {
    const a = await tenantWith(t(), [{ uid: 'pat' }]);
    const { hash, users } = await listing(t(), a.token);
    const role = (flags: Partial<Record<'create' | 'edit' | 'delete', 0 | 1>>): RoleAuth => ({ ...FULL_ROLE, 'easylink.router': { create: 0, edit: 0, delete: 0, ...flags } });
    const none = await ramToken(t(), a.account.id, role({}));
    const uuid = users[0]!.uuid;
    for (const [endpoint, body] of [
      [importLdapUser, { hash, uuid }],
      [importAllLdapUsers, { hash }],
      [removeLdapUser, { hash, uuid }],
      [removeAllLdapUsers, { hash }],
      [removeDisabledLdapUsers, { hash }],
      [syncLdap, { hash }],
    ] as [Endpoint, unknown][]) {
      await refused(t(), none, endpoint, body, CODE.forbidden, M.deniedPermission);
    }
    expect((await t().call(listLdapUsers, { token: none })).code).toBe(200);
    await ok(t(), await ramToken(t(), a.account.id, role({ create: 1 })), importLdapUser, { hash, uuid });
    await ok(t(), await ramToken(t(), a.account.id, role({ edit: 1 })), syncLdap, { hash });
    await ok(t(), await ramToken(t(), a.account.id, role({ delete: 1 })), removeLdapUser, { hash, uuid });
  });

  it('keeps tenants apart: another tenant’s user id names nothing here', async () => {
    const a = await tenantWith(t(), [{ uid: 'quinn' }]);
    const b = await tenantWith(t(), [{ uid: 'rose' }]);
    const theirs = (await listing(t(), b.token)).users[0]!.uuid;
    const { hash } = await listing(t(), a.token);
    await refused(t(), a.token, importLdapUser, { hash, uuid: theirs }, CODE.invalid, M.ldapUserMissing);
    await refused(t(), a.token, removeLdapUser, { hash, uuid: theirs }, CODE.invalid, M.ldapUserMissing);
    expect((await listing(t(), a.token)).users.map((u) => u.username)).toEqual(['quinn']);
  });

  it('imported members join the network the configuration names, as points', async () => {
    const main = await newAccount(t());
    const [gw] = await seedMembers(t(), main.account.id, [`ldapgw${Date.now() % 100000}`]);
    const gwName = (await t().db.selectFrom('member').select('router_name').where('id', '=', gw!).executeTakeFirstOrThrow()).router_name;
    const net = await seedNetwork(t(), main.account.id, { center: [gwName] });
    const base = await directoryOf(s, [{ uid: 'sam' }, { uid: 'tess' }]);
    await enableLdap(t(), main, s, { base_dn: base, network_number: net.network_number });
    const { hash } = await listing(t(), main.token);
    await ok(t(), main.token, importAllLdapUsers, { hash });
    await t().ctx.events.settle();
    const members = (await t().call(networkMembers, { token: main.token, query: { network_number: net.network_number } })).data!;
    expect(members.map((m) => [m.router_name, m.member_type]).sort()).toEqual([
      [gwName, 'center'],
      ['sam', 'point'],
      ['tess', 'point'],
    ]);
  });

  it('a failed sync says why and marks the service abnormal; restart_sync clears it once the directory answers', async () => {
    const a = await tenantWith(t(), [{ uid: 'uma' }]);
    const { hash } = await listing(t(), a.token);
    await ok(t(), a.token, importAllLdapUsers, { hash });
    await t().db.updateTable('ldap_config').set({ port: 1 }).where('tenant_id', '=', a.account.id).execute();
    const failed = await t().call(syncLdap, { token: a.token, body: { hash } });
    expect(failed).toMatchObject({ code: CODE.invalid, msg: M.ldapErrRefused });
    expect((await t().call(ldapSyncStatus, { token: a.token })).data).toMatchObject({ count: 1, service: { status: 0, message: M.ldapErrRefused } });
    // Nothing was removed: only a complete read removes.
    expect(await memberNamed(t(), a.token, 'uma')).toBeDefined();
    expect((await listing(t(), a.token)).users.map((u) => u.username)).toEqual(['uma']);

    await t().db.updateTable('ldap_config').set({ port: s.port }).where('tenant_id', '=', a.account.id).execute();
    expect(await ok(t(), a.token, restartLdapSync, {})).toMatchObject({ msg: M.ldapSyncRestarted });
    expect((await t().call(ldapSyncStatus, { token: a.token })).data).toMatchObject({ service: { status: 1, message: '' } });
  });
});
