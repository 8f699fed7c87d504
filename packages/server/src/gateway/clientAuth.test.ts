import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, authSourceCallback, LIMITS, ROUTER_TYPE, saveDeviceApprovalSetting, vpnWebSignIn, type ClientAuthResultMessage, CM } from '@hublink/contract';
import { TestDevice, routerHello } from '../../test/device';
import { createTestApp, DATABASES, describeEachDatabase, newAccount, sharedDatabase, type TestApp } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers, seedNetwork } from '../../test/networks';
import { browse, startProviders, type LocalProviders } from '../../test/providers';
import { syncNetworkCertificates } from '../compiler/certificates';
import { MemoryStore, RedisStore } from '../core/store';
import { createSourceAs, grantFeature } from '../modules/auth-source/fixtures';
import { endOverdueWebSignIns } from './webSignIn';

/**
 * A center asks the gateway about a standard client (client_auth, issue 30), through a real session on
 * the gateway's WebSocket. The namespace suite (dataplane/stockClient.test.ts) proves the same with
 * OpenVPN on the wire; this covers every rule on both databases.
 */
describeEachDatabase('device gateway: judging standard clients', (t) => {
  let base: string;
  let a: Awaited<ReturnType<typeof newAccount>>;
  let b: Awaited<ReturnType<typeof newAccount>>;
  let sign = '';
  let center: TestDevice;
  let net: { id: number; network_number: string };
  let staff = '';
  let theirStaff = '';
  let seq = 0;
  const PHONE = '13912345678';

  const serialOf = async (name: string) => {
    const row = await t()
      .db.selectFrom('member_certificate as c')
      .innerJoin('member as m', 'm.id', 'c.member_id')
      .select('c.serial')
      .where('m.router_key', '=', name.toLowerCase())
      .where('c.revoked_at', 'is', null)
      .orderBy('c.id', 'desc')
      .executeTakeFirstOrThrow();
    return BigInt(`0x${row.serial}`).toString();
  };

  async function ask(fields: Record<string, unknown>): Promise<ClientAuthResultMessage> {
    const id = `q${++seq}`;
    center.send({ type: 'client_auth', id, network_number: net.network_number, common_name: staff, serial: await serialOf(staff), orig: '198.51.100.7:41000', platform: 'win', hwaddr: '0e:00:00:00:00:01', ...fields });
    return center.next('client_auth_result', (m) => m.id === id);
  }
  const reasons = async () => (await t().db.selectFrom('connect_log').select('reason').where('router_name', '=', staff).where('reason', '!=', '').execute()).map((r) => r.reason);

  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t().app.server.address() as AddressInfo).port}`;
    a = await newAccount(t());
    b = await newAccount(t());
    sign = (await t().db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;
    const [c = ''] = await seedFreshMembers(t(), a.account.id, 1);
    [staff = ''] = await seedFreshMembers(t(), a.account.id, 1, { router_type: ROUTER_TYPE.software });
    [theirStaff = ''] = await seedFreshMembers(t(), b.account.id, 1, { router_type: ROUTER_TYPE.software });
    await t().db.updateTable('member').set({ phone: PHONE }).where('router_key', '=', staff.toLowerCase()).execute();
    net = await seedNetwork(t(), a.account.id, { center: [c], point: [staff] });
    const theirNet = await seedNetwork(t(), b.account.id, { point: [theirStaff] });
    await syncNetworkCertificates(t().ctx, a.account.id, net.id, new Date());
    await syncNetworkCertificates(t().ctx, b.account.id, theirNet.id, new Date());
    center = await TestDevice.open(base);
    center.send(routerHello(c, SEEDED_MEMBER_SECRET));
    await center.next('welcome');
    return () => center.close();
  });

  it('matches a serial whose first byte is below 0x10 (kept with its leading zero by the PKI)', async () => {
    const id = (await t().db.selectFrom('member').select('id').where('router_key', '=', staff.toLowerCase()).executeTakeFirstOrThrow()).id;
    const row = await t().db.selectFrom('member_certificate').select(['id', 'serial']).where('member_id', '=', id).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const low = `0a${row.serial.slice(2)}`;
    await t().db.updateTable('member_certificate').set({ serial: low }).where('id', '=', row.id).execute();
    try {
      expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET, serial: BigInt(`0x${low}`).toString() })).toMatchObject({ verdict: 'accept' });
    } finally {
      await t().db.updateTable('member_certificate').set({ serial: row.serial }).where('id', '=', row.id).execute();
    }
  });

  it('admits the password, or the bound phone as the user name', async () => {
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
    expect(await ask({ username: PHONE, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
    expect(await ask({ username: `+86 ${PHONE}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
  });

  it('refuses a wrong password, no login, a login that is not the certificate’s member, with the reason in the connect log', async () => {
    expect(await ask({ username: `${staff}@${sign}`, password: 'wrong-one' })).toMatchObject({ verdict: 'deny', client_reason: CM.clientWrongPassword });
    expect(await ask({})).toMatchObject({ verdict: 'deny', client_reason: CM.clientLoginRequired });
    expect(await ask({ username: `${theirStaff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny', client_reason: CM.clientLoginMismatch });
    expect(await reasons()).toEqual(expect.arrayContaining(['wrong password', 'no login given']));
  });

  it("refuses a certificate that is not the member's current one, and another tenant's member", async () => {
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET, serial: '12345' })).toMatchObject({ verdict: 'deny', client_reason: CM.clientCertificateRevoked });
    expect(await ask({ common_name: theirStaff, username: `${theirStaff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny', client_reason: CM.clientNotInNetwork });
    // Not a network this center serves.
    expect(await ask({ network_number: 'NOTMINE00001', username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny' });
  });

  it('holds a new device of a tenant that approves devices, and admits a renegotiation without the password', async () => {
    expect((await t().call(saveDeviceApprovalSetting, { token: a.token, body: { enabled: 1 } })).code).toBe(200);
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'accept' });
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET, hwaddr: '0e:00:00:00:00:99' })).toMatchObject({ verdict: 'deny', client_reason: CM.clientAwaitingApproval });
    expect(await ask({ reauth: true })).toMatchObject({ verdict: 'accept' });
  });

  it('refuses a disabled member', async () => {
    await t().db.updateTable('member').set({ status: 0 }).where('router_key', '=', staff.toLowerCase()).execute();
    expect(await ask({ username: `${staff}@${sign}`, password: SEEDED_MEMBER_SECRET })).toMatchObject({ verdict: 'deny', client_reason: CM.clientDisabled });
    expect(await ask({ reauth: true })).toMatchObject({ verdict: 'deny', client_reason: CM.clientDisabled });
  });
});

