import { M, type Access, type Permission } from '@hublink/contract';
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
  if (access === 'main') throw forbidden(M.deniedMainOnly);
  if (!granted(actor.role, access)) throw forbidden(M.deniedPermission);
  if (networkNumber !== undefined) ensureNetworkAllowed(actor, networkNumber);
}
