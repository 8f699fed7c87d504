import { M, type MemberConfigAnswer } from '@hublink/contract';
import type { Actor } from '../core/actor';
import type { Ctx } from '../core/context';
import { notFound } from '../core/errors';
import { formatTime } from '../core/time';
import { announceStored } from './announce';
import { recompileNetwork } from './versions';
import { callersNetwork } from '../domain/networks';

/**
 * A member's current configuration in a network of the caller's tenant: 204 for a network or member it
 * does not have. A member whose network has not been compiled since it joined (its event still on the
 * way) is compiled here, so support never sees a member without a configuration.
 */
export async function memberConfigOf(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string): Promise<MemberConfigAnswer> {
  const net = await callersNetwork(ctx.db, actor, networkNumber, ['id']);
  const member = await ctx.db
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select('nm.member_id')
    .where('nm.network_id', '=', net.id)
    .where('nm.tenant_id', '=', actor.tenantId)
    .where('m.tenant_id', '=', actor.tenantId)
    .where('m.router_key', '=', routerName.toLowerCase())
    .executeTakeFirst();
  if (!member) throw notFound(M.memberNotFound);

  const read = () =>
    ctx.db
      .selectFrom('member_config')
      .select(['version', 'update_time', 'config', 'openvpn'])
      .where('tenant_id', '=', actor.tenantId)
      .where('network_id', '=', net.id)
      .where('member_id', '=', member.member_id)
      .executeTakeFirst();
  let row = await read();
  if (!row) {
    await recompileNetwork(ctx, actor.tenantId, net.id, Date.now(), announceStored(ctx, actor.tenantId, net.id));
    row = await read();
  }
  if (!row) throw notFound(M.memberNotFound);
  return {
    version: row.version,
    update_time: formatTime(Number(row.update_time), ctx.config.timezone),
    config: JSON.parse(row.config) as Record<string, unknown>,
    openvpn: JSON.parse(row.openvpn) as Record<string, string>,
  };
}
