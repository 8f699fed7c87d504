import { fmt, M, type createRole, type editRole, type listRoles, type RoleAuth, type RoleDetail, type RoleItem } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid, notFound } from '../../core/errors';
import { contains, pageOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';

type RoleListQuery = z.output<typeof listRoles.query>;
type CreateRole = z.output<typeof createRole.body>;
type EditRole = z.output<typeof editRole.body>;

/*
 * Roles of a tenant (spec 1 §2.11, §3). The contract has already normalised `auth` (view always on,
 * empty network numbers dropped, no network create with specified networks). Every network number
 * must name one of the tenant's networks; a number the role already had stays accepted after its
 * network was deleted (the role stays restricted, and saving it does not force widening it).
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
  const filtered = roles(ctx, actor).$if(!!q.search, (qb) => qb.where((eb) => contains(ctx.dialect, eb.ref('name'), q.search!)));
  const { rows, count } = await pageOf(filtered, q, (qb) => qb.select(['id', 'name', 'note', 'create_time', 'update_time']).orderBy('id', 'desc'));
  return { rows: rows.map((r) => toItem(ctx, r)), count };
}

/** The tenant's networks among these numbers, number → name. */
async function networkNames(db: Db, tenantId: number, numbers: string[]): Promise<Map<string, string>> {
  if (numbers.length === 0) return new Map();
  const rows = await db
    .selectFrom('network')
    .select(['network_number', 'network_name'])
    .where('tenant_id', '=', tenantId)
    .where('network_number', 'in', numbers)
    .execute();
  return new Map(rows.map((r) => [r.network_number, r.network_name]));
}

/** 422 naming the first number that is not one of the tenant's networks (nor kept from the stored role). */
async function ensureNetworks(db: Db, actor: Actor, auth: RoleAuth, kept: string[] = []): Promise<void> {
  const numbers = auth['easylink.network'].network;
  const names = await networkNames(db, actor.tenantId, numbers);
  const missing = numbers.find((n) => !names.has(n) && !kept.includes(n));
  if (missing !== undefined) throw invalid(fmt(M.roleNetworkMissing, { n: missing }));
}

export async function info(ctx: Ctx, actor: Actor, id: number): Promise<RoleDetail> {
  const r = await roles(ctx, actor).selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound(M.roleNotFound);
  const auth = JSON.parse(r.auth) as RoleAuth;
  const numbers = auth['easylink.network'].network;
  const names = await networkNames(ctx.db, actor.tenantId, numbers);
  return { ...toItem(ctx, r), auth, networks: numbers.map((n) => ({ network_number: n, network_name: names.get(n) ?? '' })) };
}

/** Every role of the tenant, by name, for the sub-account form. */
export async function select(ctx: Ctx, actor: Actor): Promise<{ id: number; name: string }[]> {
  return roles(ctx, actor).select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

/** 422 when another role of the tenant has this name, without regard to case. */
async function ensureNameFree(db: Db, actor: Actor, nameKey: string, exceptId?: number): Promise<void> {
  const other = await db
    .selectFrom('ram_role')
    .select('id')
    .where('tenant_id', '=', actor.tenantId)
    .where('name_key', '=', nameKey)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .executeTakeFirst();
  if (other) throw invalid(M.roleNameTaken);
}

/** Runs a write that sets a role's name; when the unique index refuses it (a race both checks passed), says so. */
async function withNameRule<T>(ctx: Ctx, actor: Actor, nameKey: string, write: () => Promise<T>, exceptId?: number): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    await ensureNameFree(ctx.db, actor, nameKey, exceptId);
    throw e;
  }
}

/** The name (trimmed by the contract) is unique in the tenant, case-insensitively, like sub-account names. */
export async function create(ctx: Ctx, actor: Actor, input: CreateRole): Promise<number> {
  const nameKey = input.name.toLowerCase();
  await ensureNetworks(ctx.db, actor, input.auth);
  await ensureNameFree(ctx.db, actor, nameKey);
  const now = Date.now();
  const row = await withNameRule(ctx, actor, nameKey, () =>
    ctx.db
      .insertInto('ram_role')
      .values({ tenant_id: actor.tenantId, name: input.name, name_key: nameKey, note: input.note, auth: JSON.stringify(input.auth), create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return row.id;
}

/** A changed role applies to its sub-accounts from their next call. */
export async function edit(ctx: Ctx, actor: Actor, input: EditRole): Promise<void> {
  const nameKey = input.name.toLowerCase();
  const stored = await roles(ctx, actor).select('auth').where('id', '=', input.id).executeTakeFirst();
  if (!stored) throw notFound(M.roleNotFound);
  await ensureNetworks(ctx.db, actor, input.auth, (JSON.parse(stored.auth) as RoleAuth)['easylink.network'].network);
  await ensureNameFree(ctx.db, actor, nameKey, input.id);
  const r = await withNameRule(
    ctx,
    actor,
    nameKey,
    () =>
      ctx.db
        .updateTable('ram_role')
        .set({ name: input.name, name_key: nameKey, note: input.note, auth: JSON.stringify(input.auth), update_time: Date.now() })
        .where('id', '=', input.id)
        .where('tenant_id', '=', actor.tenantId)
        .executeTakeFirst(),
    input.id,
  );
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
