import { M, type createRole, type editRole, type listRoles, type RoleAuth, type RoleDetail, type RoleItem } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { contains, offsetOf } from '../../core/paging';
import { formatTime } from '../../core/time';

type RoleListQuery = z.output<typeof listRoles.query>;
type CreateRole = z.output<typeof createRole.body>;
type EditRole = z.output<typeof editRole.body>;

/*
 * Roles of a tenant (spec 1 §2.11, §3). The contract has already normalised `auth` (view always on,
 * empty network numbers dropped, no network create with specified networks). Network numbers are kept
 * as given: networks arrive with a later area, which will check them against the tenant's networks.
 */

const toItem = (ctx: Ctx, r: { id: number; name: string; note: string; create_time: number; update_time: number }): RoleItem => ({
  id: r.id,
  name: r.name,
  note: r.note,
  create_time: formatTime(r.create_time, ctx.config.timezone),
  update_time: formatTime(r.update_time, ctx.config.timezone),
});

const roles = (ctx: Ctx, actor: Actor) => ctx.db.selectFrom('ram_role').where('tenant_id', '=', actor.tenantId);

export async function list(ctx: Ctx, actor: Actor, q: RoleListQuery): Promise<{ rows: RoleItem[]; count: number }> {
  const filtered = roles(ctx, actor).$if(!!q.search, (qb) => qb.where((eb) => contains(eb.ref('name'), q.search!)));
  const [rows, total] = await Promise.all([
    filtered
      .select(['id', 'name', 'note', 'create_time', 'update_time'])
      .orderBy('id', 'desc')
      .limit(q.limit)
      .offset(offsetOf(q.page, q.limit))
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => toItem(ctx, r)), count: Number(total.n) };
}

export async function info(ctx: Ctx, actor: Actor, id: number): Promise<RoleDetail> {
  const r = await roles(ctx, actor).selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound(M.roleNotFound);
  return { ...toItem(ctx, r), auth: JSON.parse(r.auth) as RoleAuth };
}

/** Every role of the tenant, by name, for the sub-account form. */
export async function select(ctx: Ctx, actor: Actor): Promise<{ id: number; name: string }[]> {
  return roles(ctx, actor).select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

export async function create(ctx: Ctx, actor: Actor, input: CreateRole): Promise<number> {
  const now = Date.now();
  const row = await ctx.db
    .insertInto('ram_role')
    .values({ tenant_id: actor.tenantId, name: input.name, note: input.note, auth: JSON.stringify(input.auth), create_time: now, update_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A changed role applies to its sub-accounts from their next call. */
export async function edit(ctx: Ctx, actor: Actor, input: EditRole): Promise<void> {
  const r = await ctx.db
    .updateTable('ram_role')
    .set({ name: input.name, note: input.note, auth: JSON.stringify(input.auth), update_time: Date.now() })
    .where('id', '=', input.id)
    .where('tenant_id', '=', actor.tenantId)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw notFound(M.roleNotFound);
}

/** Refused while a sub-account has the role: the tenant moves them to another role first. */
export async function remove(ctx: Ctx, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const role = await trx.selectFrom('ram_role').select('id').where('id', '=', id).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    if (!role) throw notFound(M.roleNotFound);
    const user = await trx.selectFrom('ram_account').select('id').where('role_id', '=', id).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    if (user) throw invalid(M.roleInUse);
    await trx.deleteFrom('ram_role').where('id', '=', id).where('tenant_id', '=', actor.tenantId).execute();
  });
}
