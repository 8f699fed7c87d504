import { API_TOKEN_ENDPOINTS, changeRamPassword, logout, M, sendCode, verifyCode, type Access, type Endpoint, type Permission } from '@hublink/contract';
import type { Actor, RoleAuth } from './actor';
import { forbidden } from './errors';
import { ensureNetworkAllowed } from './networks';

function granted(role: RoleAuth, permission: Permission): boolean {
  const dot = permission.lastIndexOf('.');
  const area = permission.slice(0, dot) as keyof RoleAuth;
  const action = permission.slice(dot + 1);
  if (action === 'view') return true; // view permissions are always on (spec 1 §5)
  const flags = role[area] as Record<string, unknown> | undefined;
  return flags?.[action] === 1;
}

/**
 * The one permission check. Main accounts pass; sub-accounts pass 'user' routes, never 'main'
 * routes, and permission routes only when their role grants it and, for a network-scoped call,
 * only for the networks the role allows (core/networks.ts).
 */
export function authorize(actor: Actor, access: Access, networkNumber?: string): void {
  if (access === 'public' || access === 'user' || actor.role === null) return;
  // A member's self-service call takes a member's session (core/memberSessions.ts), never an account.
  if (access === 'member') throw forbidden(M.deniedPermission);
  if (access === 'main') throw forbidden(M.deniedMainOnly);
  if (!granted(actor.role, access)) throw forbidden(M.deniedPermission);
  if (networkNumber !== undefined) ensureNetworkAllowed(actor, networkNumber);
}

/**
 * Whether the actor may make the calls a permission guards: a main account may, a sub-account (or a
 * role token) when its role grants it, a read-only token never. Answers that show a secret's reach (a
 * webhook's URL) show it whole only to those who may change it.
 */
export function may(actor: Actor, permission: Permission): boolean {
  if (actor.apiTokenId !== undefined && actor.apiTokenScope !== 'role') return false;
  return actor.role === null || granted(actor.role, permission);
}

/**
 * What no personal API token may call, whatever its scope: the token calls themselves (a token never
 * makes or revokes tokens), and the self-service of a signed-in person (password, verification codes
 * for phone or email changes, signing out). Main-only calls are refused to 'role' tokens by authorize
 * and to 'read' tokens when they change anything.
 */
const SESSION_ONLY = new Set<string>([...API_TOKEN_ENDPOINTS, changeRamPassword, logout, sendCode, verifyCode].map((e) => `${e.method} ${e.path}`));

/**
 * The guard of one call: a token's limits first (SESSION_ONLY; a 'read' token calls GET only, refused
 * with the console's permission message), then authorize() as for anyone: a 'role' token has its
 * role, so it passes exactly where a sub-account of that role would, network list included.
 */
export function authorizeCall(actor: Actor, endpoint: Pick<Endpoint, 'method' | 'path' | 'access'>, networkNumber?: string): void {
  if (actor.apiTokenId !== undefined) {
    if (SESSION_ONLY.has(`${endpoint.method} ${endpoint.path}`)) throw forbidden(M.apiTokenNotAllowed);
    if (actor.apiTokenScope !== 'role' && endpoint.method !== 'GET') throw forbidden(M.deniedPermission);
  }
  authorize(actor, endpoint.access, networkNumber);
}

/**
 * The token scopes that may call an endpoint, as authorizeCall decides (the OpenAPI document says it
 * per call): none for SESSION_ONLY calls; GET calls 'read', and 'role' unless main-only; other calls
 * 'role' unless main-only (and then only as far as the role grants the call's permission).
 */
export function apiTokenScopes(endpoint: Pick<Endpoint, 'method' | 'path' | 'access'>): ('read' | 'role')[] {
  if (endpoint.access === 'public' || endpoint.access === 'member' || SESSION_ONLY.has(`${endpoint.method} ${endpoint.path}`)) return [];
  const role = endpoint.access === 'main' ? [] : (['role'] as const);
  return endpoint.method === 'GET' ? ['read', ...role] : [...role];
}
