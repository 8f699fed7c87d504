import { M } from '@hublink/contract';
import type { Actor } from './actor';
import { forbidden } from './errors';

/*
 * Which of the tenant's networks a caller has rights on (spec 1 §6: "if specific networks are
 * assigned, rights apply only to them"). A role's empty list assigns none, so it limits nothing: it
 * means every network, as it does for a main account. That "all" is null here, never an empty
 * array, so no caller can read an empty list as "none".
 */

/** The network numbers the caller is limited to, or null for every network of the tenant. */
export function allowedNetworks(actor: Actor): readonly string[] | null {
  const listed = actor.role?.['easylink.network']?.network ?? [];
  return listed.length > 0 ? listed : null;
}

/** Whether the caller has rights on this network. */
export function mayUseNetwork(actor: Actor, networkNumber: string): boolean {
  const allowed = allowedNetworks(actor);
  return allowed === null || allowed.includes(networkNumber);
}

/** 403 when the caller's role lists networks and this is not one of them. */
export function ensureNetworkAllowed(actor: Actor, networkNumber: string): void {
  if (!mayUseNetwork(actor, networkNumber)) throw forbidden(M.deniedNetwork);
}
