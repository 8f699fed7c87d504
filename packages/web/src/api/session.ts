import type { UserMessage } from '@hublink/contract';

/** Storage keys of spec 1 §3. */
export const KEYS = {
  token: 'token',
  user: 'user',
  expiresAt: 'ExpiresAt',
  sidebar: 'sidebarStatus',
  language: 'language',
  size: 'size',
} as const;

function setCookie(name: string, value: string, maxAgeSeconds: number) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; SameSite=Lax`;
}

function getCookie(name: string): string | null {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/** The signed-in session: token, expiry (epoch ms) and user message, in session storage and a cookie. */
export const session = {
  token(): string | null {
    const t = sessionStorage.getItem(KEYS.token);
    if (t) return t;
    // A tab opened from the console (router detail in a new tab) starts from the cookie.
    const c = getCookie(KEYS.token);
    const exp = getCookie(KEYS.expiresAt);
    if (c && exp) {
      sessionStorage.setItem(KEYS.token, c);
      sessionStorage.setItem(KEYS.expiresAt, exp);
    }
    return c;
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
  clear() {
    sessionStorage.removeItem(KEYS.token);
    sessionStorage.removeItem(KEYS.user);
    sessionStorage.removeItem(KEYS.expiresAt);
    setCookie(KEYS.token, '', 0);
    setCookie(KEYS.expiresAt, '', 0);
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
