import { M, type UserMessage } from '@hublink/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../api/client';
import { session, sessionNotice } from '../api/session';
import { tabs, type TabNews } from '../api/tabs';
import { onTabNews, type TabRouter } from './tabSync';
import { endSession, startSession } from '../session/user';

// One session per browser: what one tab does to the session reaches the others.

const user = { nickname: '小林', username: 'lin001', ram: 0, user_phone: '', user_email: '', message_count: 0, sign: 's', config: { software_auth_source: 0 }, auth: { quagga: 0, quagga_advanced: 0, default_route: 0 }, role: null } as unknown as UserMessage;
const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});

function routerAt(url: string): TabRouter & { navigate: ReturnType<typeof vi.fn> } {
  const u = new URL(url, 'http://localhost');
  return { state: { location: { pathname: u.pathname, search: u.search } }, navigate: vi.fn(async () => {}) };
}

/** What another tab leaves behind when it signs in: the shared cookie. */
function otherTabSignedIn(token: string) {
  document.cookie = `token=${token}; path=/`;
  document.cookie = `ExpiresAt=${Date.now() + 3_600_000}; path=/`;
}

beforeEach(() => {
  session.clear();
  vi.clearAllMocks();
});
afterEach(() => session.clear());

describe('news from another tab', () => {
  it('signed out there: a signed-in tab forgets its copy, keeps the notice and reloads (to the login page)', () => {
    session.setToken('tok-1', 3600);
    document.cookie = 'token=; path=/; max-age=0'; // the other tab ended the shared session
    onTabNews({ type: 'signed-out', notice: M.tokenExpired }, routerAt('/network/lists'));
    expect(session.token()).toBeNull();
    expect(sessionNotice.get()).toBe(M.tokenExpired);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('signed out there: a tab that was not signed in stays as it is (a form being filled keeps its input)', () => {
    onTabNews({ type: 'signed-out' }, routerAt('/register'));
    expect(reload).not.toHaveBeenCalled();
  });

  it('signed in there: the login page goes where it was asked to, with the new session', () => {
    otherTabSignedIn('tok-9');
    const router = routerAt('/login?redirect=%2Fnetwork%2Fdetail%3Fnetwork_number%3DN1');
    onTabNews({ type: 'signed-in', user }, router);
    expect(session.token()).toBe('tok-9');
    expect(session.user()?.nickname).toBe('小林');
    expect(router.navigate).toHaveBeenCalledWith('/network/detail?network_number=N1', { replace: true });
  });

  it('signed in there: a tab on an open page takes the session and stays', () => {
    otherTabSignedIn('tok-9');
    const router = routerAt('/download');
    onTabNews({ type: 'signed-in', user }, router);
    expect(session.token()).toBe('tok-9');
    expect(router.navigate).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('the news a tab sends', () => {
  it('signing in and out are told to the other tabs', () => {
    const told: TabNews[] = [];
    const tell = vi.spyOn(tabs, 'tell').mockImplementation((news) => void told.push(news));
    startSession('tok-1', 3600, user);
    endSession();
    expect(told).toEqual([{ type: 'signed-in', user }, { type: 'signed-out' }]);
    tell.mockRestore();
  });

  it('a new session clears the notice of the one that ended', () => {
    sessionNotice.set(M.tokenExpired);
    startSession('tok-1', 3600, user);
    expect(sessionNotice.get()).toBeNull();
  });
});

describe('the shared cookie', () => {
  it('a tab goes on with the token another tab refreshed', () => {
    session.setToken('tok-1', 3600);
    otherTabSignedIn('tok-2');
    expect(session.token()).toBe('tok-2');
    expect(session.expiresAt()).toBeGreaterThan(Date.now());
  });

  it('a tab keeps its own token when the cookie has run out (it can still refresh it)', () => {
    session.setToken('tok-1', 3600);
    document.cookie = 'token=; path=/; max-age=0';
    document.cookie = 'ExpiresAt=; path=/; max-age=0';
    expect(session.token()).toBe('tok-1');
  });
});
