import { accountInfo, BM, CODE, type Envelope, LIMITS, type UserMessage } from '@hublink/contract';
import { API_BASE } from '../api/client';
import { session } from '../api/session';
import { toast } from '../api/notify';
import { endSession, startSession } from '../session/user';

/**
 * Asks for the user message with the given token. It does not go through api/client's call(): a
 * refused token there clears the session and reloads the page, which here would start the
 * authorisation again from the same URL, forever. Any failure simply means "not authorised".
 */
async function fetchUserWith(token: string): Promise<UserMessage | null> {
  try {
    const res = await fetch(API_BASE + accountInfo.path, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(LIMITS.requestTimeoutMs),
    });
    const env = (await res.json()) as Envelope<UserMessage>;
    return env.code === CODE.ok && env.data ? env.data : null;
  } catch {
    return null;
  }
}

const running = new Map<string, Promise<boolean>>();

/**
 * The authorised login of spec 1 §4: forget the current session, keep the query token for one hour,
 * fetch the user. Success toasts '授权成功' (and the other tabs go on with the session); failure
 * toasts '授权失败' and forgets the session again.
 * Runs once per token however many screens ask at the same time.
 */
export function authorizeWithToken(token: string): Promise<boolean> {
  let flow = running.get(token);
  if (!flow) {
    flow = (async () => {
      endSession();
      session.setToken(token, LIMITS.queryTokenTtlSeconds);
      const user = await fetchUserWith(token);
      if (user) {
        startSession(token, LIMITS.queryTokenTtlSeconds, user);
        toast.success(BM.authorizeSuccess);
        return true;
      }
      endSession();
      toast.error(BM.authorizeFailed);
      return false;
    })().finally(() => running.delete(token));
    running.set(token, flow);
  }
  return flow;
}
