import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeAuthSource,
  authSourceCallback,
  authSourceCode,
  authSourceToken,
  CODE,
  DEVICE_CLOSE,
  disableAuthSource,
  deleteAuthSource,
  editAuthSource,
  enableAuthSource,
  fmt,
  loginSources,
  M,
  ROUTER_TYPE,
  type AuthSourceDefaults,
} from '@hublink/contract';
import { TestDevice } from '../../../test/device';
import { createTestApp, DATABASES, newAccount, type TestApp } from '../../../test/helpers';
import { seedMembers } from '../../../test/networks';
import { browse, pkce, startProviders, type LocalProviders } from '../../../test/providers';
import { MemoryStore } from '../../core/store';
import { createSourceAs, grantFeature } from './fixtures';
import { LOGIN_LIMITS } from './login';

/*
 * The whole sign-in of a member's client through each provider, against local servers that speak the
 * providers' APIs: the client asks for the sources of an ID code, its browser goes through authorize,
 * the provider's sign-in page and our callback to the client's loopback address, the client redeems
 * the ticket with its PKCE verifier, and the credential signs in to the real device gateway.
 */

let providers: LocalProviders;
beforeAll(async () => {
  providers = await startProviders();
});
afterAll(async () => {
  await providers?.close();
});

/** Where the client listens for the end of the sign-in (it is never served: the browser stops there). */
const CLIENT = 'http://127.0.0.1:53682/callback';

