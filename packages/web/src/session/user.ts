import { useSyncExternalStore } from 'react';
import { CODE, accountInfo, type UserMessage } from '@hublink/contract';
import { call } from '../api/client';
import { KEYS, session, sessionNotice } from '../api/session';
import { tabs } from '../api/tabs';

// The signed-in user lives in session storage (spec 1 §3); this module makes it observable.
const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cached: UserMessage | null = null;

function snapshot(): UserMessage | null {
  const raw = sessionStorage.getItem(KEYS.user);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = raw ? (JSON.parse(raw) as UserMessage) : null;
  }
  return cached;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const emit = () => listeners.forEach((l) => l());

/** The current user message, or null when signed out or not loaded yet. */
export function useUser(): UserMessage | null {
  return useSyncExternalStore(subscribe, snapshot, () => null);
}

/** Stores a user message (after login or a reload) and tells every screen. */
export function setUser(user: UserMessage) {
  session.setUser(user);
  emit();
}

/**
 * Starts the browser's session (sign-in): token, user, and the news to the other tabs, which go on
 * with it. The notice of a session that ended before is over.
 */
export function startSession(token: string, expiresInSeconds: number, user: UserMessage) {
  session.setToken(token, expiresInSeconds);
  sessionNotice.clear();
  setUser(user);
  tabs.tell({ type: 'signed-in', user });
}

/** Ends the browser's session (token, expiry, user) here and in every other tab. */
export function endSession() {
  session.clear();
  emit();
  tabs.tell({ type: 'signed-out' });
}

/** Another tab ended the session: forget this tab's copy (the cookie is the other tab's business now). */
export function forgetSessionHere() {
  session.forgetHere();
  emit();
}

let inflight: Promise<UserMessage | null> | null = null;

/**
 * Fetches GET /account/info and stores the answer; one request however many callers ask at once.
 * Call it after anything that changes the user message (unread count, nickname, phone, email).
 */
export function reloadUser(): Promise<UserMessage | null> {
  inflight ??= call(accountInfo)
    .then((env) => {
      if (env.code !== CODE.ok || !env.data) return null;
      setUser(env.data);
      return env.data;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}
