import { ROUTER_TYPE } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { assignSaasDevice, SaasAssignError, type SaasAssignment } from './assign';

/*
 * The operator's side of SaaS devices (the `hublink ops saas` commands): every tenant's devices, a
 * member made one (or changed) and made an ordinary member again. A change of a device's bandwidth is
 * announced as member.changed ['bandwidth'], as the tenant's own change is (devices.ts).
 */

export interface OperatorSaasDevice {
  member_id: number;
  router_name: string;
  tenant_id: number;
  /** The tenant's username. */
  tenant: string;
  category: string;
  share: number;
  bandwidth: number;
  max_bandwidth: number;
  /** Epoch ms, null for none. */
  expire_time: number | null;
  temp_bandwidth: number;
  temp_start_time: number | null;
  temp_expire_time: number | null;
}

const msOrNull = (v: number | null) => (v === null ? null : Number(v));

/** Every tenant's devices (or one tenant's), by tenant, category and name; at most `limit`. */
export async function listAllSaasDevices(ctx: Ctx, opts: { tenantId?: number; limit: number }): Promise<OperatorSaasDevice[]> {
  const rows = await ctx.db
    .selectFrom('saas_device as d')
    .innerJoin('member as m', (j) => j.onRef('m.id', '=', 'd.member_id').onRef('m.tenant_id', '=', 'd.tenant_id'))
    .innerJoin('account as a', 'a.id', 'd.tenant_id')
    .select([
      'd.member_id',
      'm.router_name',
      'd.tenant_id',
      'a.username as tenant',
      'd.category',
      'd.share',
      'd.bandwidth',
      'd.max_bandwidth',
      'd.expire_time',
      'd.temp_bandwidth',
      'd.temp_start_time',
      'd.temp_expire_time',
    ])
    .where('m.router_type', '=', ROUTER_TYPE.hardware)
    .$if(opts.tenantId !== undefined, (qb) => qb.where('d.tenant_id', '=', opts.tenantId!))
    .orderBy('d.tenant_id')
    .orderBy('d.category')
    .orderBy('m.router_key')
    .limit(opts.limit)
    .execute();
  return rows.map((r) => ({ ...r, expire_time: msOrNull(r.expire_time), temp_start_time: msOrNull(r.temp_start_time), temp_expire_time: msOrNull(r.temp_expire_time) }));
}

/** assignSaasDevice, announced; refusals are SaasAssignErrors. */
export async function assignAsOperator(ctx: Ctx, a: SaasAssignment): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const memberId = await assignSaasDevice(trx, a);
    await ctx.events.emit(trx, { type: 'member.changed', tenant_id: a.tenantId, member_id: memberId, fields: ['bandwidth'] });
  });
}

/** The tenant's member of this name stops being a SaaS device (its reported history stays); a SaasAssignError when it is not one. */
export async function unassignSaasDevice(ctx: Ctx, tenantId: number, routerName: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom('member')
      .innerJoin('saas_device', (j) => j.onRef('saas_device.member_id', '=', 'member.id').onRef('saas_device.tenant_id', '=', 'member.tenant_id'))
      .select('member.id')
      .where('member.tenant_id', '=', tenantId)
      .where('member.router_key', '=', routerName.trim().toLowerCase())
      .executeTakeFirst();
    if (!member) throw new SaasAssignError(`${routerName} is not a SaaS device of tenant ${tenantId}`);
    await trx.deleteFrom('saas_device').where('member_id', '=', member.id).where('tenant_id', '=', tenantId).execute();
    await ctx.events.emit(trx, { type: 'member.changed', tenant_id: tenantId, member_id: member.id, fields: ['bandwidth'] });
  });
}
