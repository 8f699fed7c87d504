import type { AddressInfo } from 'node:net';
import { CODE, DEVICE_CLOSE, importAllLdapUsers, selfLogin, selfProfiles, uploadLdapCa, CM } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestDevice } from '../../../test/device';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { uploadFile } from '../../../test/multipart';
import { seedMembers, SEEDED_MEMBER_SECRET } from '../../../test/networks';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { directoryOf, enableLdap, listing } from './fixtures';

let s: Slapd;
beforeAll(async () => {
  s = await startSlapd({ tls: true });
});
afterAll(async () => {
  await s?.stop();
});

const appHello = (login: string, secret?: string, credential?: string) => ({
  type: 'hello',
  protocol: 1,
  kind: 'app',
  login,
  ...(secret !== undefined ? { secret } : {}),
  ...(credential ? { credential } : {}),
  os: 'windows',
  version: '3.1.0',
});

describeEachDatabase('gateway: a member imported from the directory signs in with its directory password', (t) => {
  let base: string;
  let sign: string;
  let tenantId: number;
  const open: TestDevice[] = [];

  /** A hello and how it ended: the welcome's credential, or the close code. */
  async function hello(login: string, secret?: string, credential?: string): Promise<{ welcome?: string; closed?: number }> {
    const d = await TestDevice.open(base);
    open.push(d);
    d.send(appHello(login, secret, credential));
    // next() fails when the socket closes first: then the close is the answer.
    const welcome = await d.next('welcome').catch(() => undefined);
    d.close();
    return welcome ? { welcome: welcome.credential } : { closed: (await d.closedWith()).code };
  }
  const failures = (key: string) => t().ctx.store.get(`rl:device-member:${key}`);

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    const main = await newAccount(t());
    tenantId = main.account.id;
    sign = (await t().db.selectFrom('account').select('sign').where('id', '=', tenantId).executeTakeFirstOrThrow()).sign;
    const ca = await uploadFile<{ ca_id: number }>(t(), uploadLdapCa, main.token, { filename: 'ca.pem', body: Buffer.from(s.ca) });
    // LDAPS with the uploaded CA: the gateway connects as the sync does.
    const dir = await directoryOf(s, [
      { uid: 'yara', password: 'yara-secret1' },
      { uid: 'zane', password: 'zane-secret1' },
    ]);
    await enableLdap(t(), main, s, { base_dn: dir, use_ssl: 1, port: String(s.tlsPort), host: 'localhost', ca_id: ca.data!.ca_id });
    const { hash } = await listing(t(), main.token);
    await t().call(importAllLdapUsers, { token: main.token, body: { hash } });
    await seedMembers(t(), tenantId, ['localuser'], { router_type: 2 });
    return () => {
      for (const d of open) d.close();
    };
  });

  it('welcomes it with the directory’s password and refuses any other, counting the failures', async () => {
    expect((await hello(`yara@${sign}`, 'yara-secret1')).welcome).toMatch(/^[\w-]{40,}$/);
    expect(await hello(`YARA@${sign}`, 'wrong-password')).toEqual({ closed: DEVICE_CLOSE.authFailed });
    expect(Number(await failures(`a:yara@${sign.toLowerCase()}`))).toBe(1);
    // The marker in its secret_hash is no password.
    expect(await hello(`yara@${sign}`, 'directory')).toEqual({ closed: DEVICE_CLOSE.authFailed });
    // An empty password would be an anonymous bind, which LDAP lets through: never asked.
    expect(await hello(`yara@${sign}`, '')).toEqual({ closed: DEVICE_CLOSE.authFailed });
    // A member of the console still signs in with its own password.
    expect((await hello(`localuser@${sign}`, SEEDED_MEMBER_SECRET)).welcome).toBeDefined();
  });

  it('signs in on the self-service page with the directory’s password too (issue 30), counting failures under the same key', async () => {
    const page = (password: string) => t().call(selfLogin, { body: { login: `zane@${sign}`, password }, ip: t().nextIp() });
    expect(await page('wrong-password')).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
    expect(Number(await failures(`a:zane@${sign.toLowerCase()}`))).toBe(1);
    expect(await page('directory')).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
    const ok = await page('zane-secret1');
    expect(ok.code).toBe(CODE.ok);
    expect((await t().call(selfProfiles, { token: ok.data!.token })).data).toMatchObject({ router_name: 'zane', login: `zane@${sign}` });
  });

  it('follows the directory: a new password works and the old one does not; a user disabled there is refused at once', async () => {
    await s.modifyUser('zane', { password: 'zane-secret2' });
    expect(await hello(`zane@${sign}`, 'zane-secret1')).toEqual({ closed: DEVICE_CLOSE.authFailed });
    expect((await hello(`zane@${sign}`, 'zane-secret2')).welcome).toBeDefined();
    // Disabled in the directory, not yet synced: refused after its password was proven.
    await s.modifyUser('zane', { disabled: true });
    expect(await hello(`zane@${sign}`, 'zane-secret2')).toEqual({ closed: DEVICE_CLOSE.disabled });
    expect(await hello(`zane@${sign}`, 'nope')).toEqual({ closed: DEVICE_CLOSE.authFailed });
    await s.modifyUser('zane', { disabled: false });
    expect((await hello(`zane@${sign}`, 'zane-secret2')).welcome).toBeDefined();
  });

  it('refuses while the directory cannot be asked, without counting it against the member', async () => {
    const key = `a:yara@${sign.toLowerCase()}`;
    await t().ctx.store.del(`rl:device-member:${key}`);
    await t().db.updateTable('ldap_config').set({ port: 1 }).where('tenant_id', '=', tenantId).execute();
    try {
      expect(await hello(`yara@${sign}`, 'yara-secret1')).toEqual({ closed: DEVICE_CLOSE.authFailed });
      expect(await failures(key)).toBeNull();
    } finally {
      await t().db.updateTable('ldap_config').set({ port: s.tlsPort }).where('tenant_id', '=', tenantId).execute();
    }
    expect((await hello(`yara@${sign}`, 'yara-secret1')).welcome).toBeDefined();
  });

  it('keeps the failure limits: after too many wrong passwords even the right one waits', async () => {
    const key = `a:yara@${sign.toLowerCase()}`;
    await t().ctx.store.del(`rl:device-member:${key}`);
    const answers: number[] = [];
    for (let i = 0; i < 30 && answers.at(-1) !== DEVICE_CLOSE.tooManyAttempts; i++) answers.push((await hello(`yara@${sign}`, `wrong${i}`)).closed!);
    expect(answers.at(-1)).toBe(DEVICE_CLOSE.tooManyAttempts);
    expect(answers.slice(0, -1).every((c) => c === DEVICE_CLOSE.authFailed)).toBe(true);
    expect(await hello(`yara@${sign}`, 'yara-secret1')).toEqual({ closed: DEVICE_CLOSE.tooManyAttempts });
    await t().ctx.store.del(`rl:device-member:${key}`);
  });

  it('asks no directory once the tenant’s configuration is gone', async () => {
    await t().db.deleteFrom('ldap_config').where('tenant_id', '=', tenantId).execute();
    expect(await hello(`yara@${sign}`, 'yara-secret1')).toEqual({ closed: DEVICE_CLOSE.authFailed });
  });
});
