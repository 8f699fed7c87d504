import { LIMITS, MEMBER_STATE, type Overview } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { countByType } from '../../domain/members';
import { stateScopeOf } from '../../domain/memberStates';
import { countAlertsSince, countInState, countNetworks, countOnline, countRamAccounts } from '../../domain/overview';
import { planOf } from '../../domain/plan';

/**
 * Every figure of the dashboard's overview (issue 18) for the caller. A sub-account sees what its
 * lists show it (docs/decisions.md, "A live overview"): the networks and the configurations of the
 * networks its role lists (all when it lists none); members, alerts and the member quota of the
 * whole tenant, as the member list and the message centre show them; no sub-account quota.
 */
export async function overviewOf(ctx: Ctx, actor: Actor): Promise<Overview> {
  const now = Date.now();
  const scope = stateScopeOf(actor, now);
  // A role-scoped API token sees what a sub-account of its role would (no sub-account quota).
  const main = actor.ramId === null && actor.role === null;
  const [networks, members, online, behind, offlineDay, alerts, plan, ramUsed] = await Promise.all([
    countNetworks(ctx.db, scope),
    countByType(ctx.db, actor.tenantId),
    countOnline(ctx.db, scope),
    countInState(ctx.db, scope, MEMBER_STATE.behind),
    countInState(ctx.db, scope, MEMBER_STATE.offlineDay),
    countAlertsSince(ctx.db, actor.tenantId, now - LIMITS.overviewAlertsMs),
    planOf(ctx.db, actor.tenantId),
    main ? countRamAccounts(ctx.db, actor.tenantId) : Promise.resolve(0),
  ]);
  return {
    networks,
    members,
    online,
    behind,
    offline_day: offlineDay,
    alerts,
    quota: {
      members: { used: members.hardware + members.software, max: plan.network_router_count },
      networked: { used: plan.network_router_use, max: plan.network_router_count },
      centers: plan.network_center_count,
      ram: main ? { used: ramUsed, max: plan.ram_quantity } : null,
    },
  };
}
