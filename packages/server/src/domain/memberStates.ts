import { LIMITS, MEMBER_STATE, type MemberState } from '@hublink/contract';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/types';
import type { Actor } from '../core/actor';
import { allowedNetworks } from '../core/networks';

/*
 * The member states the dashboard's overview counts and the member list filters by (issue 18), in one
 * place so a figure and the list it links to always agree. Each is a condition on `member` rows; the
 * caller scopes them to the tenant (and to a kind). What each reads:
 * - online: the flag the device gateway keeps while a session lives;
 * - behind: a configuration (member_config) of a network the caller may see whose version is newer
 *   than the one the device said it applied, through the partial index member_config_behind;
 * - offline_day: offline, created before the cutoff, no session begun since (member.online_time) and
 *   none ended since (connect_log rows with online 0, by the tenant's time index).
 */

export interface StateScope {
  tenantId: number;
  /** The network numbers a role limits the caller to, or null for all (core/networks.ts). */
  allowed: readonly string[] | null;
  /** Now, epoch ms: the cutoff of offline_day is LIMITS.overviewOfflineMs before it. */
  now: number;
}

export const stateScopeOf = (actor: Actor, now: number = Date.now()): StateScope => ({ tenantId: actor.tenantId, allowed: allowedNetworks(actor), now });

type MemberEb = ExpressionBuilder<Database, 'member'>;

/** The ids of the tenant's members with a configuration their device has not applied, in the networks of the scope. */
export function behindMemberIds(eb: MemberEb, scope: StateScope) {
  const allowed = scope.allowed;
  return eb
    .selectFrom('member_config as mc')
    .select('mc.member_id')
    .where('mc.tenant_id', '=', scope.tenantId)
    // Spelled as migration 0031's partial index is, so both planners take it.
    .where(sql<SqlBool>`applied_version < version`)
    .$if(allowed !== null, (qb) =>
      qb.where('mc.network_id', 'in', (n) => n.selectFrom('network as n').select('n.id').where('n.tenant_id', '=', scope.tenantId).where('n.network_number', 'in', allowed!)),
    );
}

/** The names of the tenant's members a session of which ended at or after `since`. */
function endedSince(eb: MemberEb, tenantId: number, since: number) {
  return eb.selectFrom('connect_log as cl').select('cl.router_name').where('cl.tenant_id', '=', tenantId).where('cl.create_time', '>=', since).where('cl.online', '=', 0);
}

/** The condition of one state on `member` rows. */
export function memberStateCondition(eb: MemberEb, state: MemberState, scope: StateScope): Expression<SqlBool> {
  switch (state) {
    case MEMBER_STATE.online:
      return eb('member.online_status', '=', 1);
    case MEMBER_STATE.behind:
      return eb('member.id', 'in', behindMemberIds(eb, scope));
    case MEMBER_STATE.offlineDay: {
      const cutoff = scope.now - LIMITS.overviewOfflineMs;
      return eb.and([
        eb('member.online_status', '=', 0),
        eb('member.create_time', '<', cutoff),
        eb.or([eb('member.online_time', 'is', null), eb('member.online_time', '<', cutoff)]),
        eb('member.router_name', 'not in', endedSince(eb, scope.tenantId, cutoff)),
      ]);
    }
  }
}
