import { API_BASE_PATH, BM, type BodyOf, CODE, type DataOf, type Endpoint, endpointUrl, type Envelope, LIMITS, type QueryOf, refreshToken } from '@hublink/contract';
import { toast } from './notify';
import { takePrefetched } from './prefetch';
import { session, sessionNotice } from './session';
import { tabs } from './tabs';

export const API_BASE = API_BASE_PATH;
/** Envelope code the client uses for a network failure or timeout (never sent by the server). */
export const NETWORK_FAILURE = -1;
/** Codes from here on mean the session is refused (spec 1 §8: 'code 2000 or above'). */
const SESSION_CODES = 2000;

export interface CallOptions {
  /** Default 10 s; directory sync calls pass 60 s. */
  timeoutMs?: number;
  /** Show msg as a success toast on 200 (default: POST yes, GET no). */
  successToast?: boolean;
  /** What a 204 does: leave the stale page (default, spec 1 §8: `browser.back`) or stay and let the screen decide. */
  on204?: 'back' | 'stay';
  /** Do not toast refusals; the screen shows them itself (e.g. inside a form). */
  quiet?: boolean;
}

/**
 * What the browser does on session loss and on a 204. The app's router replaces `back` with its way
 * out of a stale page (app/leaveStalePage.ts: back if the console has a page behind, else the list);
 * tests replace both.
 */
export const browser = {
  reload: () => window.location.reload(),
  back: () => window.history.back(),
};

let refreshing: Promise<boolean> | null = null;

/** Web Locks name: one tab of the browser refreshes the shared session at a time. */
const REFRESH_LOCK = 'hublink-token-refresh';

/**
 * Runs `fn` while no other tab of this browser runs it. Where the browser has no Web Locks (an
 * insecure origin), the tab runs it alone, and a refused refresh still looks at the cookie (below).
 */
function oneTabAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? (locks.request(REFRESH_LOCK, fn) as Promise<T>) : fn();
}

/**
 * Whether another tab has replaced `stale` with a token that still works (the cookie holds it). Even
 * one inside the refresh margin is taken: refreshing it again would only end the other tab's token
 * while its calls are under way; the next call refreshes it if it must.
 */
function renewedElsewhere(stale: string | null): boolean {
  const current = session.token();
  return current !== null && current !== stale && session.expiresAt() > Date.now();
}

/**
 * Whether the browser's session ended since `before` was read: the cookie is gone or holds another
 * sign-in's token, and not because its token ran out meanwhile (the cookie lives as long as the token).
 */
function endedMeanwhile(before: ReturnType<typeof session.shared>): boolean {
  if (!before) return false;
  const now = session.shared();
  if (now) return now.token !== before.token;
  return Date.now() < before.expiresAt;
}

/**
 * Swaps the token for a fresh one; one refresh at a time however many calls (and tabs) wait for it.
 * The server rotates the token (the old one stops working), and of two refreshes with one token only
 * one succeeds: so a tab first waits for any other tab's refresh and takes its token when there is one.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const stale = session.token();
    try {
      return await oneTabAtATime(async () => {
        if (renewedElsewhere(stale)) return true;
        const sentWith = session.token();
        const sharedBefore = session.shared();
        const env = await send<DataOf<typeof refreshToken>>(refreshToken, {}, LIMITS.requestTimeoutMs);
        if (env.code !== CODE.ok || !env.data) return renewedElsewhere(stale);
        // Signed out here or in another tab while the refresh was under way (this tab may not have heard
        // yet: its copy outlives the cookie): the answer must not bring the session back.
        if (session.token() !== sentWith || endedMeanwhile(sharedBefore)) return false;
        session.setToken(env.data.access_token, env.data.token_expire_time);
        session.setUser(env.data.user);
        return true;
      });
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * The browser's session is over: forget it (this tab and the cookie), tell the other tabs, keep
 * `notice` for the login page across the reload, and reload (the route guard then goes to the login
 * page with a way back here).
 */
function loseSession(notice: string) {
  session.clear();
  sessionNotice.set(notice);
  tabs.tell({ type: 'signed-out', notice });
  browser.reload();
}

function expireSession() {
  toast.error(BM.tokenExpired);
  loseSession(BM.tokenExpired);
}

