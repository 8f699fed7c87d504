import { grantServiceInput, M, type GrantServiceInput, type ServiceItem } from '@hublink/contract';
import type { SelectQueryBuilder } from 'kysely';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { pageOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import type { Database } from '../../db/types';

const newestFirst = (qb: SelectQueryBuilder<Database, 'service', object>) =>
  qb.select(['id', 'service_name', 'quantity', 'start_time', 'expired_time']).orderBy('start_time', 'desc').orderBy('id', 'desc');

const shown = (ctx: Ctx, r: { id: number; service_name: string; quantity: number; start_time: number; expired_time: number }): ServiceItem => ({
  ...r,
  start_time: formatTime(r.start_time, ctx.config.timezone),
  expired_time: formatTime(r.expired_time, ctx.config.timezone),
});

/** The tenant's services (spec 1 §2.10), newest first. Services are granted by the operator. */
export async function list(ctx: Ctx, actor: Actor, page: number, limit: number): Promise<{ rows: ServiceItem[]; count: number }> {
  const filtered = ctx.db.selectFrom('service').where('tenant_id', '=', actor.tenantId);
  const { rows, count } = await pageOf(filtered, { page, limit }, newestFirst);
  return { rows: rows.map((r) => shown(ctx, r)), count };
}

/** The first `limit` services of a tenant as its console lists them (operator CLI). */
export async function tenantServices(ctx: Ctx, tenantId: number, limit: number): Promise<ServiceItem[]> {
  const rows = await newestFirst(ctx.db.selectFrom('service').where('tenant_id', '=', tenantId)).limit(limit).execute();
  return rows.map((r) => shown(ctx, r));
}

/** Grants a tenant a service (operator CLI). Answers the new service's id. */
export async function grant(ctx: Ctx, tenantId: number, input: GrantServiceInput): Promise<number> {
  const parsed = grantServiceInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? M.validationFailed);
  const tenant = await ctx.db.selectFrom('account').select('id').where('id', '=', tenantId).executeTakeFirst();
  if (!tenant) throw notFound(M.accountNotFound);
  const row = await ctx.db
    .insertInto('service')
    .values({ tenant_id: tenantId, ...parsed.data, create_time: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Takes a service away from a tenant (operator CLI); false when the tenant has no service of that id. */
export async function revoke(ctx: Ctx, tenantId: number, serviceId: number): Promise<boolean> {
  const res = await ctx.db.deleteFrom('service').where('id', '=', serviceId).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
