import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSourceCode, authSourceToken, CODE, LIMITS, M, memberProfiles, ROUTER_TYPE, selfAuthorize, selfDownload, selfLogin, selfLogout, selfProfile, selfProfileLink, selfProfiles, selfTicket, SM, CM } from '@hublink/contract';
import { createTestApp, DATABASES, newAccount, type TestApp } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, seedFreshMembers, seedNetwork } from '../../test/networks';
import { browse, pkce, startProviders, type LocalProviders } from '../../test/providers';
import { MemoryStore } from '../core/store';
import { DEVICE_AUTH_LIMITS } from '../gateway/auth';
import { createSourceAs, grantFeature } from '../modules/auth-source/fixtures';

/*
 * The member's self-service page's calls (issue 30): signing in as a client does (name@sign or the
 * bound phone; failures counted under the gateway's keys), reading its own profiles only, the
 * single-use link for a phone, and the browser flavour of a source sign-in ending on the page.
 */

const cnOf = (profile: string) => new X509Certificate(/<cert>\n([\s\S]+?)\n<\/cert>/.exec(profile)![1]!).subject;

let providers: LocalProviders;
beforeAll(async () => {
  providers = await startProviders();
});
afterAll(async () => {
  await providers?.close();
});

for (const dialect of DATABASES) {
  describe(`the member's self-service calls [${dialect}]`, () => {
    let t: TestApp;
    let base: string;
    /** Moves the store's clock (sessions and links expire by it). */
    let later = 0;
    let a: Awaited<ReturnType<typeof newAccount>>;
    let b: Awaited<ReturnType<typeof newAccount>>;
    let sign = '';
    let staff = '';
    let colleague = '';
    let theirStaff = '';
    let net: { id: number; network_number: string };
    let other: { id: number; network_number: string };
    let theirNet: { id: number; network_number: string };
    const PHONE = `139${String(Date.now()).slice(-8)}`;

    const signIn = (login: string, password = SEEDED_MEMBER_SECRET, ip = t.nextIp()) => t.call(selfLogin, { body: { login, password }, ip });
    const session = async (login: string) => {
      const res = await signIn(login);
      expect([res.code, res.msg]).toEqual([200, 'success']);
      return res.data!.token;
    };

    beforeAll(async () => {
      t = await createTestApp(dialect, { config: { authProviders: providers.urls }, store: new MemoryStore(() => Date.now() + later) });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      a = await newAccount(t);
      b = await newAccount(t);
      sign = (await t.db.selectFrom('account').select('sign').where('id', '=', a.account.id).executeTakeFirstOrThrow()).sign;
      const [c1 = '', c2 = ''] = await seedFreshMembers(t, a.account.id, 2);
      [staff = '', colleague = ''] = await seedFreshMembers(t, a.account.id, 2, { router_type: ROUTER_TYPE.software });
      [theirStaff = ''] = await seedFreshMembers(t, b.account.id, 1, { router_type: ROUTER_TYPE.software });
      const [theirCenter = ''] = await seedFreshMembers(t, b.account.id, 1);
      await t.db.updateTable('member').set({ phone: PHONE, area_number: '86' }).where('tenant_id', '=', a.account.id).where('router_key', '=', staff.toLowerCase()).execute();
      net = await seedNetwork(t, a.account.id, { center: [c1], point: [staff, colleague] });
      // A network of the tenant the member is not in.
      other = await seedNetwork(t, a.account.id, { center: [c2], point: [colleague] });
      theirNet = await seedNetwork(t, b.account.id, { center: [theirCenter], point: [theirStaff] });
    });

    afterAll(async () => {
      await t?.close();
    });

    describe('POST /self/login', () => {
      it('signs in by name@sign, however cased, and by the bound phone with or without +86', async () => {
        for (const login of [`${staff}@${sign}`, `${staff.toUpperCase()}@${sign}`, PHONE, `+86 ${PHONE}`, `86${PHONE}`]) {
          const res = await signIn(login);
          expect({ login, code: res.code }).toEqual({ login, code: 200 });
          expect(res.data!.expires_in).toBe(LIMITS.selfSessionSeconds);
          const me = await t.call(selfProfiles, { token: res.data!.token });
          expect({ login, name: me.data?.router_name }).toEqual({ login, name: staff });
        }
      });

      it('refuses a wrong password, an unknown login and a hardware member with one message, and counts the failures as the clients do', async () => {
        const ip = t.nextIp();
        expect(await signIn(`${staff}@${sign}`, 'wrong-one', ip)).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
        expect(await signIn(`nobody@${sign}`, SEEDED_MEMBER_SECRET, ip)).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
        expect(await signIn('13000000000', SEEDED_MEMBER_SECRET, ip)).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
        const [router = ''] = await seedFreshMembers(t, a.account.id, 1);
        expect(await signIn(`${router}@${sign}`, SEEDED_MEMBER_SECRET, ip)).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
        expect(await signIn(`${theirStaff}@${sign}`, SEEDED_MEMBER_SECRET, ip)).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
        // The gateway's key for the member: one wrong password here is one of its count.
        expect(await t.ctx.store.get(`rl:${DEVICE_AUTH_LIMITS.perMember.name}:a:${staff.toLowerCase()}@${sign.toLowerCase()}`)).toBe('1');
        // A success resets the member's count.
        await session(`${staff}@${sign}`);
        expect(await t.ctx.store.get(`rl:${DEVICE_AUTH_LIMITS.perMember.name}:a:${staff.toLowerCase()}@${sign.toLowerCase()}`)).toBeNull();
      });

      it('refuses even the right password once the member failed too often (from any address, any client)', async () => {
        const [victim = ''] = await seedFreshMembers(t, a.account.id, 1, { router_type: ROUTER_TYPE.software });
        for (let i = 0; i < DEVICE_AUTH_LIMITS.perMember.max; i++) expect((await signIn(`${victim}@${sign}`, `wrong${i}`)).code).toBe(CODE.invalid);
        const res = await signIn(`${victim}@${sign}`);
        expect([res.code, res.status, res.msg]).toEqual([CODE.tooMany, 429, CM.clientTooManyAttempts]);
      });

      it('refuses a disabled member once its password is proven, and ends its sessions', async () => {
        const [off = ''] = await seedFreshMembers(t, a.account.id, 1, { router_type: ROUTER_TYPE.software });
        const token = await session(`${off}@${sign}`);
        await t.db.updateTable('member').set({ status: 0 }).where('tenant_id', '=', a.account.id).where('router_key', '=', off.toLowerCase()).execute();
        expect(await signIn(`${off}@${sign}`)).toMatchObject({ code: CODE.forbidden, msg: CM.clientDisabled });
        expect(await signIn(`${off}@${sign}`, 'wrong-one')).toMatchObject({ code: CODE.invalid, msg: CM.clientWrongPassword });
        expect(await t.call(selfProfiles, { token })).toMatchObject({ code: CODE.accountDisabled, status: 401 });
      });

      it('refuses an empty login or password with the form messages', async () => {
        expect(await t.call(selfLogin, { body: { login: ' ', password: 'x' } })).toMatchObject({ code: CODE.invalid, msg: SM.selfLoginRequired });
        expect(await t.call(selfLogin, { body: { login: `${staff}@${sign}`, password: '' } })).toMatchObject({ code: CODE.invalid, msg: SM.selfPasswordRequired });
      });
    });

    describe('the profiles of the signed-in member', () => {
      it("lists the member's own networks and the login its clients take", async () => {
        const res = await t.call(selfProfiles, { token: await session(`${staff}@${sign}`) });
        expect(res.data).toEqual({ router_name: staff, login: `${staff}@${sign}`, phone: PHONE, networks: [{ network_number: net.network_number, network_name: expect.any(String) as string }] });
      });

      it("downloads its own profile, with its own certificate; never a network it is not in nor another tenant's", async () => {
        const token = await session(`${staff}@${sign}`);
        const res = await t.call(selfProfile, { token, query: { network_number: net.network_number } });
        expect(res.file!.filename).toBe(`${staff}-${net.network_number}.ovpn`);
        expect(res.file!.contentType).toContain('application/x-openvpn-profile');
        expect(cnOf(res.file!.body.toString('utf8'))).toContain(`CN=${staff}`);
        expect((await t.call(selfProfile, { token, query: { network_number: other.network_number } })).code).toBe(CODE.notFound);
        expect((await t.call(selfProfile, { token, query: { network_number: theirNet.network_number } })).code).toBe(CODE.notFound);
        expect((await t.call(selfProfileLink, { token, body: { network_number: theirNet.network_number } })).code).toBe(CODE.notFound);
      });

      it("another tenant's member reads nothing of this tenant", async () => {
        const theirs = await t.db.selectFrom('account').select('sign').where('id', '=', b.account.id).executeTakeFirstOrThrow();
        const token = await session(`${theirStaff}@${theirs.sign}`);
        expect((await t.call(selfProfiles, { token })).data!.networks).toEqual([{ network_number: theirNet.network_number, network_name: expect.any(String) as string }]);
        for (const n of [net.network_number, other.network_number]) {
          expect((await t.call(selfProfile, { token, query: { network_number: n } })).code).toBe(CODE.notFound);
          expect((await t.call(selfProfileLink, { token, body: { network_number: n } })).code).toBe(CODE.notFound);
        }
      });

      it("takes a member's session only: no token, an account's token, a made-up one are 2001; a member's session opens no account call", async () => {
        const token = await session(`${staff}@${sign}`);
        for (const bad of [undefined, a.token, 'not-a-session']) expect((await t.call(selfProfiles, { token: bad })).code).toBe(CODE.tokenInvalid);
        expect((await t.call(memberProfiles, { token, query: { router_name: staff } })).code).toBe(CODE.tokenInvalid);
      });

      it('ends with logout, and after LIMITS.selfSessionSeconds', async () => {
        const token = await session(`${staff}@${sign}`);
        expect((await t.call(selfLogout, { token })).code).toBe(200);
        expect((await t.call(selfProfiles, { token })).code).toBe(CODE.tokenInvalid);
        const kept = await session(`${staff}@${sign}`);
        later += LIMITS.selfSessionSeconds * 1000;
        try {
          expect((await t.call(selfProfiles, { token: kept })).code).toBe(CODE.tokenInvalid);
        } finally {
          later -= LIMITS.selfSessionSeconds * 1000;
        }
      });
    });

    describe('the link for a phone', () => {
      const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

      it('downloads the profile once, without a session; a used link is refused', async () => {
        const res = await t.call(selfProfileLink, { token: await session(`${staff}@${sign}`), body: { network_number: net.network_number } });
        expect(res.code).toBe(200);
        const { url, import_url, expires_in } = res.data!;
        // The origin the request came to (an injected request's: localhost).
        expect(url).toMatch(/^http:\/\/localhost\/api\/v1\/self\/download\?token=[A-Za-z0-9_-]{43}$/);
        expect(import_url).toBe(`openvpn://import-profile/${url}`);
        expect(expires_in).toBe(LIMITS.selfLinkSeconds);
        const first = await t.call(selfDownload, { query: { token: tokenOf(url) } });
        expect(cnOf(first.file!.body.toString('utf8'))).toContain(`CN=${staff}`);
        expect(await t.call(selfDownload, { query: { token: tokenOf(url) } })).toMatchObject({ code: CODE.invalid, msg: SM.selfLinkInvalid });
        expect(await t.call(selfDownload, { query: { token: 'made-up' } })).toMatchObject({ code: CODE.invalid, msg: SM.selfLinkInvalid });
      });

      it('expires after LIMITS.selfLinkSeconds, and gives nothing to a member disabled since', async () => {
        const token = await session(`${colleague}@${sign}`);
        const link = async () => tokenOf((await t.call(selfProfileLink, { token, body: { network_number: net.network_number } })).data!.url);
        const old = await link();
        const kept = await link();
        later += LIMITS.selfLinkSeconds * 1000;
        try {
          expect(await t.call(selfDownload, { query: { token: old } })).toMatchObject({ code: CODE.invalid, msg: SM.selfLinkInvalid });
        } finally {
          later -= LIMITS.selfLinkSeconds * 1000;
        }
        await t.db.updateTable('member').set({ status: 0 }).where('tenant_id', '=', a.account.id).where('router_key', '=', colleague.toLowerCase()).execute();
        try {
          expect(await t.call(selfDownload, { query: { token: kept } })).toMatchObject({ code: CODE.forbidden, msg: CM.clientDisabled });
        } finally {
          await t.db.updateTable('member').set({ status: 1 }).where('tenant_id', '=', a.account.id).where('router_key', '=', colleague.toLowerCase()).execute();
        }
      });
    });

    describe('signing in through a source, in the browser', () => {
      let idCode = '';
      let feishu = 0;

      beforeAll(async () => {
        await grantFeature(t, a.account.id);
        idCode = (await t.call(authSourceCode, { token: a.token })).data!.code;
        const appId = `cli_self_${dialect}`;
        providers.feishu.apps.push({ appId, secret: 'feishu-secret-1', redirectUrls: [`${base}/api/v1/auth_source/callback`] });
        feishu = await createSourceAs(t, a.token, { type: 'feishu', name: '飞书登录', app_id: appId, app_secret: 'feishu-secret-1' });
      });

      async function browseToPage() {
        const { verifier, challenge } = pkce();
        const q = new URLSearchParams({ code: idCode, source: String(feishu), code_challenge: challenge });
        const result = await browse(`${base}/api/v1${selfAuthorize.path}?${q}`, `${base}/self`);
        if (result.kind !== 'arrived') throw new Error(`the browser stopped at ${result.url}: ${result.status} ${result.body.slice(0, 200)}`);
        return { params: result.url.searchParams, verifier };
      }

      it('comes back to the console’s own /self page with a ticket the page redeems, once, for a session', async () => {
        providers.feishu.signIn({ tenantKey: 'tk1', unionId: 'on_self', openId: 'ou_self', userId: 'selfuser', name: '自助' });
        const { params, verifier } = await browseToPage();
        expect(params.get('error_description')).toBeNull();
        const ticket = params.get('ticket')!;
        const res = await t.call(selfTicket, { body: { ticket, code_verifier: verifier } });
        expect(res.code).toBe(200);
        expect((await t.call(selfProfiles, { token: res.data!.token })).data).toMatchObject({ router_name: 'selfuser', login: `selfuser@${sign}` });
        expect(await t.call(selfTicket, { body: { ticket, code_verifier: verifier } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceTicketInvalid });
      });

      it("a page's ticket gives no device credential, and needs the page's verifier", async () => {
        providers.feishu.signIn({ tenantKey: 'tk1', unionId: 'on_self', openId: 'ou_self', userId: 'selfuser', name: '自助' });
        const first = await browseToPage();
        expect(await t.call(authSourceToken, { body: { ticket: first.params.get('ticket'), code_verifier: first.verifier } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceTicketInvalid });
        const second = await browseToPage();
        expect(await t.call(selfTicket, { body: { ticket: second.params.get('ticket'), code_verifier: pkce().verifier } })).toMatchObject({ code: CODE.invalid, msg: M.authSourceVerifierWrong });
      });

      it('takes no redirect address from the caller', async () => {
        const { challenge } = pkce();
        const res = await t.call(selfAuthorize, { query: { code: idCode, source: feishu, code_challenge: challenge, redirect_uri: 'https://evil.example/' } });
        expect(res.status).toBe(302);
        expect(res.location).not.toContain('evil.example');
        expect(decodeURIComponent(res.location!)).toContain('redirect_uri=http://localhost/api/v1/auth_source/callback&');
      });
    });
  });
}