/** The path and query string of an endpoint, under API_BASE or its own base (empty values left out). */
export function urlOf(endpoint: Pick<Endpoint, 'path' | 'base'>, query?: unknown): string {
  const url = new URL(endpointUrl(endpoint), window.location.origin);
  if (query) {
    for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
      if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
    }
  }
  return url.pathname + url.search;
}

/** The bearer header of the session, if there is one. */
export function authHeaders(): Record<string, string> {
  const token = session.token();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function send<T>(endpoint: Endpoint, input: { body?: unknown; query?: unknown }, timeoutMs: number): Promise<Envelope<T>> {
  const headers = authHeaders();
  if (endpoint.method === 'POST') headers['Content-Type'] = 'application/json';
  const url = urlOf(endpoint, input.query);
  // A page's first GET may be under way already, started with its route (api/prefetch).
  const early = endpoint.method === 'GET' ? takePrefetched(url, headers) : undefined;
  const res = await (early ??
    fetch(url, {
      method: endpoint.method,
      headers,
      body: endpoint.method === 'POST' ? JSON.stringify(input.body ?? {}) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    }));
  return (await res.json()) as Envelope<T>;
}

/**
 * Calls one endpoint of the contract and applies the error catalogue of spec 1 §8. It never throws:
 * every outcome is an envelope, and screens only need to look at `code`.
 */
export async function call<E extends Endpoint>(
  endpoint: E,
  input: { body?: BodyOf<E>; query?: QueryOf<E> } = {},
  opts: CallOptions = {},
): Promise<Envelope<DataOf<E>>> {
  const expired = await freshSession(endpoint);
  if (expired) return expired;

  const timeoutMs = opts.timeoutMs ?? LIMITS.requestTimeoutMs;
  let sentWith = session.token();
  let env: Envelope<DataOf<E>>;
  try {
    env = await send<DataOf<E>>(endpoint, input, timeoutMs);
    // A token refused because another tab refreshed it meanwhile (or it just ran out): once more with the new one.
    if (env.code >= SESSION_CODES && endpoint.access !== 'public' && (await renewedAfterRefusal(sentWith, env.code))) {
      sentWith = session.token();
      env = await send<DataOf<E>>(endpoint, input, timeoutMs);
    }
  } catch {
    toast.error(BM.timeout);
    return { code: NETWORK_FAILURE, msg: BM.timeout };
  }
  return applyCatalogue(endpoint, env, opts, sentWith);
}

/** After the server refused `sentWith`: whether the session goes on with a new token (another tab's, or refreshed now). */
async function renewedAfterRefusal(sentWith: string | null, code: number): Promise<boolean> {
  if (sentWith === null) return false;
  const current = session.token();
  if (current !== null && current !== sentWith) return true;
  return (code === CODE.tokenInvalid || code === CODE.tokenExpired) && (await refreshSession());
}

/**
 * Before an authenticated call: refreshes a token about to expire. Answers the envelope to return
 * when the session could not be kept (it is then already cleared), or null to go on.
 */
export async function freshSession(endpoint: Endpoint): Promise<Envelope<never> | null> {
  if (endpoint.access !== 'public' && session.token()) {
    const left = session.expiresAt() - Date.now();
    if (left < LIMITS.tokenRefreshMarginSeconds * 1000 && !(await refreshSession())) {
      expireSession();
      return { code: CODE.tokenExpired, msg: BM.tokenExpired };
    }
  }
  return null;
}

/**
 * The error catalogue of spec 1 §8 applied to one answer (toasts, 204, session loss); returns it.
 * `sentWith` is the token the call carried: a refusal of a token this browser has since replaced
 * (another tab refreshed it) does not end the session.
 */
export function applyCatalogue<T>(endpoint: Endpoint, env: Envelope<T>, opts: CallOptions = {}, sentWith: string | null = session.token()): Envelope<T> {
  const { code, msg } = env;
  if (code === CODE.ok) {
    if (opts.successToast ?? endpoint.method === 'POST') toast.success(msg);
  } else if (code === CODE.furtherAction) {
    // 423 passes through silently; the screen decides.
  } else if (code === CODE.notFound) {
    toast.error(msg);
    if ((opts.on204 ?? 'back') === 'back') browser.back();
  } else if (code >= SESSION_CODES) {
    // A disabled account says so; any other refused session is an expired one to the user.
    if (sentWith === session.token()) loseSession(code === CODE.accountDisabled && msg ? msg : BM.tokenExpired);
  } else if (!opts.quiet) {
    toast.error(msg || BM.dataError);
  }
  return env;
}
