import { BM, type BodyOf, CODE, type DataOf, type Endpoint, type Envelope, LIMITS, type QueryOf, type SelfSession } from '@hublink/contract';
import { NETWORK_FAILURE, urlOf } from '../../api/client';
import { fileNameOf, saver } from '../../api/files';

/*
 * The self-service page's own line to the server (issue 30): a member's session is not the console's
 * (api/session.ts), so these calls carry the member's token, never an account's, and losing it sends
 * the page back to its sign-in form instead of reloading the console.
 */

const SESSION_KEY = 'hublink.self.session';
const VERIFIER_KEY = 'hublink.self.verifier';
const CODE_KEY = 'hublink.self.code';

/** The member's session, kept for the tab only (sessionStorage), until it expires. */
export const memberSession = {
  token(now = Date.now()): string | null {
    try {
      const saved = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as { token: string; expires_at: number } | null;
      return saved && saved.expires_at > now ? saved.token : null;
    } catch {
      return null;
    }
  },
  set(s: SelfSession, now = Date.now()) {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ token: s.token, expires_at: now + s.expires_in * 1000 }));
  },
  clear() {
    sessionStorage.removeItem(SESSION_KEY);
  },
};

/** Calls one endpoint with the member's token (member calls) and answers the envelope; never throws. */
export async function selfCall<E extends Endpoint>(endpoint: E, input: { body?: BodyOf<E>; query?: QueryOf<E> } = {}): Promise<Envelope<DataOf<E>>> {
  const headers: Record<string, string> = {};
  const token = memberSession.token();
  if (endpoint.access === 'member' && token) headers.Authorization = `Bearer ${token}`;
  if (endpoint.method === 'POST') headers['Content-Type'] = 'application/json';
  try {
    const res = await fetch(urlOf(endpoint, input.query), {
      method: endpoint.method,
      headers,
      body: endpoint.method === 'POST' ? JSON.stringify(input.body ?? {}) : undefined,
      signal: AbortSignal.timeout(LIMITS.requestTimeoutMs),
    });
    const env = (await res.json()) as Envelope<DataOf<E>>;
    if (env.code >= CODE.tokenInvalid) memberSession.clear();
    return env;
  } catch {
    return { code: NETWORK_FAILURE, msg: BM.timeout };
  }
}

/** Downloads the member's profile of a GET file call and saves it; a refusal answers its envelope, a saved file null. */
export async function selfDownload<E extends Endpoint>(endpoint: E, query: QueryOf<E>, fallbackName: string): Promise<Envelope | null> {
  const token = memberSession.token();
  try {
    const res = await fetch(urlOf(endpoint, query), { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(LIMITS.requestTimeoutMs) });
    if ((res.headers.get('Content-Type') ?? '').includes('application/json')) {
      const env = (await res.json()) as Envelope;
      if (env.code >= CODE.tokenInvalid) memberSession.clear();
      return env;
    }
    saver.save(await res.blob(), fileNameOf(res.headers.get('Content-Disposition')) ?? fallbackName);
    return null;
  } catch {
    return { code: NETWORK_FAILURE, msg: BM.timeout };
  }
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Whether this browser can start a source sign-in (PKCE needs WebCrypto: https or localhost). */
export const canSignInWithSource = () => typeof crypto !== 'undefined' && crypto.subtle !== undefined;

/**
 * Starts a PKCE pair (RFC 7636, S256) for a source sign-in: the verifier stays in this tab for the
 * ticket, the challenge goes with the browser to the provider. The tenant's ID code is kept too, so
 * the page still offers the sources after the round trip.
 */
export async function startSourceSignIn(idCode: string): Promise<string> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem(VERIFIER_KEY, verifier);
  sessionStorage.setItem(CODE_KEY, idCode);
  return base64url(digest);
}

/** The verifier of the sign-in under way, once (a ticket is redeemed once). */
export function takeVerifier(): string | null {
  const v = sessionStorage.getItem(VERIFIER_KEY);
  sessionStorage.removeItem(VERIFIER_KEY);
  return v;
}

/** The ID code the last source sign-in of this tab named. */
export const savedIdCode = () => sessionStorage.getItem(CODE_KEY) ?? '';
