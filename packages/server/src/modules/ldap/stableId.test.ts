import { importAllLdapUsers, LDAP_PASSWORD_MASK, saveLdap, syncLdap } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { directorySignIn } from '../../domain/ldapSignIn';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { configOf, directoryOf, enableLdap, listing } from './fixtures';
import { moveEntry } from '../../../test/ldapModify';

/*
 * Issue 33: imported members follow their directory users by the stable id (entryUUID here), not by
 * DN or name: a new Base DN, a user moved or renamed keeps its member; users the new Base DN no
 * longer finds go as removed users go.
 */

let s: Slapd;
beforeAll(async () => {
  s = await startSlapd();
});
afterAll(async () => {
  await s?.stop();
});

const membersOf = async (t: TestApp, tenantId: number) =>
  Object.fromEntries((await t.db.selectFrom('member').select(['id', 'router_name']).where('tenant_id', '=', tenantId).where('source', '=', 'ldap').execute()).map((m) => [m.router_name, m.id]));

describeEachDatabase('LDAP sync: members matched by stable id', (t) => {
  it('a new Base DN keeps the members of the users it still finds (one moved there too) and removes the others', async () => {
    const a = await newAccount(t());
    const first = await directoryOf(s, [{ uid: 'ann', password: 'ann-pass1' }, { uid: 'ben', password: 'ben-pass1' }]);
    const second = await directoryOf(s, [{ uid: 'cat' }]);
    await enableLdap(t(), a, s, { base_dn: first });
    const { hash } = await listing(t(), a.token);
    expect((await t().call(importAllLdapUsers, { token: a.token, body: { hash } })).data).toEqual({ success: 2, fail: 0 });
    const before = await membersOf(t(), a.account.id);
    const uuids = Object.fromEntries((await listing(t(), a.token)).users.map((u) => [u.username, u.uuid]));

    // ben moves to the other unit; the configuration then reads that unit.
    await moveEntry(s, `uid=ben,${first}`, 'uid=ben', second);
    const saved = await t().call(saveLdap, { token: a.token, body: configOf(s, { base_dn: second, password: LDAP_PASSWORD_MASK }) });
    expect(saved.code).toBe(200);

    const after = await listing(t(), a.token);
    expect(after.users.map((u) => [u.username, u.exist])).toEqual([
      ['ben', true],
      ['cat', false],
    ]);
    expect(after.users.find((u) => u.username === 'ben')!.uuid).toBe(uuids.ben);
    // The same member, not a new one; ann's is gone as a removed user's goes.
    expect(await membersOf(t(), a.account.id)).toEqual({ ben: before.ben });
    const row = await t().db.selectFrom('ldap_user').select('dn').where('tenant_id', '=', a.account.id).where('uuid', '=', uuids.ben!).executeTakeFirstOrThrow();
    expect(row.dn).toBe(`uid=ben,${second}`);
    // Its sign-in binds as the new DN.
    expect(await directorySignIn(t().ctx, { id: before.ben!, tenant_id: a.account.id }, 'ben-pass1')).toBe('ok');
    expect(await directorySignIn(t().ctx, { id: before.ben!, tenant_id: a.account.id }, 'ann-pass1')).toBe('wrong');
  });

  it('a user renamed in the directory keeps its member (and the member its name); the listing shows the new name', async () => {
    const a = await newAccount(t());
    const base = await directoryOf(s, [{ uid: 'dora', description: '财务' }]);
    await enableLdap(t(), a, s, { base_dn: base });
    const { hash } = await listing(t(), a.token);
    await t().call(importAllLdapUsers, { token: a.token, body: { hash } });
    const before = await membersOf(t(), a.account.id);

    await moveEntry(s, `uid=dora,${base}`, 'uid=dorothy', base);
    expect((await t().call(syncLdap, { token: a.token, body: { hash: (await listing(t(), a.token)).hash } })).code).toBe(200);
    const after = await listing(t(), a.token);
    // deleteoldrdn: the entry's uid is now the new name only.
    expect(after.users.map((u) => [u.username, u.exist, u.description])).toEqual([['dorothy', true, '财务']]);
    expect(await membersOf(t(), a.account.id)).toEqual({ dora: before.dora });
    expect(after.hash).not.toBe(hash);
  });
});
