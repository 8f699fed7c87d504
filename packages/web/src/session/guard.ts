import type { Permission, RoleAuth, UserMessage } from '@hublink/contract';
import { HOME_PATH, LOGIN_PATH, normalizePath } from './paths';

/** The sign-in pages: a signed-in user visiting them goes to the console (spec 1 §2.2). */
export const LOGIN_PATHS: readonly string[] = [LOGIN_PATH, '/login/index'];

/** The only pages open without a token (spec 1 §2.2). */
export const OPEN_PATHS: readonly string[] = [
  LOGIN_PATH,
  '/register',
  '/privacy',
  '/reset',
  '/clause',
  '/handbook',
  '/download',
  '/validate/email',
  // A member's self-service page (issue 30): members sign in on the page itself, not as accounts.
  '/self',
];

export type GuardDecision =
  | { kind: 'pass' }
  /** /login?token=…: run the authorised login of spec 1 §4 on the login page. */
  | { kind: 'authorize'; token: string }
  /** Go elsewhere; `logout` first forgets the current session. */
  | { kind: 'redirect'; to: string; logout?: boolean };

/** The route guard of spec 1 §2.2 as a pure function of the location and whether a token is stored. */
export function decide(pathname: string, search: string, signedIn: boolean): GuardDecision {
  const path = normalizePath(pathname);
  const queryToken = new URLSearchParams(search).get('token');
  if (queryToken) {
    if (path === LOGIN_PATH) return { kind: 'authorize', token: queryToken };
    return { kind: 'redirect', to: `${LOGIN_PATH}?token=${encodeURIComponent(queryToken)}`, logout: true };
  }
  if (signedIn) return LOGIN_PATHS.includes(path) ? { kind: 'redirect', to: HOME_PATH } : { kind: 'pass' };
  if (OPEN_PATHS.includes(path)) return { kind: 'pass' };
  // Another spelling of the login page needs no way back to itself.
  if (LOGIN_PATHS.includes(path)) return { kind: 'redirect', to: LOGIN_PATH };
  return { kind: 'redirect', to: `${LOGIN_PATH}?redirect=${encodeURIComponent(pathname + search)}` };
}

/**
 * Who may see a page of the console, mirroring the server's `access` of the calls the page makes:
 * main accounts only, or main accounts and the sub-accounts whose role grants a permission.
 * A route without one is open to every signed-in account.
 */
export type PageAccess = 'main' | Permission;

/** What a role grants, read like the server's guard: view is always on (spec 1 §6). */
function granted(role: RoleAuth, permission: Permission): boolean {
  const dot = permission.lastIndexOf('.');
  const area = permission.slice(0, dot) as keyof RoleAuth;
  const action = permission.slice(dot + 1);
  if (action === 'view') return true;
  const flags = role[area] as Record<string, unknown>;
  return flags[action] === 1;
}

/**
 * Whether this user may see a page. Unknown while the user is loading: false, so a sub-account
 * never glimpses a main-account page (callers wait for the user before refusing).
 */
export function mayVisit(access: PageAccess | undefined, user: UserMessage | null): boolean {
  if (!access) return true;
  if (!user) return false;
  if (user.ram !== 1) return true;
  if (access === 'main') return false;
  // A sub-account without a role: the console offers what networkRights offers it (everything).
  return !user.role || granted(user.role, access);
}
