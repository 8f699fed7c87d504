import { MEMBER_STATE, ROUTER_TYPE, type ByMemberType, type MemberState } from '@hublink/contract';
import type { Db } from '../db/connect';
import { memberStateCondition, type StateScope } from './memberStates';

/*
 * The read queries of the dashboard's overview (issue 18) over tables other areas own: networks,
 * members, configurations, alerts, sub-accounts. Each is a count on an index (migration 0031 and
 * earlier); none reads a row per member into the process.
 */

const KINDS = [ROUTER_TYPE.hardware, ROUTER_TYPE.software];

const byType = (rows: { router_type: number; n: number | string | bigint }[]): ByMemberType => {
  const n = (type: number) => Number(rows.find((r) => r.router_type === type)?.n ?? 0);
  return { hardware: n(ROUTER_TYPE.hardware), software: n(ROUTER_TYPE.software) };
};

/** The tenant's networks, those of the scope's list when it has one. */
export async function countNetworks(db: Db, scope: StateScope): Promise<number> {
  const row = await db
    .selectFrom('network')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', scope.tenantId)
    .$if(scope.allowed !== null, (qb) => qb.where('network_number', 'in', scope.allowed!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The tenant's members in one state (core/memberStates.ts), by kind. */
export async function countInState(db: Db, scope: StateScope, state: MemberState): Promise<ByMemberType> {
  const rows = await db
    .selectFrom('member')
    .select(['member.router_type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('member.tenant_id', '=', scope.tenantId)
    // Both kinds named: each is a range of member_tenant_online (tenant, kind, online flag).
    .where('member.router_type', 'in', KINDS)
    .where((eb) => memberStateCondition(eb, state, scope))
    .groupBy('member.router_type')
    .execute();
  return byType(rows);
}

export const countOnline = (db: Db, scope: StateScope) => countInState(db, scope, MEMBER_STATE.online);

/** Monitoring alerts of the tenant raised at or after `since`. */
export async function countAlertsSince(db: Db, tenantId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('monitor_alert')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('create_time', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The tenant's sub-accounts. */
export async function countRamAccounts(db: Db, tenantId: number): Promise<number> {
  const row = await db.selectFrom('ram_account').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(row.n);
}
