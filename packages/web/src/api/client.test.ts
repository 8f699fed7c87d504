import { CODE, LIMITS, M, accountInfo, getCaptcha, logout, type Envelope } from '@hublink/contract';
import type { MessageInstance } from 'antd/es/message/interface';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused } from '../test/mockApi';
import { browser, call, NETWORK_FAILURE } from './client';
import { bindNotifier } from './notify';
import { session, sessionNotice } from './session';

// The error catalogue of spec 1 §8, row by row, with fetch as the outside world.

const notifier = { success: vi.fn(), error: vi.fn(), warning: vi.fn() };
const back = vi.spyOn(browser, 'back').mockImplementation(() => {});
const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});

const HOUR = 3600;
const freshUser = { nickname: 'n', username: 'u', ram: 0 as const, user_phone: '', user_email: '', message_count: 0, sign: 's', config: { software_auth_source: 0 }, auth: { quagga: 0, quagga_advanced: 0, default_route: 0 }, role: null };

/** What another tab of the browser leaves behind when it refreshes the token or signs in: the shared cookie. */
function otherTabSignedIn(token: string, expiresInSeconds: number) {
  document.cookie = `token=${token}; path=/`;
  document.cookie = `ExpiresAt=${Date.now() + expiresInSeconds * 1000}; path=/`;
}

/** Authorization header of the n-th fetch. */
const authOf = (m: ReturnType<typeof mockApi>, n: number) =>
  (m.fetch.mock.calls[n]?.[1]?.headers as Record<string, string> | undefined)?.Authorization;

beforeEach(() => {
  session.clear();
  session.setToken('tok-1', HOUR);
  bindNotifier(notifier as unknown as MessageInstance);
  vi.clearAllMocks();
});

afterEach(() => bindNotifier(null));

