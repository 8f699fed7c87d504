import { API_BASE_PATH, CODE, endpointUrl, LIMITS, M, refreshToken, type DataOf, type Endpoint, type Envelope, type QueryOf, type BodyOf } from '@hublink/contract';
import { toast } from './notify';
import { session } from './session';

export const API_BASE = API_BASE_PATH;
/** Envelope code the client uses for a network failure or timeout (never sent by the server). */
export const NETWORK_FAILURE = -1;

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

/** Swaps the token for a fresh one; one refresh at a time however many calls wait for it. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const env = await send<DataOf<typeof refreshToken>>(refreshToken, {}, LIMITS.requestTimeoutMs);
      if (env.code !== CODE.ok || !env.data) return false;
      session.setToken(env.data.access_token, env.data.token_expire_time);
      session.setUser(env.data.user);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function expireSession() {
  toast.error(M.tokenExpired);
  session.clear();
  browser.reload();
}

/** The path and query string of an endpoint, under API_BASE or its own base (empty values left out). */
export function urlOf(endpoint: Endpoint, query?: unknown): string {
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
  const res = await fetch(urlOf(endpoint, input.query), {
    method: endpoint.method,
    headers,
    body: endpoint.method === 'POST' ? JSON.stringify(input.body ?? {}) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
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

  let env: Envelope<DataOf<E>>;
  try {
    env = await send<DataOf<E>>(endpoint, input, opts.timeoutMs ?? LIMITS.requestTimeoutMs);
  } catch {
    toast.error(M.timeout);
    return { code: NETWORK_FAILURE, msg: M.timeout };
  }
  return applyCatalogue(endpoint, env, opts);
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
      return { code: CODE.tokenExpired, msg: M.tokenExpired };
    }
  }
  return null;
}

/** The error catalogue of spec 1 §8 applied to one answer (toasts, 204, session loss); returns it. */
export function applyCatalogue<T>(endpoint: Endpoint, env: Envelope<T>, opts: CallOptions = {}): Envelope<T> {
  const { code, msg } = env;
  if (code === CODE.ok) {
    if (opts.successToast ?? endpoint.method === 'POST') toast.success(msg);
  } else if (code === CODE.furtherAction) {
    // 423 passes through silently; the screen decides.
  } else if (code === CODE.notFound) {
    toast.error(msg);
    if ((opts.on204 ?? 'back') === 'back') browser.back();
  } else if (code >= 2000) {
    session.clear();
    browser.reload();
  } else if (!opts.quiet) {
    toast.error(msg || M.dataError);
  }
  return env;
}
