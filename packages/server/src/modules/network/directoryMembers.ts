import { ROUTER_TYPE, type DomainEvent } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ApiError } from '../../core/errors';
import { planOf } from '../../domain/plan';
import { lockTenant } from '../../core/tenantLock';
import { recordVersion, versionBaseline } from './historyRecord';
import { ensureWithinQuota } from './quota';
import { insertMembers, networkChanged } from './service';
import { networkOfTenant } from '../../domain/networks';

/**
 * Members imported from the tenant's directory join the network its LDAP configuration names, as
 * points (ldap.members_imported), the way the network's own calls add points: under the tenant's lock,
 * software members only, those already in it left as they are, and refused as a whole when it would
 * take the network use beyond the plan (logged: a retry would meet the same plan). A network deleted
 * since, or members deleted since, are nothing to add.
 */
export async function joinImportedMembers(event: DomainEvent<'ldap.members_imported'>, ctx: Ctx): Promise<void> {
  const tenantId = event.tenant_id;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockTenant(ctx, trx, tenantId);
      const net = await networkOfTenant(trx, tenantId, event.network_number, ['id', 'routing_type']);
      if (!net) return;
      const members = await trx
        .selectFrom('member')
        .select(['id', 'router_name'])
        .where('tenant_id', '=', tenantId)
        .where('router_type', '=', ROUTER_TYPE.software)
        .where('id', 'in', event.member_ids)
        .execute();
      const inNetwork = new Set(
        (await trx.selectFrom('network_member').select('member_id').where('network_id', '=', net.id).where('member_id', 'in', event.member_ids).execute()).map((r) => r.member_id),
      );
      const chosen = members.filter((m) => !inNetwork.has(m.id)).map((m) => ({ id: m.id, router_name: m.router_name, member_type: 'point' as const }));
      if (chosen.length === 0) return;
      await versionBaseline(trx, tenantId, net.id);
      const plan = await planOf(trx, tenantId);
      await insertMembers(trx, tenantId, net.id, chosen, Date.now(), net.routing_type);
      await ensureWithinQuota(trx, tenantId, plan, plan.network_router_use);
      await networkChanged(ctx, trx, tenantId, net.id, 'members');
      await recordVersion(trx, null, tenantId, net.id);
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    ctx.log.warn({ tenantId, networkNumber: event.network_number, reason: err.message }, 'network: imported directory members not added to the network');
  }
}
