import type { NetworkQuota } from '@hublink/contract';
import type { Db } from '../db/connect';

/*
 * A tenant's plan (DESIGN.md §5: new tenants get config.defaultPlan, the operator changes it) and
 * the one use the database keeps beside it: network_router_use, the tenant's distinct members in at
 * least one network (triggers of migration 0007). Every quota is read here.
 */

export interface Plan extends NetworkQuota {
  dns_quantity: number;
  /** How many sub-accounts the tenant may have. */
  ram_quantity: number;
}

/** The tenant's plan and its network use: one row. */
export async function planOf(db: Db, tenantId: number): Promise<Plan> {
  return db
    .selectFrom('account')
    .select(['network_router_use', 'network_router_count', 'network_level', 'network_center_count', 'dns_quantity', 'ram_quantity'])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
}