describe('call(): envelope codes', () => {
  it('200 on a GET returns the data without a toast', async () => {
    mockApi({ '/account/info': ok(freshUser) });
    const env = await call(accountInfo);
    expect(env.code).toBe(CODE.ok);
    expect(env.data).toEqual(freshUser);
    expect(notifier.success).not.toHaveBeenCalled();
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('200 on a POST shows msg as a 5-second success toast (unless turned off)', async () => {
    mockApi({ '/login/logout': ok(null, M.logoutSuccess) });
    await call(logout);
    expect(notifier.success).toHaveBeenCalledWith(M.logoutSuccess, LIMITS.toastSeconds);
    notifier.success.mockClear();
    await call(logout, {}, { successToast: false });
    expect(notifier.success).not.toHaveBeenCalled();
  });

  it('sends the bearer token on every call', async () => {
    const m = mockApi({ '/account/info': ok(freshUser) });
    await call(accountInfo);
    expect(authOf(m, 0)).toBe('Bearer tok-1');
  });

  it('423 passes through silently', async () => {
    mockApi({ '/login/logout': refused('需要验证域名', CODE.furtherAction) });
    const env = await call(logout);
    expect(env).toEqual({ code: CODE.furtherAction, msg: '需要验证域名' });
    expect(notifier.error).not.toHaveBeenCalled();
    expect(notifier.success).not.toHaveBeenCalled();
    expect(back).not.toHaveBeenCalled();
  });

  it('204 shows msg and goes back one page, or stays when the screen asks', async () => {
    mockApi({ '/account/info': refused(M.notFound, CODE.notFound) });
    const env = await call(accountInfo);
    expect(env.code).toBe(CODE.notFound);
    expect(notifier.error).toHaveBeenCalledWith(M.notFound, LIMITS.toastSeconds);
    expect(back).toHaveBeenCalledTimes(1);

    await call(accountInfo, {}, { on204: 'stay' });
    expect(notifier.error).toHaveBeenCalledTimes(2);
    expect(back).toHaveBeenCalledTimes(1);
  });

  it.each([CODE.flow401, CODE.flow403, CODE.invalid])('%i shows msg and returns the answer to the screen', async (code) => {
    mockApi({ '/login/logout': refused('该手机号码已被绑定', code) });
    const env = await call(logout);
    expect(env).toEqual({ code, msg: '该手机号码已被绑定' });
    expect(notifier.error).toHaveBeenCalledWith('该手机号码已被绑定', LIMITS.toastSeconds);
    expect(back).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    expect(session.token()).toBe('tok-1');
  });

  it('a quiet call leaves refusals to the screen', async () => {
    mockApi({ '/login/logout': refused(M.codeWrong) });
    const env = await call(logout, {}, { quiet: true });
    expect(env.msg).toBe(M.codeWrong);
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it.each([CODE.tokenInvalid, CODE.tokenExpired, CODE.accountDisabled, 2999])(
    '%i clears the session and reloads the page',
    async (code) => {
      session.setUser(freshUser as never);
      mockApi({ '/account/info': refused(M.tokenInvalid, code) });
      const env = await call(accountInfo);
      expect(env.code).toBe(code);
      expect(session.token()).toBeNull();
      expect(session.user()).toBeNull();
      expect(reload).toHaveBeenCalledTimes(1);
    },
  );

  it('any other code shows msg, or the generic text when msg is empty', async () => {
    mockApi({ '/account/info': refused(M.tooManyRequests, CODE.tooMany) });
    await call(accountInfo);
    expect(notifier.error).toHaveBeenLastCalledWith(M.tooManyRequests, LIMITS.toastSeconds);

    mockApi({ '/account/info': refused('', CODE.internal) });
    await call(accountInfo);
    expect(notifier.error).toHaveBeenLastCalledWith(M.dataError, LIMITS.toastSeconds);
    expect(session.token()).toBe('tok-1');
  });
});

describe('call(): transport', () => {
  it('a network failure answers the timeout text', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const env = await call(accountInfo);
    expect(env).toEqual({ code: NETWORK_FAILURE, msg: M.timeout });
    expect(notifier.error).toHaveBeenCalledWith(M.timeout, LIMITS.toastSeconds);
  });

  it('a call that outlives its timeout is abandoned with the timeout text', async () => {
    // A server that never answers; only the abort signal ends the request.
    const hanging = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    vi.stubGlobal('fetch', hanging);
    const env = await call(accountInfo, {}, { timeoutMs: 20 });
    expect(env.code).toBe(NETWORK_FAILURE);
    expect(notifier.error).toHaveBeenCalledWith(M.timeout, LIMITS.toastSeconds);
  });

  it('uses the 10-second default timeout', async () => {
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    mockApi({ '/account/info': ok(freshUser) });
    await call(accountInfo);
    expect(timeout).toHaveBeenCalledWith(LIMITS.requestTimeoutMs);
    timeout.mockRestore();
  });
});

describe('call(): token refresh', () => {
  const refreshed = ok({ access_token: 'tok-2', token_expire_time: HOUR, user: { ...freshUser, nickname: 'new' } });

  it('does not refresh a token with time left', async () => {
    const m = mockApi({ '/account/info': ok(freshUser), '/login/refresh': refreshed });
    await call(accountInfo);
    expect(m.callsTo('/login/refresh')).toHaveLength(0);
  });

  it('refreshes a token about to expire before the call, then calls with the new one', async () => {
    session.setToken('tok-1', LIMITS.tokenRefreshMarginSeconds - 1);
    const m = mockApi({ '/account/info': ok(freshUser), '/login/refresh': refreshed });
    const env = await call(accountInfo);
    expect(env.code).toBe(CODE.ok);
    expect(m.calls.map((c) => c.path)).toEqual(['/login/refresh', '/account/info']);
    expect(authOf(m, 0)).toBe('Bearer tok-1');
    expect(authOf(m, 1)).toBe('Bearer tok-2');
    expect(session.token()).toBe('tok-2');
    expect(session.user()?.nickname).toBe('new');
    expect(session.expiresAt()).toBeGreaterThan(Date.now() + (HOUR - 60) * 1000);
  });

  it('refreshes once for calls made together', async () => {
    session.setToken('tok-1', 1);
    const m = mockApi({ '/account/info': ok(freshUser), '/login/refresh': refreshed });
    await Promise.all([call(accountInfo), call(accountInfo), call(accountInfo)]);
    expect(m.callsTo('/login/refresh')).toHaveLength(1);
    expect(m.callsTo('/account/info')).toHaveLength(3);
  });

  it.each<[string, Envelope<never> | 'network']>([
    ['a refused refresh', refused(M.tokenInvalid, CODE.tokenInvalid)],
    ['a failed refresh', 'network'],
  ])('%s shows 登录已过期，请重新登录!, clears the session and reloads', async (_name, answer) => {
    session.setToken('tok-1', 1);
    const m =
      answer === 'network'
        ? { calls: [], fetch: vi.fn(async () => Promise.reject(new TypeError('offline'))) }
        : mockApi({ '/account/info': ok(freshUser), '/login/refresh': answer });
    if (answer === 'network') vi.stubGlobal('fetch', m.fetch);
    const env = await call(accountInfo);
    expect(env).toEqual({ code: CODE.tokenExpired, msg: M.tokenExpired });
    expect(notifier.error).toHaveBeenCalledWith('登录已过期，请重新登录!', LIMITS.toastSeconds);
    expect(session.token()).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(m.fetch).toHaveBeenCalledTimes(1); // the refresh only; the call itself never left
  });

  it('a refresh refused because another tab refreshed first goes on with that tab\'s token', async () => {
    session.setToken('tok-1', 1);
    const m = mockApi({
      '/login/refresh': () => {
        otherTabSignedIn('tok-2', HOUR); // the other tab's refresh won the race with the same token
        return refused(M.tokenInvalid, CODE.tokenInvalid);
      },
      '/account/info': ok(freshUser),
    });
    const env = await call(accountInfo);
    expect(env.code).toBe(CODE.ok);
    expect(authOf(m, 1)).toBe('Bearer tok-2');
    expect(reload).not.toHaveBeenCalled();
  });

  it('a refresh answered after the session ended (signed out meanwhile) does not bring it back', async () => {
    session.setToken('tok-1', 1);
    mockApi({
      '/login/refresh': () => {
        session.clear(); // signed out in this or another tab while the refresh was under way
        return refreshed;
      },
      '/account/info': ok(freshUser),
    });
    await call(accountInfo);
    expect(session.token()).toBeNull();
    expect(document.cookie).not.toContain('tok-2');
  });

  it("a refresh answered after another tab signed out (this tab has not heard yet) does not bring the session back", async () => {
    session.setToken('tok-1', 1);
    mockApi({
      '/login/refresh': () => {
        // The other tab cleared the cookie; this tab's copy stays until the news of the sign-out arrives.
        document.cookie = 'token=; path=/; max-age=0';
        document.cookie = 'ExpiresAt=; path=/; max-age=0';
        return refreshed;
      },
      '/account/info': ok(freshUser),
    });
    await call(accountInfo);
    expect(document.cookie).not.toContain('tok-2');
    expect(session.shared()).toBeNull();
  });

  it('a refresh answered after the token ran out (the cookie with it) still goes on', async () => {
    session.setToken('tok-1', 1);
    document.cookie = 'token=; path=/; max-age=0';
    document.cookie = 'ExpiresAt=; path=/; max-age=0';
    mockApi({ '/login/refresh': refreshed, '/account/info': ok(freshUser) });
    await call(accountInfo);
    expect(session.token()).toBe('tok-2');
    expect(session.shared()?.token).toBe('tok-2');
  });

  it('does not refresh when another tab already has (its token is in the cookie)', async () => {
    session.setToken('tok-1', 1);
    otherTabSignedIn('tok-2', HOUR);
    const m = mockApi({ '/account/info': ok(freshUser), '/login/refresh': refreshed });
    await call(accountInfo);
    expect(m.calls.map((c) => c.path)).toEqual(['/account/info']);
    expect(authOf(m, 0)).toBe('Bearer tok-2');
  });

  it('public calls neither refresh nor wait for a refresh', async () => {
    session.setToken('tok-1', 1);
    const m = mockApi({ '/verify/code': ok({ content: 'img', uniqid: 'u' }), '/login/refresh': refreshed });
    await call(getCaptcha);
    expect(m.calls.map((c) => c.path)).toEqual(['/verify/code']);
  });
});

describe('call(): one session for every tab of the browser', () => {
  it('a call refused because another tab refreshed the token meanwhile goes again with the new token', async () => {
    let first = true;
    const m = mockApi({
      '/account/info': () => {
        if (!first) return ok(freshUser);
        first = false;
        otherTabSignedIn('tok-2', HOUR);
        return refused(M.tokenInvalid, CODE.tokenInvalid);
      },
    });
    const env = await call(accountInfo);
    expect(env.code).toBe(CODE.ok);
    expect([authOf(m, 0), authOf(m, 1)]).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(session.token()).toBe('tok-2');
    expect(reload).not.toHaveBeenCalled();
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('an expired token is refreshed and the call sent again', async () => {
    const m = mockApi({
      '/account/info': () => (m.calls.length === 1 ? refused(M.tokenExpired, CODE.tokenExpired) : ok(freshUser)),
      '/login/refresh': ok({ access_token: 'tok-3', token_expire_time: HOUR, user: freshUser }),
    });
    const env = await call(accountInfo);
    expect(env.code).toBe(CODE.ok);
    expect(m.calls.map((c) => c.path)).toEqual(['/account/info', '/login/refresh', '/account/info']);
    expect(authOf(m, 2)).toBe('Bearer tok-3');
  });

  it('a session refused for good says why on the login page after the reload', async () => {
    mockApi({ '/account/info': refused(M.tokenInvalid, CODE.tokenInvalid), '/login/refresh': refused(M.tokenInvalid, CODE.tokenInvalid) });
    await call(accountInfo);
    expect(sessionNotice.get()).toBe(M.tokenExpired);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a disabled account is told so on the login page', async () => {
    mockApi({ '/account/info': refused('账号已被禁用', CODE.accountDisabled) });
    await call(accountInfo);
    expect(sessionNotice.get()).toBe('账号已被禁用');
    expect(session.token()).toBeNull();
  });
});