for (const dialect of DATABASES) {
  describe(`signing in through a source [${dialect}]`, () => {
    let t: TestApp;
    let base: string;
    /** Moves the store's clock (states and tickets expire by it). */
    let later = 0;
    let a: Awaited<ReturnType<typeof newAccount>>;
    let idCode: string;
    let sign: string;
    const ids = { wechat: 0, feishu: 0, dingtalk: 0 };
    const corp = `wwcorp${dialect}`;
    const app = {
      wechat: { type: 'wechat', name: '企业微信登录', app_id: corp, app_secret: 'wecom-secret-1', agent_id: '1000002' },
      feishu: { type: 'feishu', name: '飞书登录', app_id: `cli_${dialect}`, app_secret: 'feishu-secret-1' },
      dingtalk: { type: 'dingtalk', name: '钉钉登录', app_id: `dingclient${dialect}`, app_secret: 'dingtalk-secret-1', corp_id: `dingcorp${dialect}` },
    } as const;
    const open: TestDevice[] = [];

    beforeAll(async () => {
      t = await createTestApp(dialect, { config: { authProviders: providers.urls }, store: new MemoryStore(() => Date.now() + later) });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      a = await newAccount(t);
      await grantFeature(t, a.account.id);
      sign = (await t.db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;

      // What the console tells the administrator to register with each provider is what makes it work.
      const res = await fetch(`${base}/api/v1${authSourceCode.path}`, { headers: { authorization: `Bearer ${a.token}` } });
      const code = (await res.json()) as { data: { code: string; config: { default: Record<'wechat' | 'feishu' | 'dingtalk', AuthSourceDefaults> } } };
      idCode = code.data.code;
      const defaults = code.data.config.default;
      expect(defaults.wechat.auth_domain).toBe(new URL(base).host);
      providers.wecom.apps.push({ corpId: corp, agentId: '1000002', secret: 'wecom-secret-1', trustedDomain: defaults.wechat.auth_domain, trustedIps: ['127.0.0.1'] });
      providers.feishu.apps.push({ appId: app.feishu.app_id, secret: 'feishu-secret-1', redirectUrls: [defaults.feishu.auth_domain] });
      providers.dingtalk.apps.push({ clientId: app.dingtalk.app_id, secret: 'dingtalk-secret-1', redirectUrls: [defaults.dingtalk.auth_domain] });
      for (const type of ['wechat', 'feishu', 'dingtalk'] as const) ids[type] = await createSourceAs(t, a.token, app[type]);
    });

    afterAll(async () => {
      for (const d of open) d.close();
      await t?.close();
    });

    /** Starts a sign-in as the client does and lets the browser run; `query` changes what the client sends. */
    async function signIn(source: number, query: Record<string, string> = {}) {
      const { verifier, challenge } = pkce();
      const state = randomBytes(8).toString('hex');
      const q = new URLSearchParams({ code: idCode, source: String(source), redirect_uri: CLIENT, state, code_challenge: challenge, code_challenge_method: 'S256', ...query });
      const result = await browse(`${base}/api/v1${authorizeAuthSource.path}?${q}`, CLIENT);
      if (result.kind !== 'arrived') throw new Error(`the browser stopped at ${result.url}: ${result.status} ${result.body.slice(0, 200)}`);
      expect(result.url.searchParams.get('state')).toBe(state);
      return { params: result.url.searchParams, verifier };
    }

    /** A sign-in that ends with a ticket, redeemed: the member's login and credential. */
    async function signedIn(source: number) {
      const { params, verifier } = await signIn(source);
      expect(params.get('error_description')).toBeNull();
      const res = await t.call(authSourceToken, { body: { ticket: params.get('ticket'), code_verifier: verifier } });
      expect(res.code).toBe(200);
      return res.data!;
    }

    /** A sign-in that the browser brings back to the client with an error. */
    async function refused(source: number): Promise<string | null> {
      const { params } = await signIn(source);
      expect(params.get('ticket')).toBeNull();
      expect(params.get('error')).toBe('access_denied');
      return params.get('error_description');
    }

    /** Signs in to the device gateway as the app of `login` with its credential. */
    async function gatewaySession(login: string, credential: string) {
      const d = await TestDevice.open(base);
      open.push(d);
      d.send({ type: 'hello', protocol: 1, kind: 'app', login, credential, os: 'windows', version: '3.1.0' });
      return d;
    }

    const memberNamed = (name: string) => t.db.selectFrom('member').selectAll().where('tenant_id', '=', a.account.id).where('router_key', '=', name.toLowerCase()).executeTakeFirst();

    it('lists the enabled sources of the tenant an ID code names, however the code is typed', async () => {
      const typed = `${idCode.slice(0, 4).toLowerCase()}-${idCode.slice(4)} `;
      const res = await t.call(loginSources, { query: { code: typed } });
      expect(res.data).toEqual([
        { id: ids.wechat, type: 'wechat', name: app.wechat.name },
        { id: ids.feishu, type: 'feishu', name: app.feishu.name },
        { id: ids.dingtalk, type: 'dingtalk', name: app.dingtalk.name },
      ]);
    });

    it('signs in through enterprise WeChat: a member named after the userid, a credential the gateway takes, the same member next time', async () => {
      providers.wecom.signIn({ corpId: corp, userid: 'ZhangSan', name: '张三' });
      const first = await signedIn(ids.wechat);
      expect(first.login).toBe(`ZhangSan@${sign}`);
      const member = await memberNamed('ZhangSan');
      expect(member).toMatchObject({ router_type: ROUTER_TYPE.software, note: '张三', name: '张三', source: 'wechat', status: 1 });
      const d = await gatewaySession(first.login, first.credential);
      await d.next('welcome');
      d.close();

      const again = await signedIn(ids.wechat);
      expect(again.login).toBe(first.login);
      expect(again.credential).not.toBe(first.credential);
      expect(await t.db.selectFrom('auth_source_member').select('member_id').where('source_id', '=', ids.wechat).execute()).toEqual([{ member_id: member!.id }]);
      // The provider saw the calls of its documented flow, in order.
      expect(providers.wecom.received.map((r) => r.path).slice(-4)).toEqual(['/wwlogin/sso/login', '/cgi-bin/gettoken', '/cgi-bin/auth/getuserinfo', '/cgi-bin/user/get']);
    });

    it('signs in through Feishu: named after the user_id, or the open_id when the app may not read user ids', async () => {
      providers.feishu.signIn({ tenantKey: 'tk1', unionId: 'on_li', openId: 'ou_li', userId: 'lisi', name: '李四' });
      const li = await signedIn(ids.feishu);
      expect(li.login).toBe(`lisi@${sign}`);
      const d = await gatewaySession(li.login, li.credential);
      await d.next('welcome');
      d.close();
      providers.feishu.signIn({ tenantKey: 'tk1', unionId: 'on_wang', openId: 'ou_7f3a9c', name: '王五' });
      expect((await signedIn(ids.feishu)).login).toBe(`ou_7f3a9c@${sign}`);
      expect(await memberNamed('ou_7f3a9c')).toMatchObject({ note: '王五', source: 'feishu' });
    });

    it('signs in through DingTalk, whose answer names the organisation the user signed in to', async () => {
      providers.dingtalk.signIn({ corpId: app.dingtalk.corp_id, unionId: 'iPhXwZ2dKqiEiE', openId: 'o1', nick: '赵六' });
      const zhao = await signedIn(ids.dingtalk);
      expect(zhao.login).toBe(`iPhXwZ2dKqiEiE@${sign}`);
      const d = await gatewaySession(zhao.login, zhao.credential);
      await d.next('welcome');
      d.close();
      expect(providers.dingtalk.received.map((r) => r.path).slice(-3)).toEqual(['/oauth2/auth', '/v1.0/oauth2/userAccessToken', '/v1.0/contact/users/me']);
    });

    it('gives a new member whose name the tenant already uses the next free one', async () => {
      await seedMembers(t, a.account.id, ['chenqi'], { router_type: ROUTER_TYPE.software });
      providers.wecom.signIn({ corpId: corp, userid: 'chenqi', name: '陈七' });
      expect((await signedIn(ids.wechat)).login).toBe(`chenqi_2@${sign}`);
      // A provider id with characters a member name cannot have, and too long for one.
      providers.wecom.signIn({ corpId: corp, userid: 'zhou-ba@dept.example-company', name: '周八' });
      expect((await signedIn(ids.wechat)).login).toBe(`zhou_ba_dept.examp@${sign}`);
    });

    describe('refused at the provider, told to the client', () => {
      it("a wrong secret: the provider refuses the app's credentials", async () => {
        for (const type of ['wechat', 'feishu', 'dingtalk'] as const) {
          const wrong = { id: ids[type], ...app[type], app_secret: 'not-the-secret' };
          expect((await t.call(editAuthSource, { token: a.token, body: wrong })).code).toBe(200);
          if (type === 'wechat') providers.wecom.signIn({ corpId: corp, userid: 'ZhangSan', name: '张三' });
          const provider = { wechat: M.authSourceTypeWechat, feishu: M.authSourceTypeFeishu, dingtalk: M.authSourceTypeDingtalk }[type];
          expect({ type, msg: await refused(ids[type]) }).toEqual({ type, msg: fmt(M.authSourceProviderConfig, { provider }) });
          expect((await t.call(editAuthSource, { token: a.token, body: { ...wrong, app_secret: app[type].app_secret } })).code).toBe(200);
        }
      });

      it('a caller outside enterprise WeChat’s trusted IPs', async () => {
        const registered = providers.wecom.apps.find((x) => x.corpId === corp)!;
        registered.trustedIps = ['203.0.113.9'];
        try {
          expect(await refused(ids.wechat)).toBe(fmt(M.authSourceProviderConfig, { provider: M.authSourceTypeWechat }));
        } finally {
          registered.trustedIps = ['127.0.0.1'];
        }
      });

      it('a wrong, a used and an expired code', async () => {
        providers.wecom.signIn({ corpId: corp, userid: 'ZhangSan', name: '张三' });
        providers.feishu.signIn({ tenantKey: 'tk1', unionId: 'on_li', openId: 'ou_li', userId: 'lisi', name: '李四' });
        providers.dingtalk.signIn({ corpId: app.dingtalk.corp_id, unionId: 'iPhXwZ2dKqiEiE', openId: 'o1', nick: '赵六' });
        /** Runs authorize and the provider's page, and answers what the provider sends back: our state and its code. */
        const atCallback = async (type: 'wechat' | 'feishu' | 'dingtalk') => {
          const q = new URLSearchParams({ code: idCode, source: String(ids[type]), redirect_uri: CLIENT, code_challenge: pkce().challenge });
          const toProvider = await fetch(`${base}/api/v1${authorizeAuthSource.path}?${q}`, { redirect: 'manual' });
          const page = await fetch(toProvider.headers.get('location')!, { redirect: 'manual' });
          const back = new URL(page.headers.get('location')!);
          return { state: back.searchParams.get('state')!, code: back.searchParams.get('authCode') ?? back.searchParams.get('code')! };
        };
        const outcome = async (query: { state: string; code: string }) => new URL((await t.call(authSourceCallback, { query })).location!).searchParams;
        for (const type of ['wechat', 'feishu', 'dingtalk'] as const) {
          const forged = await atCallback(type);
          expect({ type, msg: (await outcome({ ...forged, code: 'forged-code' })).get('error_description') }).toEqual({ type, msg: M.authSourceCodeInvalid });

          const used = await atCallback(type);
          expect((await outcome(used)).get('ticket')).not.toBeNull();
          const replay = { state: (await atCallback(type)).state, code: used.code };
          expect({ type, msg: (await outcome(replay)).get('error_description') }).toEqual({ type, msg: M.authSourceCodeInvalid });

          const expired = await atCallback(type);
          ({ wechat: providers.wecom, feishu: providers.feishu, dingtalk: providers.dingtalk })[type].grants.expire(expired.code);
          expect({ type, msg: (await outcome(expired)).get('error_description') }).toEqual({ type, msg: M.authSourceCodeInvalid });
        }
      });

      it('a WeChat user outside the corp, and a DingTalk user of another organisation', async () => {
        providers.wecom.signIn({ openid: 'oWeChatOutsider' });
        expect(await refused(ids.wechat)).toBe(M.authSourceNotMember);
        providers.dingtalk.signIn({ corpId: 'dingsomeothercorp', unionId: 'intruder', openId: 'o9', nick: '外人' });
        expect(await refused(ids.dingtalk)).toBe(M.authSourceCorpMismatch);
        expect(await memberNamed('intruder')).toBeUndefined();
      });

      it('a user who cancels at the provider', async () => {
        const { challenge } = pkce();
        const toProvider = await t.call(authorizeAuthSource, { query: { code: idCode, source: String(ids.feishu), redirect_uri: CLIENT, state: 'c1', code_challenge: challenge } });
        const state = new URL(toProvider.location!).searchParams.get('state')!;
        const res = await t.call(authSourceCallback, { query: { state, error: 'access_denied' } });
        const params = new URL(res.location!).searchParams;
        expect([params.get('error'), params.get('error_description'), params.get('state')]).toEqual(['access_denied', M.authSourceLoginCancelled, 'c1']);
      });

      it('a tenant whose members fill its plan', async () => {
        const used = await t.db.selectFrom('member').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', a.account.id).executeTakeFirstOrThrow();
        await t.db.updateTable('account').set({ network_router_count: Number(used.n) }).where('id', '=', a.account.id).execute();
        try {
          providers.wecom.signIn({ corpId: corp, userid: 'newcomer', name: '新人' });
          expect(await refused(ids.wechat)).toBe(M.authSourceMemberQuotaFull);
          expect(await memberNamed('newcomer')).toBeUndefined();
          // A member it already has still signs in.
          providers.wecom.signIn({ corpId: corp, userid: 'ZhangSan', name: '张三' });
          expect((await signedIn(ids.wechat)).login).toBe(`ZhangSan@${sign}`);
        } finally {
          await t.db.updateTable('account').set({ network_router_count: 1000 }).where('id', '=', a.account.id).execute();
        }
      });

      it('a member the tenant disabled', async () => {
        providers.wecom.signIn({ corpId: corp, userid: 'ZhangSan', name: '张三' });
        await t.db.updateTable('member').set({ status: 0 }).where('tenant_id', '=', a.account.id).where('router_key', '=', 'zhangsan').execute();
        try {
          expect(await refused(ids.wechat)).toBe(M.authSourceMemberDisabled);
        } finally {
          await t.db.updateTable('member').set({ status: 1 }).where('tenant_id', '=', a.account.id).where('router_key', '=', 'zhangsan').execute();
        }
      });
    });

    describe('refused by us, as an envelope', () => {
      const authorizeQuery = (over: Record<string, string>) => ({ code: idCode, source: String(ids.feishu), redirect_uri: CLIENT, state: 'x', code_challenge: pkce().challenge, ...over });

      it('a redirect_uri that is not the loopback (RFC 8252), and a challenge that is not S256', async () => {
        for (const redirect_uri of ['http://evil.example/callback', 'https://127.0.0.1:5000/cb', 'http://localhost:5000/cb', 'http://127.0.0.1:5000/cb#frag', 'http://u:p@127.0.0.1/cb', 'javascript:alert(1)']) {
          const res = await t.call(authorizeAuthSource, { query: authorizeQuery({ redirect_uri }) });
          expect({ redirect_uri, code: res.code, msg: res.msg }).toEqual({ redirect_uri, code: CODE.invalid, msg: M.authSourceRedirectInvalid });
        }
        expect((await t.call(authorizeAuthSource, { query: authorizeQuery({ redirect_uri: 'http://[::1]:5000/cb' }) })).status).toBe(302);
        for (const over of [{ code_challenge: 'short' }, { code_challenge_method: 'plain' }] as Record<string, string>[]) {
          expect(await t.call(authorizeAuthSource, { query: authorizeQuery(over) })).toMatchObject({ code: CODE.invalid, msg: M.authSourceChallengeInvalid });
        }
      });

      it('an unknown ID code (and, past the limit, every guess), a source of another tenant', async () => {
        const ip = t.nextIp();
        expect(await t.call(loginSources, { query: { code: 'ZZZZZZZZ' }, ip })).toMatchObject({ code: CODE.notFound, msg: M.authSourceCodeUnknown });
        for (let i = 1; i < LOGIN_LIMITS.unknownCodePerIp.max; i++) await t.call(loginSources, { query: { code: 'ZZZZZZZZ' }, ip });
        expect((await t.call(loginSources, { query: { code: idCode }, ip })).code).toBe(CODE.tooMany);
        const other = await newAccount(t);
        await grantFeature(t, other.account.id);
        const theirs = await createSourceAs(t, other.token, { ...app.feishu, app_id: 'cli_other' });
        expect(await t.call(authorizeAuthSource, { query: authorizeQuery({ source: String(theirs) }) })).toMatchObject({ code: CODE.forbidden, msg: M.authSourceUnavailable });
      });

      it('a tenant whose feature was taken away', async () => {
        await grantFeature(t, a.account.id, 0);
        try {
          expect(await t.call(loginSources, { query: { code: idCode } })).toMatchObject({ code: CODE.forbidden, msg: M.authSourceNotEnabled });
          expect(await t.call(authorizeAuthSource, { query: authorizeQuery({}) })).toMatchObject({ code: CODE.forbidden, msg: M.authSourceNotEnabled });
        } finally {
          await grantFeature(t, a.account.id);
        }
      });

      it('an unknown, a used and an expired state at the callback', async () => {
        expect(await t.call(authSourceCallback, { query: { state: 'f'.repeat(64), code: 'c' } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceLoginExpired });
        const toProvider = await t.call(authorizeAuthSource, { query: authorizeQuery({}) });
        const state = new URL(toProvider.location!).searchParams.get('state')!;
        expect((await t.call(authSourceCallback, { query: { state, error: 'access_denied' } })).status).toBe(302);
        expect(await t.call(authSourceCallback, { query: { state, code: 'c' } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceLoginExpired });
        const stale = new URL((await t.call(authorizeAuthSource, { query: authorizeQuery({}) })).location!).searchParams.get('state')!;
        later += 601_000;
        try {
          expect(await t.call(authSourceCallback, { query: { state: stale, code: 'c' } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceLoginExpired });
        } finally {
          later -= 601_000;
        }
      });

      it('a used ticket, a stale ticket, and a wrong verifier (which burns the ticket)', async () => {
        providers.feishu.signIn({ tenantKey: 'tk1', unionId: 'on_li', openId: 'ou_li', userId: 'lisi', name: '李四' });
        const once = await signIn(ids.feishu);
        const body = { ticket: once.params.get('ticket'), code_verifier: once.verifier };
        expect((await t.call(authSourceToken, { body })).code).toBe(200);
        expect(await t.call(authSourceToken, { body })).toMatchObject({ code: CODE.invalid, msg: M.authSourceTicketInvalid });

        const stale = await signIn(ids.feishu);
        later += 121_000;
        try {
          expect(await t.call(authSourceToken, { body: { ticket: stale.params.get('ticket'), code_verifier: stale.verifier } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceTicketInvalid });
        } finally {
          later -= 121_000;
        }

        const guessed = await signIn(ids.feishu);
        const ticket = guessed.params.get('ticket');
        expect(await t.call(authSourceToken, { body: { ticket, code_verifier: pkce().verifier } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceVerifierWrong });
        expect(await t.call(authSourceToken, { body: { ticket, code_verifier: guessed.verifier } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceTicketInvalid });
        expect(await t.call(authSourceToken, { body: { ticket, code_verifier: 'short' } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceVerifierInvalid });
      });
    });

    describe('a source disabled, enabled, deleted', () => {
      it('disabling stops sign-ins through it at once and ends its members’ sessions; enabling lets them sign in anew', async () => {
        providers.dingtalk.signIn({ corpId: app.dingtalk.corp_id, unionId: 'iPhXwZ2dKqiEiE', openId: 'o1', nick: '赵六' });
        const session = await signedIn(ids.dingtalk);
        const d = await gatewaySession(session.login, session.credential);
        await d.next('welcome');
        const pending = await signIn(ids.dingtalk);

        expect((await t.call(disableAuthSource, { token: a.token, body: { id: ids.dingtalk } })).code).toBe(200);
        expect((await t.call(loginSources, { query: { code: idCode } })).data!.map((s) => s.id)).not.toContain(ids.dingtalk);
        expect(await t.call(authorizeAuthSource, { query: { code: idCode, source: String(ids.dingtalk), redirect_uri: CLIENT, code_challenge: pkce().challenge } })).toMatchObject({
          code: CODE.forbidden,
          msg: M.authSourceUnavailable,
        });
        // A ticket handed out just before is worth nothing now.
        expect(await t.call(authSourceToken, { body: { ticket: pending.params.get('ticket'), code_verifier: pending.verifier } })).toMatchObject({
          code: CODE.forbidden,
          msg: M.authSourceUnavailable,
        });
        expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
        const withOld = await gatewaySession(session.login, session.credential);
        expect((await withOld.closedWith()).code).toBe(DEVICE_CLOSE.authFailed);

        expect((await t.call(enableAuthSource, { token: a.token, body: { id: ids.dingtalk } })).code).toBe(200);
        const anew = await signedIn(ids.dingtalk);
        expect(anew.login).toBe(session.login);
        const back = await gatewaySession(anew.login, anew.credential);
        await back.next('welcome');
        back.close();
      });

      it('deleting removes the members it created, whose sessions end', async () => {
        providers.feishu.signIn({ tenantKey: 'tk1', unionId: 'on_li', openId: 'ou_li', userId: 'lisi', name: '李四' });
        const session = await signedIn(ids.feishu);
        const d = await gatewaySession(session.login, session.credential);
        await d.next('welcome');
        expect((await t.call(deleteAuthSource, { token: a.token, body: { id: ids.feishu } })).code).toBe(200);
        expect((await d.closedWith()).code).toBe(DEVICE_CLOSE.revoked);
        expect(await memberNamed('lisi')).toBeUndefined();
        expect(await memberNamed('ou_7f3a9c')).toBeUndefined();
        expect(await memberNamed('ZhangSan')).toBeDefined();
      });
    });
  });
}
