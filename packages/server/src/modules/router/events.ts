import type { Ctx } from '../../core/context';
import type { Db } from '../../db/connect';
import { chunks } from './chunks';

// The member events, written in the transaction of the change (docs/architecture.md).

export async function memberChanged(ctx: Ctx, trx: Db, tenantId: number, memberId: number, ...fields: string[]) {
  await ctx.events.emit(trx, { type: 'member.changed', tenant_id: tenantId, member_id: memberId, fields });
}

export async function membersCreated(ctx: Ctx, trx: Db, tenantId: number, members: { id: number; router_type: number }[]) {
  await ctx.events.emitAll(
    trx,
    members.map((m) => ({ type: 'member.created', tenant_id: tenantId, member_id: m.id, router_type: m.router_type })),
  );
}

/** Call before the delete: each event names the networks the member was in, which the delete takes with it. */
export async function membersDeleted(ctx: Ctx, trx: Db, tenantId: number, memberIds: number[]) {
  const networks = new Map<number, number[]>(memberIds.map((id) => [id, []]));
  for (const part of chunks(memberIds)) {
    const rows = await trx.selectFrom('network_member').select(['member_id', 'network_id']).where('tenant_id', '=', tenantId).where('member_id', 'in', part).execute();
    for (const r of rows) networks.get(r.member_id)?.push(r.network_id);
  }
  await ctx.events.emitAll(
    trx,
    [...networks].map(([id, network_ids]) => ({ type: 'member.deleted', tenant_id: tenantId, member_id: id, network_ids })),
  );
}
