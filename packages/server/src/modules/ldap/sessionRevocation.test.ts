import type { AddressInfo } from 'node:net';
import { CODE, DEVICE_CLOSE, DEVICE_FEATURES, importAllLdapUsers, LDAP_TYPE, selfLogin, selfProfiles, syncLdap } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routerHello, TestDevice } from '../../../test/device';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers, seedNetwork } from '../../../test/networks';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { until } from '../../../test/until';
import { directoryOf, enableLdap, listing } from './fixtures';
import { changePassword, ldapModify } from '../../../test/ldapModify';

/*
 * Issue 33: a password changed in the directory, or an account disabled or removed there, ends the
 * member's live sessions and credentials at the next sync: its app's session at the device gateway
 * is closed, its device credentials revoked, and it signs in again with the new password. Against
 * slapd with the ppolicy overlay (pwdChangedTime), without it (the entry's change stamp), and an
 * Active Directory-like entry (pwdLastSet).
 */

let withPolicy: Slapd;
let plain: Slapd;
beforeAll(async () => {
  [withPolicy, plain] = await Promise.all([startSlapd({ ppolicy: true }), startSlapd()]);
});
afterAll(async () => {
  await withPolicy?.stop();
  await plain?.stop();
});

describeEachDatabase('LDAP sync: sessions end when the directory changes a password or an account', (t) => {
  let base = '';
  const open: TestDevice[] = [];
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    return () => {
      for (const d of open) d.close();
    };
  });

  /**
   * A tenant over its own part of `s` with these users, all imported; answers its sign and token.
   * `changed`: each user has changed its password once already (ppolicy records pwdChangedTime only then).
   */
  async function tenant(s: Slapd, uids: string[], kind: 'openldap' | 'ad' = 'openldap', changed = false, prepare?: (tenantId: number) => Promise<Record<string, unknown>>) {
    const main = await newAccount(t());
    const over = prepare ? await prepare(main.account.id) : {};
    const dir = await directoryOf(
      s,
      uids.map((uid) => ({ uid, password: `${uid}-pass1` })),
      kind,
    );
    if (changed) for (const uid of uids) await changePassword(s, `uid=${uid},${dir}`, `${uid}-pass1`);
    await enableLdap(t(), main, s, { base_dn: dir, type: kind === 'ad' ? LDAP_TYPE.ad : LDAP_TYPE.openldap, ...over });
    const { hash } = await listing(t(), main.token);
    await t().call(importAllLdapUsers, { token: main.token, body: { hash } });
    const sign = (await t().db.selectFrom('account').select('sign').where('id', '=', main.account.id).executeTakeFirstOrThrow()).sign;
    return { ...main, dir, sign };
  }

  /** The member's app signed in and connected; answers the open session and its credential. */
  async function signedIn(login: string, secret: string): Promise<{ device: TestDevice; credential: string }> {
    const device = await TestDevice.open(base);
    open.push(device);
    device.send({ type: 'hello', protocol: 1, kind: 'app', login, secret, os: 'windows', version: '3.1.0' });
    const welcome = await device.next('welcome');
    return { device, credential: welcome.credential! };
  }

  /** How a hello with a secret or a credential ends: welcomed, or closed with a code. */
  async function hello(login: string, auth: { secret?: string; credential?: string }): Promise<'welcome' | number> {
    const d = await TestDevice.open(base);
    open.push(d);
    d.send({ type: 'hello', protocol: 1, kind: 'app', login, ...auth, os: 'windows', version: '3.1.0' });
    const welcome = await d.next('welcome').catch(() => undefined);
    d.close();
    return welcome ? 'welcome' : (await d.closedWith()).code;
  }

  const sync = async (a: { token: string }) => {
    const res = await t().call(syncLdap, { token: a.token, body: { hash: (await listing(t(), a.token)).hash } });
    expect(res.code).toBe(200);
  };
  const credentials = async (tenantId: number, name: string) =>
    (await t().db.selectFrom('device_credential as c').innerJoin('member as m', 'm.id', 'c.member_id').select('c.id').where('m.tenant_id', '=', tenantId).where('m.router_key', '=', name).execute()).length;
  /** The directory stamps changes to the second: wait until a change is stamped later than what the last sync read. */
  const nextSecond = async () => {
    const now = Math.floor(Date.now() / 1000);
    await until(() => Math.floor(Date.now() / 1000) > now, 'the directory clock’s next second');
  };

  it('ppolicy (pwdChangedTime): a password changed with ldapmodify ends the app session and its credential at the next sync; other changes end nothing', async () => {
    const a = await tenant(withPolicy, ['sam', 'tia'], 'openldap', true);
    const marks = await t().db.selectFrom('ldap_user').select('password_mark').where('tenant_id', '=', a.account.id).execute();
    expect(marks.map((m) => m.password_mark)).toEqual([expect.stringMatching(/^p:\d{14}Z$/), expect.stringMatching(/^p:\d{14}Z$/)]);
    const sam = await signedIn(`sam@${a.sign}`, 'sam-pass1');
    const tia = await signedIn(`tia@${a.sign}`, 'tia-pass1');
    // sam's self-service page too (issue 30): its sign-in token ends with the others.
    const page = await t().call(selfLogin, { body: { login: `sam@${a.sign}`, password: 'sam-pass1' }, ip: t().nextIp() });
    expect(page.code).toBe(CODE.ok);
    expect((await t().call(selfProfiles, { token: page.data!.token })).code).toBe(CODE.ok);
    const hash = (await listing(t(), a.token)).hash;

    await nextSecond();
    await changePassword(withPolicy, `uid=sam,${a.dir}`, 'sam-pass2');
    await ldapModify(withPolicy, `dn: uid=tia,${a.dir}\nchangetype: modify\nreplace: description\ndescription: 换了部门`);
    // Nothing ends before the sync (a new sign-in is asked of the directory anyway).
    expect(sam.device.closed).toBeUndefined();
    await sync(a);

    expect((await sam.device.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
    await until(async () => (await credentials(a.account.id, 'sam')) === 0, 'sam’s credentials revoked');
    await t().ctx.events.settle();
    expect((await t().call(selfProfiles, { token: page.data!.token })).code).toBe(CODE.tokenInvalid);
    const again = await t().call(selfLogin, { body: { login: `sam@${a.sign}`, password: 'sam-pass2' }, ip: t().nextIp() });
    expect((await t().call(selfProfiles, { token: again.data!.token })).code).toBe(CODE.ok);
    await t().ctx.events.settle();
    // tia's description changed, not its password: its session and credential stay.
    expect(tia.device.closed).toBeUndefined();
    expect(await credentials(a.account.id, 'tia')).toBe(1);
    // The listing shows no password: only tia's new description changed its hash.
    expect((await listing(t(), a.token)).hash).not.toBe(hash);

    // sam signs in again, with the new password only; the old credential is gone.
    expect(await hello(`sam@${a.sign}`, { credential: sam.credential })).toBe(DEVICE_CLOSE.authFailed);
    expect(await hello(`sam@${a.sign}`, { secret: 'sam-pass1' })).toBe(DEVICE_CLOSE.authFailed);
    expect(await hello(`sam@${a.sign}`, { secret: 'sam-pass2' })).toBe('welcome');
    // tia's credential still opens.
    expect(await hello(`tia@${a.sign}`, { credential: tia.credential })).toBe('welcome');
  });

  it('a password change also disconnects the member’s standard clients at the centers of its networks (client_kill)', async () => {
    let center = '';
    let network = '';
    const a = await tenant(withPolicy, ['yan'], 'openldap', true, async (tenantId) => {
      [center = ''] = await seedFreshMembers(t(), tenantId, 1);
      network = (await seedNetwork(t(), tenantId, { center: [center] })).network_number;
      return { network_number: network };
    });
    await t().ctx.events.settle();
    const router = await TestDevice.open(base);
    open.push(router);
    router.send(routerHello(center, SEEDED_MEMBER_SECRET, { protocol: DEVICE_FEATURES.clientAuth }));
    await router.next('welcome');
    await nextSecond();
    await changePassword(withPolicy, `uid=yan,${a.dir}`, 'yan-pass2');
    await sync(a);
    expect(await router.next('client_kill')).toEqual({ type: 'client_kill', network_number: network, common_names: ['yan'] });
  });

  it('without ppolicy the entry’s change stamp stands in: a password change ends the session, and so does any change of the entry', async () => {
    const a = await tenant(plain, ['uma']);
    const mark = await t().db.selectFrom('ldap_user').select('password_mark').where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
    expect(mark.password_mark).toMatch(/^c:\d{14}\.\d{6}Z#/);
    let uma = await signedIn(`uma@${a.sign}`, 'uma-pass1');
    await changePassword(plain, `uid=uma,${a.dir}`, 'uma-pass2');
    await sync(a);
    expect((await uma.device.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
    expect(await hello(`uma@${a.sign}`, { secret: 'uma-pass1' })).toBe(DEVICE_CLOSE.authFailed);
    // The safe side: the directory cannot say what changed, so a new description ends the session too.
    uma = await signedIn(`uma@${a.sign}`, 'uma-pass2');
    await plain.modifyUser('uma', { description: '调岗' });
    await sync(a);
    expect((await uma.device.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
    expect(await hello(`uma@${a.sign}`, { secret: 'uma-pass2' })).toBe('welcome');
  });

  it('Active Directory (pwdLastSet): a reset password ends the session at the next sync', async () => {
    const a = await tenant(withPolicy, ['vic'], 'ad');
    const dn = `cn=vic,${a.dir}`;
    await ldapModify(withPolicy, `dn: ${dn}\nchangetype: modify\nreplace: pwdLastSet\npwdLastSet: 134000000000000000`);
    // The first mark read ends nothing.
    await sync(a);
    const vic = await signedIn(`vic@${a.sign}`, 'vic-pass1');
    await ldapModify(withPolicy, `dn: ${dn}\nchangetype: modify\nreplace: userPassword\nuserPassword: vic-pass2\n-\nreplace: pwdLastSet\npwdLastSet: 134000000010000000`);
    await sync(a);
    expect((await vic.device.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
    expect(await hello(`vic@${a.sign}`, { secret: 'vic-pass2' })).toBe('welcome');
  });

  it('an account disabled or removed in the directory ends its session at the next sync', async () => {
    const a = await tenant(withPolicy, ['wes', 'xia']);
    const wes = await signedIn(`wes@${a.sign}`, 'wes-pass1');
    const xia = await signedIn(`xia@${a.sign}`, 'xia-pass1');
    await withPolicy.modifyUser('wes', { disabled: true });
    await withPolicy.deleteUser('xia');
    await sync(a);
    expect((await wes.device.closedWith()).code).toBe(DEVICE_CLOSE.disabled);
    expect((await xia.device.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
    expect(await hello(`wes@${a.sign}`, { secret: 'wes-pass1' })).toBe(DEVICE_CLOSE.disabled);
    expect(await hello(`xia@${a.sign}`, { credential: xia.credential })).toBe(DEVICE_CLOSE.authFailed);
  });
});
