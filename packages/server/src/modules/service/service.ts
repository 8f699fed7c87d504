import { grantServiceInput, M, type GrantServiceInput, type ServiceItem } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { pageOf } from '../../core/paging';
import { formatTime } from '../../core/time';

/** The tenant's services (spec 1 §2.10), newest first. Services are granted by the operator. */
export async function list(ctx: Ctx, actor: Actor, page: number, limit: number): Promise<{ rows: ServiceItem[]; count: number }> {
  const filtered = ctx.db.selectFrom('service').where('tenant_id', '=', actor.tenantId);
  const { rows, count } = await pageOf(filtered, { page, limit }, (qb) =>
    qb.select(['id', 'service_name', 'quantity', 'start_time', 'expired_time']).orderBy('start_time', 'desc').orderBy('id', 'desc'),
  );
  const tz = ctx.config.timezone;
  return {
    rows: rows.map((r) => ({ ...r, start_time: formatTime(r.start_time, tz), expired_time: formatTime(r.expired_time, tz) })),
    count,
  };
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
