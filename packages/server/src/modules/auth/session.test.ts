import { accountInfo, CODE, logout, M, refreshToken, userMessage } from '@hublink/contract';
import { decodeJwt } from 'jose';
import { expect, it, vi } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn } from '../../../test/helpers';

type LoginData = { access_token: string; token_expire_time: number; user: unknown };

describeEachDatabase('GET /account/info (token checks)', (t) => {
  it('answers the user message for a valid token', async () => {
    const a = await newAccount(t());
    const res = await t().call(accountInfo, { token: a.token });
    expect(res).toMatchObject({ code: 200, status: 200 });
    expect(userMessage.strict().parse(res.data)).toMatchObject({ username: a.username, ram: 0 });
  });

  it('without a token: 2001, HTTP 401', async () => {
    const res = await t().call(accountInfo);
    expect(res).toMatchObject({ code: CODE.tokenInvalid, msg: M.tokenMissing, status: 401 });
    const notBearer = await t().call(accountInfo, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(notBearer).toMatchObject({ code: 2001, status: 401 });
  });

  it('refuses a token that has worked once its time is up: 2002 (checked tokens are remembered with their expiry)', async () => {
    const a = await newAccount(t());
    expect(await t().call(accountInfo, { token: a.token })).toMatchObject({ code: 200 });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + (t().ctx.config.tokenTtlSeconds + 5) * 1000);
      expect(await t().call(accountInfo, { token: a.token })).toMatchObject({ code: CODE.tokenExpired, msg: M.tokenExpired, status: 401 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('with a garbage or forged token: 2001', async () => {
    const a = await newAccount(t());
    for (const token of ['garbage', 'a.b.c', `${a.token}x`, a.token.split('.').slice(0, 2).join('.') + '.AAAA']) {
      const res = await t().call(accountInfo, { token });
      expect(res, token).toMatchObject({ code: CODE.tokenInvalid, msg: M.tokenInvalid, status: 401 });
    }
  });

  it('with an expired token: 2002, HTTP 401', async () => {
    const a = await newAccount(t());
    const expired = await t().tokenExpiringIn(a.token, -5);
    const res = await t().call(accountInfo, { token: expired });
    expect(res).toMatchObject({ code: CODE.tokenExpired, msg: M.tokenExpired, status: 401 });
    // The same session with a live token still works: only the token's time ran out.
    expect((await t().call(accountInfo, { token: await t().tokenExpiringIn(a.token, 60) })).code).toBe(200);
  });

  it('for a disabled account: 2003, HTTP 401', async () => {
    const a = await newAccount(t());
    await t().db.updateTable('account').set({ status: 0 }).where('id', '=', a.account.id).execute();
    const res = await t().call(accountInfo, { token: a.token });
    expect(res).toMatchObject({ code: CODE.accountDisabled, msg: M.accountDisabled, status: 401 });
  });

  it('for a disabled sub-account: 2003', async () => {
    const a = await newAccount(t());
    const ram = await newRamAccount(t(), a.account.id);
    const res = await signIn(t(), ram.login, ram.password, { ram: true });
    await t().db.updateTable('ram_account').set({ status: 0 }).where('id', '=', ram.id).execute();
    expect(await t().call(accountInfo, { token: (res.data as LoginData).access_token })).toMatchObject({ code: 2003, status: 401 });
    // The main account is not affected.
    expect((await t().call(accountInfo, { token: a.token })).code).toBe(200);
  });

  it('a deleted sub-account token: 2001', async () => {
    const a = await newAccount(t());
    const ram = await newRamAccount(t(), a.account.id);
    const res = await signIn(t(), ram.login, ram.password, { ram: true });
    await t().db.deleteFrom('ram_account').where('id', '=', ram.id).execute();
    expect(await t().call(accountInfo, { token: (res.data as LoginData).access_token })).toMatchObject({ code: 2001, status: 401 });
  });
});

describeEachDatabase('POST /login/refresh', (t) => {
  it('returns a new token for the same account; the old token stops working', async () => {
    const a = await newAccount(t());
    const res = await t().call(refreshToken, { token: a.token });
    expect(res).toMatchObject({ code: 200, status: 200 });
    expect(res.data!.token_expire_time).toBe(t().ctx.config.tokenTtlSeconds);
    expect(userMessage.strict().parse(res.data!.user)).toMatchObject({ username: a.username, ram: 0 });
    expect(res.data!.access_token).not.toBe(a.token);
    expect((await t().call(accountInfo, { token: res.data!.access_token })).code).toBe(200);
    expect(await t().call(accountInfo, { token: a.token })).toMatchObject({ code: 2001, status: 401 });
    // The old token cannot be refreshed a second time either.
    expect(await t().call(refreshToken, { token: a.token })).toMatchObject({ code: 2001, status: 401 });
  });

  it('refreshes an expired token within the session, and keeps the session refresh limit', async () => {
    const a = await newAccount(t());
    const { jti } = decodeJwt(a.token);
    const expired = await t().tokenExpiringIn(a.token, -60);
    const res = await t().call(refreshToken, { token: expired });
    expect(res.code).toBe(200);
    const old = await t().db.selectFrom('session').selectAll().where('id', '=', jti!).executeTakeFirstOrThrow();
    const fresh = await t().db.selectFrom('session').selectAll().where('id', '=', decodeJwt(res.data!.access_token).jti!).executeTakeFirstOrThrow();
    expect(old.revoked_at).not.toBeNull();
    expect(fresh).toMatchObject({ tenant_id: a.account.id, ram_id: null, revoked_at: null, refresh_until: old.refresh_until });
  });

  it('a sub-account refresh stays a sub-account', async () => {
    const a = await newAccount(t());
    const ram = await newRamAccount(t(), a.account.id);
    const signed = await signIn(t(), ram.login, ram.password, { ram: true });
    const res = await t().call(refreshToken, { token: (signed.data as LoginData).access_token });
    expect(res.code).toBe(200);
    expect(res.data!.user).toMatchObject({ ram: 1, username: ram.login });
  });

  it('is refused after the session refresh limit: 2002', async () => {
    const a = await newAccount(t());
    const { jti } = decodeJwt(a.token);
    await t().db.updateTable('session').set({ refresh_until: Date.now() - 1000 }).where('id', '=', jti!).execute();
    const before = await t().snapshot();
    const res = await t().call(refreshToken, { token: await t().tokenExpiringIn(a.token, -5) });
    expect(res).toMatchObject({ code: CODE.tokenExpired, msg: M.tokenExpired, status: 401 });
    expect(await t().snapshot()).toEqual(before);
  });

  it('is refused without a token (2001) and with a garbage token (2001)', async () => {
    expect(await t().call(refreshToken)).toMatchObject({ code: CODE.tokenInvalid, msg: M.tokenMissing, status: 401 });
    expect(await t().call(refreshToken, { token: 'garbage' })).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
  });

  it('is refused for a disabled account: 2003, and changes nothing', async () => {
    const a = await newAccount(t());
    await t().db.updateTable('account').set({ status: 0 }).where('id', '=', a.account.id).execute();
    const before = await t().snapshot();
    const res = await t().call(refreshToken, { token: a.token });
    expect(res).toMatchObject({ code: CODE.accountDisabled, msg: M.accountDisabled, status: 401 });
    expect(await t().snapshot()).toEqual(before);
  });

  it('two refreshes of one token: only one new token', async () => {
    const a = await newAccount(t());
    const results = await Promise.all([t().call(refreshToken, { token: a.token }), t().call(refreshToken, { token: a.token })]);
    expect(results.map((r) => r.code).sort()).toEqual([200, 2001]);
    const live = await t().db.selectFrom('session').select('id').where('tenant_id', '=', a.account.id).where('revoked_at', 'is', null).execute();
    expect(live).toHaveLength(1);
  });
});

describeEachDatabase('POST /login/logout', (t) => {
  it('revokes the session: the token then answers 2001', async () => {
    const a = await newAccount(t());
    const other = await signIn(t(), a.username, a.password);
    const res = await t().call(logout, { token: a.token });
    expect(res).toMatchObject({ code: 200, msg: M.logoutSuccess });
    expect(await t().call(accountInfo, { token: a.token })).toMatchObject({ code: 2001, status: 401 });
    expect(await t().call(refreshToken, { token: a.token })).toMatchObject({ code: 2001, status: 401 });
    expect(await t().call(logout, { token: a.token })).toMatchObject({ code: 2001, status: 401 });
    // Another session of the same account is untouched.
    expect((await t().call(accountInfo, { token: (other.data as LoginData).access_token })).code).toBe(200);
  });

  it('ends the whole sign-in: a token a refresh racing the sign-out issued stops working too', async () => {
    const a = await newAccount(t());
    const other = await signIn(t(), a.username, a.password);
    // Another tab refreshed the token the sign-out was sent with, and its answer came first.
    const raced = await t().call(refreshToken, { token: a.token });
    const racedToken = (raced.data as LoginData).access_token;
    await t().ctx.tokens.signOut(decodeJwt(a.token).jti!);
    expect(await t().call(accountInfo, { token: racedToken })).toMatchObject({ code: 2001, status: 401 });
    expect(await t().call(refreshToken, { token: racedToken })).toMatchObject({ code: 2001, status: 401 });
    expect((await t().call(accountInfo, { token: (other.data as LoginData).access_token })).code).toBe(200);
  });

  it('and a sign-out racing a refresh of its token leaves no token working, whichever answers first', async () => {
    for (let i = 0; i < 5; i++) {
      const a = await newAccount(t());
      const first = await t().call(refreshToken, { token: a.token });
      const token = (first.data as LoginData).access_token;
      const [refreshed] = await Promise.all([t().call(refreshToken, { token }), t().call(logout, { token })]);
      const next = (refreshed.data as LoginData | undefined)?.access_token;
      if (next) expect((await t().call(accountInfo, { token: next })).code).toBe(2001);
      expect((await t().call(accountInfo, { token })).code).toBe(2001);
    }
  });

  it('ends the chain when the token it is sent with was just replaced by a refresh (the refresh answered first)', async () => {
    const a = await newAccount(t());
    const replaced = ((await t().call(refreshToken, { token: a.token })).data as LoginData).access_token;
    const next = ((await t().call(refreshToken, { token: replaced })).data as LoginData).access_token;
    expect(await t().call(logout, { token: replaced })).toMatchObject({ code: 200 });
    expect((await t().call(accountInfo, { token: next })).code).toBe(2001);
    // Once the sign-in ended, its tokens, replaced or not, sign nothing out: the chain is gone.
    expect(await t().call(logout, { token: replaced })).toMatchObject({ code: 2001, status: 401 });
    // A replaced token is still refused by every other call.
    const b = await newAccount(t());
    const old = b.token;
    await t().call(refreshToken, { token: old });
    expect((await t().call(accountInfo, { token: old })).code).toBe(2001);
  });

  it('needs a token', async () => {
    expect(await t().call(logout)).toMatchObject({ code: 2001, status: 401 });
  });
});
