import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLdap, importAllLdapUsers, M, saveLdap } from '@hublink/contract';
import { RedisStore } from '../../core/store';
import { createTestApp, newAccount, sharedDatabase, type TestApp } from '../../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers } from '../../../test/networks';
import { startRouterAgent } from '../../../test/routerAgent';
import { startSlapd, type Slapd } from '../../../test/slapd';
import { until } from '../../../test/until';
import { directorySignIn } from '../../domain/ldapSignIn';
import { configOf, listing, verifiedDomain } from './fixtures';
import { configOf as configRow, hashOf } from './state';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/*
 * LDAP private mode across two instances (issue 33), as deployed for scale: one PostgreSQL database and
 * one Redis. The router's agent is signed in on A; the console's check, save and sync, and a member's
 * sign-in, are served by B, whose relay reaches the router through Redis to A's gateway session.
 */
describe.skipIf(!databaseUrl || !redisUrl)('LDAP private mode across two instances on PostgreSQL and Redis', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let slapd: Slapd;
  let a: TestApp;
  let b: TestApp;
  let agent: ReturnType<typeof startRouterAgent> | undefined;
  let main: Awaited<ReturnType<typeof newAccount>>;
  let router = '';

  beforeAll(async () => {
    slapd = await startSlapd({ users: [{ uid: 'chenjing', password: 'Directory-pass7' }] });
    shared = await sharedDatabase('postgres');
    const prefix = `hublink-test:${randomBytes(6).toString('hex')}:`;
    // Neither may reach a private address itself: only the router can reach the directory.
    const config = { redisUrl, allowPrivateTargets: false };
    a = await createTestApp('postgres', { config: { ...config, instance: 'ldap-a' }, backbone: { redisPrefix: prefix }, database: shared.open(), store: new RedisStore(redisUrl!, prefix) });
    b = await createTestApp('postgres', { config: { ...config, instance: 'ldap-b' }, backbone: { redisPrefix: prefix }, database: shared.open(), store: new RedisStore(redisUrl!, prefix) });
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    main = await newAccount(b);
    await verifiedDomain(b, main.account.id);
    [router = ''] = await seedFreshMembers(b, main.account.id, 1);
    agent = startRouterAgent(`http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`, router, SEEDED_MEMBER_SECRET);
    const member = await b.db.selectFrom('member').select('id').where('router_name', '=', router).executeTakeFirstOrThrow();
    await until(async () => (await b.db.selectFrom('device_session').select('id').where('member_id', '=', member.id).executeTakeFirst()) !== undefined, 'the router online on A');
  });
  afterAll(async () => {
    await agent?.stop();
    await a?.close();
    await b?.close();
    await shared?.drop();
    await slapd?.stop();
  });

  it('checks, saves, imports and signs a member in on B through the router signed in on A', async () => {
    const body = configOf(slapd, { mode: 'private', router_name: router });
    const checked = await b.call(checkLdap, { token: main.token, body });
    expect([checked.code, checked.msg]).toEqual([200, M.ldapChecked]);
    const saved = await b.call(saveLdap, { token: main.token, body });
    expect([saved.code, saved.msg]).toEqual([200, M.ldapSaved]);
    expect((await listing(b, main.token)).users.map((u) => u.username)).toEqual(['chenjing']);
    const imported = await b.call(importAllLdapUsers, { token: main.token, body: { hash: hashOf((await configRow(b.db, main.account.id))!) } });
    expect([imported.code, imported.data]).toEqual([200, { success: 1, fail: 0 }]);
    const member = await b.db.selectFrom('member').select(['id', 'tenant_id']).where('tenant_id', '=', main.account.id).where('router_name', '=', 'chenjing').executeTakeFirstOrThrow();
    expect(await directorySignIn(b.ctx, member, 'Directory-pass7')).toBe('ok');
    expect(await directorySignIn(b.ctx, member, 'not-the-password')).toBe('wrong');
    await until(() => agent!.connectionsRelayed === 0, 'every relayed connection closed on the router');
  });
});