/**
 * A member of a Feishu source has no password: its standard client signs in on the web (OpenVPN's
 * WEB_AUTH). The center is answered pending with a URL; the browser (browse) goes through the URL, a
 * local Feishu and the callback; the final answer reaches the center's session under the same id.
 */
describe('device gateway: a web sign-in for a member of a sign-in source', () => {
  let providers: LocalProviders;
  beforeAll(async () => {
    providers = await startProviders();
    return () => providers.close();
  });

  for (const dialect of DATABASES) {
    describe(`[${dialect}]`, () => {
      let t: TestApp;
      let base = '';
      let later = 0;
      let center: TestDevice;
      let net: { id: number; network_number: string };
      const names = { mine: '', other: '' };
      let seq = 0;
      const TENANT_KEY = `tk-web-${dialect}`;
      const person = (who: 'mine' | 'other' | 'stranger') => ({ tenantKey: TENANT_KEY, unionId: `on_${who}`, openId: `ou_${who}`, name: who });

      beforeAll(async () => {
        t = await createTestApp(dialect, { config: { authProviders: providers.urls }, store: new MemoryStore(() => Date.now() + later) });
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
        const a = await newAccount(t);
        await grantFeature(t, a.account.id);
        const appId = `cli_web_${dialect}`;
        providers.feishu.apps.push({ appId, secret: 'feishu-secret-1', redirectUrls: [`${base}${API_BASE_PATH}${authSourceCallback.path}`] });
        const source = await createSourceAs(t, a.token, { type: 'feishu', name: '飞书登录', app_id: appId, app_secret: 'feishu-secret-1' });
        const [c = ''] = await seedFreshMembers(t, a.account.id, 1);
        [names.mine = '', names.other = ''] = await seedFreshMembers(t, a.account.id, 2, { router_type: ROUTER_TYPE.software });
        // As the source leaves them (members.ts): no password, bound to the person's Feishu identity.
        for (const who of ['mine', 'other'] as const) {
          const m = await t.db.updateTable('member').set({ source: 'feishu', secret_hash: '!auth_source' }).where('router_key', '=', names[who].toLowerCase()).returning('id').executeTakeFirstOrThrow();
          await t.db.insertInto('auth_source_member').values({ tenant_id: a.account.id, source_id: source, member_id: m.id, external_key: `${TENANT_KEY}/on_${who}`, create_time: Date.now() }).execute();
        }
        net = await seedNetwork(t, a.account.id, { center: [c], point: [names.mine, names.other] });
        await syncNetworkCertificates(t.ctx, a.account.id, net.id, new Date());
        center = await TestDevice.open(base);
        center.send(routerHello(c, SEEDED_MEMBER_SECRET));
        await center.next('welcome');
      });
      afterAll(async () => {
        center?.close();
        await t?.close();
      });

      const serialOf = async (name: string) => {
        const row = await t.db
          .selectFrom('member_certificate as c')
          .innerJoin('member as m', 'm.id', 'c.member_id')
          .select('c.serial')
          .where('m.router_key', '=', name.toLowerCase())
          .where('c.revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        return BigInt(`0x${row.serial}`).toString();
      };
      /** The center asks about `mine`'s client, which says it can sign in on the web; answers the first reply and the id. */
      async function ask(fields: Record<string, unknown> = {}) {
        const id = `w${++seq}`;
        center.send({ type: 'client_auth', id, network_number: net.network_number, common_name: names.mine, serial: await serialOf(names.mine), orig: '198.51.100.9:41000', platform: 'linux', hwaddr: '0e:00:00:00:00:07', sso: 'webauth,crtext', ...fields });
        return { id, first: await center.next('client_auth_result', (m) => m.id === id) };
      }
      const finalOf = (id: string) => center.next('client_auth_result', (m) => m.id === id && m.verdict !== 'pending');
      /** The person's browser: the URL, the provider, the callback, and the page it ends on. */
      async function signIn(url: string) {
        const result = await browse(url, 'never:');
        if (result.kind !== 'page') throw new Error('the browser left the platform');
        return result;
      }
      const reasons = async () => (await t.db.selectFrom('connect_log').select('reason').where('router_name', '=', names.mine).where('reason', '!=', '').execute()).map((r) => r.reason);

      it('answers pending with a URL on the platform; the sign-in of the member admits the client, once', async () => {
        const { id, first } = await ask();
        expect(first).toMatchObject({ verdict: 'pending', timeout: LIMITS.vpnWebSignInSeconds });
        expect(LIMITS.vpnWebSignInSeconds).toBeLessThanOrEqual(60);
        expect(first.url).toMatch(new RegExp(`^${base}${API_BASE_PATH}${vpnWebSignIn.path}\\?token=[A-Za-z0-9_-]{43}$`));
        providers.feishu.signIn(person('mine'));
        const page = await signIn(first.url);
        expect(page.status).toBe(200);
        expect(page.body).toContain(CM.webSignInDone);
        expect(await finalOf(id)).toMatchObject({ verdict: 'accept' });
        // The URL served once.
        const again = await signIn(first.url);
        expect(again.body).toContain(CM.webSignInExpired);
        expect(center.received.filter((m) => m.type === 'client_auth_result' && m.id === id)).toHaveLength(2);
      });

      it('refuses the sign-in of another member, or of a person bound to none, with the reason in the connect log', async () => {
        for (const who of ['other', 'stranger'] as const) {
          const { id, first } = await ask();
          providers.feishu.signIn(person(who));
          expect((await signIn(first.url)).body).toContain(CM.clientWebSignInOtherPerson);
          expect(await finalOf(id)).toMatchObject({ verdict: 'deny', client_reason: CM.clientWebSignInOtherPerson });
        }
        expect(await reasons()).toEqual(expect.arrayContaining(['the web sign-in named another member', 'the web sign-in named a person bound to no member']));
        // Nobody was created for the stranger.
        expect(await t.db.selectFrom('auth_source_member').select('id').where('external_key', '=', `${TENANT_KEY}/on_stranger`).execute()).toEqual([]);
      });

      it('refuses a sign-in whose time is up: the URL no longer opens, the client is told, the connect log says so', async () => {
        const { id, first } = await ask();
        later = (LIMITS.vpnWebSignInSeconds + 1) * 1000;
        try {
          expect((await signIn(first.url)).body).toContain(CM.webSignInExpired);
          await endOverdueWebSignIns(t.ctx, Date.now() + later);
        } finally {
          later = 0;
        }
        expect(await finalOf(id)).toMatchObject({ verdict: 'deny', client_reason: CM.clientWebSignInTimeout });
        expect(await reasons()).toContain('the web sign-in timed out');
      });

      it('refuses a client that cannot sign in on the web, and a disabled member after its sign-in', async () => {
        expect((await ask({ sso: '' })).first).toMatchObject({ verdict: 'deny', client_reason: CM.clientWebSignInUnsupported });
        const { id, first } = await ask();
        await t.db.updateTable('member').set({ status: 0 }).where('router_key', '=', names.mine.toLowerCase()).execute();
        try {
          providers.feishu.signIn(person('mine'));
          expect((await signIn(first.url)).body).toContain(CM.clientDisabled);
          expect(await finalOf(id)).toMatchObject({ verdict: 'deny', client_reason: CM.clientDisabled });
        } finally {
          await t.db.updateTable('member').set({ status: 1 }).where('router_key', '=', names.mine.toLowerCase()).execute();
        }
      });
    });
  }
});

// Two instances as deployed for scale (one PostgreSQL, one Redis): the center's session on A, the
// person's browser on B; the final answer crosses to A through the delivery channel.
describe.skipIf(!process.env.TEST_DATABASE_URL || !process.env.TEST_REDIS_URL)('device gateway: a web sign-in finished on another instance', () => {
  let providers: LocalProviders;
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  const apps: TestApp[] = [];
  let center: TestDevice | undefined;
  afterAll(async () => {
    center?.close();
    for (const app of apps) await app.close();
    await shared?.drop();
    await providers?.close();
  });

  it("admits the client at the center's instance", async () => {
    providers = await startProviders();
    shared = await sharedDatabase('postgres');
    const prefix = `hublink-test:${randomBytes(6).toString('hex')}:`;
    for (const instance of ['web-a', 'web-b']) {
      // The store is shared too (Redis), as deployed: the URL's token and the open mark.
      const store = new RedisStore(process.env.TEST_REDIS_URL!, prefix);
      const app = await createTestApp('postgres', { config: { redisUrl: process.env.TEST_REDIS_URL, instance, authProviders: providers.urls }, backbone: { redisPrefix: prefix }, database: shared.open(), store });
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
    const [a, b] = apps as [TestApp, TestApp];
    const baseOf = (t: TestApp) => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const account = await newAccount(b);
    await grantFeature(b, account.account.id);
    providers.feishu.apps.push({ appId: 'cli_web_two', secret: 'feishu-secret-1', redirectUrls: [`${baseOf(b)}${API_BASE_PATH}${authSourceCallback.path}`] });
    const source = await createSourceAs(b, account.token, { type: 'feishu', name: '飞书登录', app_id: 'cli_web_two', app_secret: 'feishu-secret-1' });
    const [c = ''] = await seedFreshMembers(b, account.account.id, 1);
    const [staff = ''] = await seedFreshMembers(b, account.account.id, 1, { router_type: ROUTER_TYPE.software });
    const m = await b.db.updateTable('member').set({ source: 'feishu', secret_hash: '!auth_source' }).where('router_key', '=', staff.toLowerCase()).returning('id').executeTakeFirstOrThrow();
    await b.db.insertInto('auth_source_member').values({ tenant_id: account.account.id, source_id: source, member_id: m.id, external_key: 'tk-two/on_two', create_time: Date.now() }).execute();
    const net = await seedNetwork(b, account.account.id, { center: [c], point: [staff] });
    await syncNetworkCertificates(b.ctx, account.account.id, net.id, new Date());
    const cert = await b.db.selectFrom('member_certificate').select('serial').where('member_id', '=', m.id).where('revoked_at', 'is', null).executeTakeFirstOrThrow();

    center = await TestDevice.open(baseOf(a));
    center.send(routerHello(c, SEEDED_MEMBER_SECRET));
    await center.next('welcome');
    center.send({ type: 'client_auth', id: 'x1', network_number: net.network_number, common_name: staff, serial: BigInt(`0x${cert.serial}`).toString(), orig: '198.51.100.9:41000', platform: 'linux', sso: 'webauth' });
    const pending = await center.next('client_auth_result', (r) => r.id === 'x1');
    expect(pending).toMatchObject({ verdict: 'pending' });
    expect(pending.url.startsWith(baseOf(a))).toBe(true);
    providers.feishu.signIn({ tenantKey: 'tk-two', unionId: 'on_two', openId: 'ou_two', name: 'two' });
    const url = new URL(pending.url);
    const page = await browse(`${baseOf(b)}${url.pathname}${url.search}`, 'never:');
    expect(page.kind === 'page' && page.body).toContain(CM.webSignInDone);
    expect(await center.next('client_auth_result', (r) => r.id === 'x1' && r.verdict !== 'pending')).toMatchObject({ verdict: 'accept' });
  }, 60_000);
});
