import { ROUTER_TYPE } from '@hublink/contract';
import type { Db } from '../../db/connect';

export interface SaasAssignment {
  tenantId: number;
  routerName: string;
  category: string;
  /** 1 shared edition, otherwise standard. */
  share: number;
  max_bandwidth: number;
  bandwidth: number;
  /** Epoch ms, or null for no end. */
  expire_date: number | null;
  temp_bandwidth?: number;
  temp_start_date?: number | null;
  temp_expire_date?: number | null;
  ip?: string[];
}

export class SaasAssignError extends Error {}

/**
 * The operator's side (`hublink ops saas assign`, through operator.ts): makes a tenant's hardware member
 * a SaaS device with these attributes, or changes them when it is one already; answers the member's id.
 */
export async function assignSaasDevice(db: Db, a: SaasAssignment): Promise<number> {
  if (!Number.isInteger(a.max_bandwidth) || a.max_bandwidth < 0) throw new SaasAssignError('max_bandwidth must be a whole number of Mbs, 0 or more');
  if (!Number.isInteger(a.bandwidth) || a.bandwidth < 0 || a.bandwidth > a.max_bandwidth) throw new SaasAssignError('bandwidth must be between 0 and max_bandwidth');
  const member = await db
    .selectFrom('member')
    .select(['id', 'router_type'])
    .where('tenant_id', '=', a.tenantId)
    .where('router_key', '=', a.routerName.trim().toLowerCase())
    .executeTakeFirst();
  if (!member) throw new SaasAssignError(`tenant ${a.tenantId} has no member ${a.routerName}`);
  if (member.router_type !== ROUTER_TYPE.hardware) throw new SaasAssignError(`${a.routerName} is not a hardware member`);
  const now = Date.now();
  const values = {
    category: a.category.trim(),
    share: a.share === 1 ? 1 : 0,
    bandwidth: a.bandwidth,
    max_bandwidth: a.max_bandwidth,
    expire_time: a.expire_date,
    temp_bandwidth: a.temp_bandwidth ?? 0,
    temp_start_time: a.temp_start_date ?? null,
    temp_expire_time: a.temp_expire_date ?? null,
    ip: JSON.stringify(a.ip ?? []),
    update_time: now,
  };
  await db
    .insertInto('saas_device')
    .values({ member_id: member.id, tenant_id: a.tenantId, create_time: now, ...values })
    .onConflict((oc) => oc.column('member_id').doUpdateSet(values))
    .execute();
  return member.id;
}
