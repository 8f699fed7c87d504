import type { Ctx } from '../core/context';
import type { OnStored } from './versions';

/** Announces stored configuration versions (member_config.changed, for the gateway) in the recompile's transaction. */
export const announceStored =
  (ctx: Ctx, tenantId: number, networkId: number): OnStored =>
  (trx, r) =>
    ctx.events.emit(trx, {
      type: 'member_config.changed',
      tenant_id: tenantId,
      network_id: networkId,
      network_number: r.networkNumber,
      member_ids: r.storedMemberIds,
      removed_member_ids: r.removedMemberIds,
    });
