import { M } from '@hublink/contract';
import type { Selectable } from 'kysely';
import type { Actor } from '../core/actor';
import { notFound } from '../core/errors';
import { ensureNetworkAllowed } from '../core/networks';
import type { Db } from '../db/connect';
import type { NetworkTable } from '../db/types';

/*
 * A tenant's network found by its number (network_number, unique in the tenant), for every area that
 * is handed one: the network module owns the table, the others read it through these.
 */

type NetworkRow = Selectable<NetworkTable>;
type NetworkColumn = keyof NetworkRow & string;

/** The tenant's network by its number, with the columns asked for; undefined when the tenant has none. */
export async function networkOfTenant<C extends NetworkColumn>(db: Db, tenantId: number, networkNumber: string, columns: readonly C[]): Promise<Pick<NetworkRow, C> | undefined> {
  const row = await db.selectFrom('network').select(columns).where('tenant_id', '=', tenantId).where('network_number', '=', networkNumber).executeTakeFirst();
  return row as Pick<NetworkRow, C> | undefined;
}

/** The caller's network by its number: 403 outside the role's list of networks, 204 when the tenant has none. */
export async function callersNetwork<C extends NetworkColumn>(db: Db, actor: Actor, networkNumber: string, columns: readonly C[]): Promise<Pick<NetworkRow, C>> {
  ensureNetworkAllowed(actor, networkNumber);
  const net = await networkOfTenant(db, actor.tenantId, networkNumber, columns);
  if (!net) throw notFound(M.networkNotFound);
  return net;
}
