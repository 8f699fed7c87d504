import type { UserMessage } from '@hublink/contract';

/** Storage keys of spec 1 §3. */
export const KEYS = {
  token: 'token',
  user: 'user',
  expiresAt: 'ExpiresAt',
  sidebar: 'sidebarStatus',
  language: 'language',
  size: 'size',
  /** Ours: why the session ended, for the login page after the reload that ended it. */
  notice: 'sessionNotice',
} as const;

function setCookie(name: string, value: string, maxAgeSeconds: number) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; SameSite=Lax`;
}

function getCookie(name: string): string | null {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/**
 * The signed-in session: token, expiry (epoch ms) and user message, in session storage and a cookie.
 * The cookie is the browser's one session, shared by its tabs; session storage is this tab's copy of
 * it. When another tab refreshes the token or signs in, the cookie holds a token this tab has not
 * seen: the tab goes on with it (a refreshed token ends the old one on the server).
 */
export const session = {
  token(): string | null {
    const own = sessionStorage.getItem(KEYS.token);
    const shared = this.shared();
    if (shared && shared.token !== own) {
      sessionStorage.setItem(KEYS.token, shared.token);
      sessionStorage.setItem(KEYS.expiresAt, String(shared.expiresAt));
      return shared.token;
    }
    // No cookie: either no session, or its token ran out (the cookie lives as long as the token) and
    // this tab can still refresh it.
    return own;
  },
  /**
   * The browser's session as the cookie holds it (token and expiry, epoch ms), or null: none, or its
   * token ran out. A tab's copy outlives the cookie until the tab hears the news of a sign-out.
   */
  shared(): { token: string; expiresAt: number } | null {
    const token = getCookie(KEYS.token);
    const expiresAt = Number(getCookie(KEYS.expiresAt) ?? 0);
    return token && expiresAt ? { token, expiresAt } : null;
  },
  /** Whether this tab holds a session of its own (not just a cookie another tab wrote). */
  heldHere(): boolean {
    return sessionStorage.getItem(KEYS.token) !== null;
  },
  expiresAt(): number {
    this.token();
    return Number(sessionStorage.getItem(KEYS.expiresAt) ?? 0);
  },
  user(): UserMessage | null {
    const raw = sessionStorage.getItem(KEYS.user);
    return raw ? (JSON.parse(raw) as UserMessage) : null;
  },
  setToken(token: string, expiresInSeconds: number) {
    const expiresAt = Date.now() + expiresInSeconds * 1000;
    sessionStorage.setItem(KEYS.token, token);
    sessionStorage.setItem(KEYS.expiresAt, String(expiresAt));
    setCookie(KEYS.token, token, expiresInSeconds);
    setCookie(KEYS.expiresAt, String(expiresAt), expiresInSeconds);
  },
  setUser(user: UserMessage) {
    sessionStorage.setItem(KEYS.user, JSON.stringify(user));
  },
  /** Forgets this tab's copy only: another tab ended the browser's session (and may start the next). */
  forgetHere() {
    sessionStorage.removeItem(KEYS.token);
    sessionStorage.removeItem(KEYS.user);
    sessionStorage.removeItem(KEYS.expiresAt);
  },
  /** Ends the browser's session: this tab's copy and the cookie. */
  clear() {
    this.forgetHere();
    setCookie(KEYS.token, '', 0);
    setCookie(KEYS.expiresAt, '', 0);
  },
};

/**
 * Why the last session ended ('登录已过期，请重新登录!'), kept in this tab across the reload that ends
 * it so the login page can say it; cleared when a session starts.
 */
export const sessionNotice = {
  set(text: string) {
    sessionStorage.setItem(KEYS.notice, text);
  },
  get(): string | null {
    return sessionStorage.getItem(KEYS.notice);
  },
  clear() {
    sessionStorage.removeItem(KEYS.notice);
  },
};

/** Preferences kept across sessions of the tab. */
export const prefs = {
  sidebarOpened(): boolean {
    return sessionStorage.getItem(KEYS.sidebar) !== '0';
  },
  setSidebarOpened(opened: boolean) {
    sessionStorage.setItem(KEYS.sidebar, opened ? '1' : '0');
  },
  language(): string {
    return sessionStorage.getItem(KEYS.language) ?? 'zh-CN';
  },
  setLanguage(lang: string) {
    sessionStorage.setItem(KEYS.language, lang);
  },
  size(): 'small' | 'middle' | 'large' {
    return (sessionStorage.getItem(KEYS.size) as 'small' | 'middle' | 'large' | null) ?? 'middle';
  },
  setSize(size: 'small' | 'middle' | 'large') {
    sessionStorage.setItem(KEYS.size, size);
  },
};
