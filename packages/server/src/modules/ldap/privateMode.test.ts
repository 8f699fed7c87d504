import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLdap, fmt, importAllLdapUsers, M, saveLdap } from '@hublink/contract';
import { createTestApp, DATABASES, newAccount, type TestApp } from '../../../test/helpers';
import { TestDevice, routerHello } from '../../../test/device';
import { SEEDED_MEMBER_SECRET, seedFreshMembers } from '../../../test/networks';
import { startRouterAgent } from '../../../test/routerAgent';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { until } from '../../../test/until';
import { directorySignIn } from '../../domain/ldapSignIn';
import { configOf, listing, verifiedDomain } from './fixtures';
import { configOf as configRow, hashOf } from './state';

/*
 * LDAP private mode (issue 33) on both databases: the reference agent (in this process) is the router,
 * and a slapd on 127.0.0.1 is "inside its branch": the server, which may not reach private addresses,
 * checks, saves and signs in through the router. The messages for a router that is offline, refuses,
 * or whose connection fails. (dataplane/ldapPrivate.test.ts does it across namespaces with the agent's
 * process, LDAPS and the agent's refusal of any other target.)
 */

const SECRET = SEEDED_MEMBER_SECRET;

let s: Slapd;
beforeAll(async () => {
  s = await startSlapd({ users: [{ uid: 'wangwu', password: 'Directory-pass3' }] });
});
afterAll(async () => {
  await s?.stop();
});

for (const dialect of DATABASES) {
  describe(`LDAP private mode through a router [${dialect}]`, () => {
    let t: TestApp;
    let base = '';
    let main: Awaited<ReturnType<typeof newAccount>>;
    let router = '';
    let routerId = 0;
    let client: ReturnType<typeof startRouterAgent> | undefined;

    const online = async () => (await t.db.selectFrom('device_session').select('id').where('member_id', '=', routerId).executeTakeFirst()) !== undefined;
    const body = (over: Record<string, unknown> = {}) => configOf(s, { mode: 'private', router_name: router, ...over });
    const check = async (over: Record<string, unknown> = {}) => {
      const res = await t.call(checkLdap, { token: main.token, body: body(over) });
      return [res.code, res.msg];
    };

    beforeAll(async () => {
      t = await createTestApp(dialect, { config: { allowPrivateTargets: false } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      main = await newAccount(t);
      await verifiedDomain(t, main.account.id);
      [router = ''] = await seedFreshMembers(t, main.account.id, 1);
      routerId = (await t.db.selectFrom('member').select('id').where('router_name', '=', router).executeTakeFirstOrThrow()).id;
    });
    afterAll(async () => {
      await client?.stop();
      await t?.close();
    });

    it('an offline router is said so; the public mode refuses the private address', async () => {
      expect(await check()).toEqual([422, fmt(M.ldapErrRouterOffline, { name: router })]);
      expect(await check({ mode: 'public', router_name: '' })).toEqual([422, M.ldapHostPrivate]);
    });

    it('checks, saves and signs a member in through the router; a failed connection there names the router', async () => {
      client = startRouterAgent(base, router, SECRET);
      await until(online, 'the router online');
      expect(await check()).toEqual([200, M.ldapChecked]);
      const saved = await t.call(saveLdap, { token: main.token, body: body() });
      expect([saved.code, saved.msg]).toEqual([200, M.ldapSaved]);
      const users = await t.db.selectFrom('ldap_user').select(['username', 'dn']).where('tenant_id', '=', main.account.id).execute();
      expect(users).toEqual([{ username: 'wangwu', dn: s.userDn('wangwu') }]);
      expect((await listing(t, main.token)).users.map((u) => u.username)).toEqual(['wangwu']);
      // Imported, the member signs in with the directory's password: the gateway asks the directory through the router.
      const imported = await t.call(importAllLdapUsers, { token: main.token, body: { hash: hashOf((await configRow(t.db, main.account.id))!) } });
      expect(imported.code, imported.msg).toBe(200);
      const member = await t.db.selectFrom('member').select(['id', 'tenant_id']).where('tenant_id', '=', main.account.id).where('router_name', '=', 'wangwu').executeTakeFirstOrThrow();
      expect(await directorySignIn(t.ctx, member, 'Directory-pass3')).toBe('ok');
      expect(await directorySignIn(t.ctx, member, 'wrong-pass')).toBe('wrong');
      // Nothing listens on port 1 of the router's side.
      expect(await check({ port: '1' })).toEqual([422, fmt(M.ldapErrViaRouter, { name: router, message: M.ldapErrRefused })]);
      await until(() => client!.connectionsRelayed === 0, 'every relayed connection closed');
    });

    it('a router that refuses, and one that ended its session, are said so', async () => {
      await client!.stop();
      await until(async () => !(await online()), 'the agent gone');
      // A router of the tests' own: it refuses every open, as an agent at its limit does.
      const d = await TestDevice.open(base);
      d.send(routerHello(router, SECRET));
      await d.next('welcome');
      d.socket.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; id?: string };
        if (m.type === 'directory_open') d.send({ type: 'directory_opened', id: m.id, ok: false, error: 'too_many' });
      });
      expect(await check()).toEqual([422, fmt(M.ldapErrRouterRefused, { name: router, reason: M.ldapRelayTooMany })]);
      // One that opens and then leaves: the check fails with the router gone, not a hang.
      d.socket.removeAllListeners('message');
      d.socket.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; id?: string };
        if (m.type === 'directory_open') d.close();
      });
      expect(await check()).toEqual([422, fmt(M.ldapErrRouterOffline, { name: router })]);
    });
  });
}
