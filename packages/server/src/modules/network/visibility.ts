import { M } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import { forbidden } from '../../core/errors';

/*
 * Which of the tenant's networks a caller may see. A sub-account whose role lists networks sees
 * only those; everyone else sees all the tenant's networks. The guard applies the list to
 * permission routes (edit, delete …); GET routes with access 'user' pass the guard, so the network
 * services call these helpers themselves.
 */

/** The network numbers the caller is limited to, or null for all the tenant's networks. */
export function visibleNetworks(actor: Actor): string[] | null {
  const listed = actor.role?.['easylink.network']?.network ?? [];
  return listed.length > 0 ? listed : null;
}

/** 403 when the caller's role lists networks and this is not one of them. */
export function ensureVisible(actor: Actor, networkNumber: string): void {
  const allowed = visibleNetworks(actor);
  if (allowed && !allowed.includes(networkNumber)) throw forbidden(M.deniedNetwork);
}

/**
 * A role limited to networks cannot create one (spec 1 §5; the role form clears the flag, and this
 * holds for a role stored any other way too).
 */
export function ensureMayCreate(actor: Actor): void {
  if (visibleNetworks(actor)) throw forbidden(M.deniedPermission);
}
