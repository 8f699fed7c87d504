import { CODE, checkLdap, fmt, getLdapConfig, LDAP_FILTER_PROBLEMS, LDAP_PASSWORD_MASK, M, previewLdap, saveLdap, type Endpoint, type LdapPreviewUser } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { addGroup, addToGroup, configOf, directoryOf, enableLdap, listing, verifiedDomain } from './fixtures';

/*
 * User selection and attribute mapping (issue 33) through the API against slapd: the preview, the
 * checks before a save, and what a save then lists.
 */

let s: Slapd;
beforeAll(async () => {
  s = await startSlapd();
});
afterAll(async () => {
  await s?.stop();
});

/** The call is refused with `code` and `msg` and changes nothing. */
async function refused(t: TestApp, token: string, endpoint: Endpoint, body: unknown, msg: string) {
  const before = await t.snapshot();
  const res = await t.call(endpoint, { token, body });
  expect({ path: endpoint.path, code: res.code, msg: res.msg }).toEqual({ path: endpoint.path, code: CODE.invalid, msg });
  expect(await t.snapshot()).toEqual(before);
}

const brief = (u: LdapPreviewUser) => [u.username, u.member_name, u.issue];

describeEachDatabase('LDAP user selection and mapping: /ldap/preview, check and save with a group or a filter', (t) => {
  it('previews what the form’s values select: the count, the first users with their member names, the names that map to nothing or collide', async () => {
    const a = await newAccount(t());
    const staff = Array.from({ length: 11 }, (_, i) => ({ uid: `staff-${String(i + 1).padStart(2, '0')}`, description: '研发部' }));
    const base = await directoryOf(s, [...staff, { uid: 'john-doe' }, { uid: 'John_Doe' }, { uid: '---' }]);
    const before = await t().snapshot();
    const res = await t().call(previewLdap, { token: a.token, body: configOf(s, { base_dn: base }) });
    expect([res.code, res.msg]).toEqual([CODE.ok, fmt(M.ldapPreviewCount, { n: 14, m: 10 })]);
    expect(res.data!.count).toBe(14);
    expect(res.data!.users.map(brief)).toEqual(staff.slice(0, 10).map((u) => [u.uid, u.uid.replace('-', '_'), '']));
    expect(res.data!.users[0]).toEqual({ username: 'staff-01', member_name: 'staff_01', description: '研发部', phone: '', email: '', disable: 0, issue: '' });
    expect(res.data!.issue_count).toBe(3);
    expect(res.data!.issues.map(brief)).toEqual([
      ['john-doe', 'john_doe', M.ldapNameCollision],
      ['John_Doe', 'John_Doe', M.ldapNameCollision],
      ['---', '', M.ldapNameEmpty],
    ]);
    // Lower-cased: the names change, the collision stays.
    const lower = await t().call(previewLdap, { token: a.token, body: configOf(s, { base_dn: base, name_lower: 1, user_filter: '(uid=john*)' }) });
    expect(lower.data!.users.map(brief)).toEqual([
      ['john-doe', 'john_doe', M.ldapNameCollision],
      ['John_Doe', 'john_doe', M.ldapNameCollision],
    ]);
    // A preview saves nothing (and LDAP is still off).
    expect(await t().snapshot()).toEqual(before);
    expect((await t().call(getLdapConfig, { token: a.token })).data).toMatchObject({ enable: 0, data: null });
  });

  it('a group selects its members, nested groups and a cycle included, on preview, save and sync; a filter narrows; /ldap/config shows the selection', async () => {
    const a = await newAccount(t());
    const base = await directoryOf(s, [{ uid: 'ann' }, { uid: 'ben' }, { uid: 'cat' }, { uid: 'dan', description: 'ops' }]);
    const inner = await addGroup(s, base, 'inner', [s.userDn('ben')], true);
    const outer = await addGroup(s, base, 'vpn', [s.userDn('ann'), inner]);
    // A cycle: vpn → loop → vpn.
    const loop = await addGroup(s, base, 'loop', [outer, s.userDn('cat')]);
    await addToGroup(s, outer, loop);
    const preview = await t().call(previewLdap, { token: a.token, body: configOf(s, { base_dn: base, user_group: outer }) });
    expect([preview.code, preview.data!.count, preview.data!.users.map((u) => u.username).sort()]).toEqual([CODE.ok, 3, ['ann', 'ben', 'cat']]);

    await enableLdap(t(), a, s, { base_dn: base, user_group: outer, phone_attr: 'telephoneNumber' });
    expect((await listing(t(), a.token)).users.map((u) => u.username)).toEqual(['ann', 'ben', 'cat']);
    const saved = (await t().call(getLdapConfig, { token: a.token })).data!.data!;
    expect(saved).toMatchObject({ user_group: outer, user_filter: '', name_attr: 'uid', name_lower: 0, note_attr: 'description', phone_attr: 'telephoneNumber', email_attr: '', password: LDAP_PASSWORD_MASK });

    // Now a filter instead of the group: the users outside it leave the listing at the save's sync.
    const res = await t().call(saveLdap, { token: a.token, body: configOf(s, { base_dn: base, user_filter: '(|(description=ops)(uid=ann))', password: LDAP_PASSWORD_MASK }) });
    expect([res.code, res.msg]).toEqual([CODE.ok, M.ldapSaved]);
    expect((await listing(t(), a.token)).users.map((u) => u.username)).toEqual(['ann', 'dan']);
  });

  it('refuses a filter that is no filter (with the reason), a group the directory lacks, a bad attribute name, a password over 128; a 128-character password binds', async () => {
    const a = await newAccount(t());
    await verifiedDomain(t(), a.account.id);
    const long = `P${'x'.repeat(126)}!`;
    const base = await directoryOf(s, [{ uid: 'svc', password: long }, { uid: 'amy' }]);
    for (const endpoint of [checkLdap, previewLdap, saveLdap]) {
      await refused(t(), a.token, endpoint, configOf(s, { base_dn: base, user_filter: '(uid=amy' }), fmt(M.ldapFilterInvalid, { reason: LDAP_FILTER_PROBLEMS.unbalanced }));
      await refused(t(), a.token, endpoint, configOf(s, { base_dn: base, user_filter: 'uid=amy' }), fmt(M.ldapFilterInvalid, { reason: LDAP_FILTER_PROBLEMS.parens }));
      await refused(t(), a.token, endpoint, configOf(s, { base_dn: base, user_group: `cn=nobody,${base}` }), M.ldapGroupMissing);
      await refused(t(), a.token, endpoint, configOf(s, { base_dn: base, user_group: s.userDn('amy') }), M.ldapGroupNotGroup);
      await refused(t(), a.token, endpoint, configOf(s, { base_dn: base, user_group: 'not a dn' }), M.ldapGroupDnInvalid);
      await refused(t(), a.token, endpoint, configOf(s, { base_dn: base, name_attr: 'user name' }), M.ldapAttributeInvalid);
      await refused(t(), a.token, endpoint, configOf(s, { base_dn: base, password: `${long}x` }), fmt(M.ldapPasswordTooLong, { n: 128 }));
    }
    const svc = { base_dn: base, username: s.userDn('svc'), password: long };
    expect((await t().call(checkLdap, { token: a.token, body: configOf(s, svc) })).code).toBe(CODE.ok);
    expect((await t().call(saveLdap, { token: a.token, body: configOf(s, svc) })).code).toBe(CODE.ok);
    // The saved 128 characters stay behind the mask.
    expect((await t().call(previewLdap, { token: a.token, body: configOf(s, { ...svc, password: LDAP_PASSWORD_MASK }) })).data!.count).toBe(2);
  });
});
