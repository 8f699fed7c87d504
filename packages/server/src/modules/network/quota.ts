import { fmt, M, NETWORK_STATUS, type NetworkQuota } from '@hublink/contract';
import { invalid } from '../../core/errors';
import { planOf, type Plan } from '../../domain/plan';
import type { Db } from '../../db/connect';

/*
 * The member quota of networks (spec 2 §3, §5). network_router_use counts the tenant's distinct
 * members that are in at least one network; the plan's network_router_count bounds it. A change
 * that would raise the use beyond the plan is refused; one that does not raise it passes even while
 * the tenant is over (the operator lowered the plan), so the tenant can always get back under it.
 * The database keeps the use in account.network_router_use (triggers of migration 0007); the plan
 * and the use are read with core/plan.ts.
 */

/** The use counted from the member lists themselves (what the kept number must always equal). */
export async function countedRouterUse(db: Db, tenantId: number): Promise<number> {
  const r = await db
    .selectFrom('network_member')
    .select((eb) => eb.fn.count<number>('member_id').distinct().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The quota as /network/config gives it. */
export const quotaOf = (p: Plan): NetworkQuota => ({
  network_router_use: p.network_router_use,
  network_router_count: p.network_router_count,
  network_level: p.network_level,
  network_center_count: p.network_center_count,
});

/** Every network of a tenant is unusable while its networked members exceed the plan. */
export const networkStatusOf = (p: Pick<Plan, 'network_router_use' | 'network_router_count'>): number =>
  p.network_router_use > p.network_router_count ? NETWORK_STATUS.disabled : NETWORK_STATUS.usable;


/**
 * Called inside the transaction after a change: refuses it (rolling it back) when it raised the use
 * beyond the plan. `before` is the use when the transaction began.
 */
export async function ensureWithinQuota(trx: Db, tenantId: number, plan: Plan, before: number): Promise<void> {
  const after = (await planOf(trx, tenantId)).network_router_use;
  if (after > plan.network_router_count && after > before) {
    throw invalid(fmt(M.networkQuotaFull, { n: plan.network_router_count }));
  }
}

/** The same lenience for centers: more than the plan allows only if the change does not add any. */
export function ensureCenters(plan: Plan, centers: number, centersBefore: number): void {
  if (centers > plan.network_center_count && centers > centersBefore) {
    throw invalid(fmt(M.networkCenterLimit, { n: plan.network_center_count }));
  }
}
