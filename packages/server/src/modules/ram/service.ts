import { M, type createRam, type editRam, type listRam, type RamItem, type ramLog, type RamLogItem } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid, notFound } from '../../core/errors';
import { contains, pageOf } from '../../core/paging';
import { hashPassword, verifyPassword } from '../../core/passwords';
import { planOf } from '../../domain/plan';
import { revokeSessions } from '../../core/sessions';
import { lockTenant } from '../../core/tenantLock';
import { dayRange, formatTime } from '../../core/time';
import type { Db } from '../../db/connect';

/** A sub-account changes its own password; every session of it ends (spec 1 §4). */
export async function changeOwnPassword(ctx: Ctx, actor: Actor, oldPassword: string, password: string) {
  if (actor.ramId === null) throw invalid(M.ramPasswordOnly);
  const ram = await ctx.db
    .selectFrom('ram_account')
    .select('password_hash')
    .where('id', '=', actor.ramId)
    .where('tenant_id', '=', actor.tenantId)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(oldPassword, ram.password_hash))) throw invalid(M.oldPasswordWrong);
  await ctx.db
    .updateTable('ram_account')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', actor.ramId)
    .where('tenant_id', '=', actor.tenantId)
    .execute();
  await revokeSessions(ctx.db, { tenantId: actor.tenantId, ramId: actor.ramId });
}

// ---- the main account manages its sub-accounts (spec 1 §2.11, §7) ----

type RamListQuery = z.output<typeof listRam.query>;
type RamLogQuery = z.output<typeof ramLog.query>;
type CreateRam = z.output<typeof createRam.body>;
type EditRam = z.output<typeof editRam.body>;

/** Sub-accounts of the tenant with their role's name, newest first. */
function ramRows(ctx: Ctx, tenantId: number) {
  return ctx.db
    .selectFrom('ram_account')
    .innerJoin('ram_role', 'ram_role.id', 'ram_account.role_id')
    .where('ram_account.tenant_id', '=', tenantId);
}

const toItem = (ctx: Ctx, r: { id: number; username: string; nickname: string; role_id: number; role_name: string; create_time: number; login_time: number | null }): RamItem => ({
  id: r.id,
  username: r.username,
  nickname: r.nickname,
  role_id: r.role_id,
  role_name: r.role_name,
  create_time: formatTime(r.create_time, ctx.config.timezone),
  login_time: r.login_time === null ? null : formatTime(r.login_time, ctx.config.timezone),
});

const ITEM_COLUMNS = [
  'ram_account.id',
  'ram_account.username',
  'ram_account.nickname',
  'ram_account.role_id',
  'ram_role.name as role_name',
  'ram_account.create_time',
  'ram_account.login_time',
] as const;

export async function domainOf(ctx: Ctx, actor: Actor): Promise<{ domain: string }> {
  const a = await ctx.db.selectFrom('account').select('domain').where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
  return { domain: a.domain };
}

export async function quantity(ctx: Ctx, actor: Actor, db: Db = ctx.db): Promise<{ count: number; max: number }> {
  const [plan, used] = await Promise.all([
    planOf(db, actor.tenantId),
    db.selectFrom('ram_account').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', actor.tenantId).executeTakeFirstOrThrow(),
  ]);
  return { count: Number(used.n), max: plan.ram_quantity };
}

/** Search matches the username or the nickname; a sign-in name 'name@domain' searches by its name. */
export async function list(ctx: Ctx, actor: Actor, q: RamListQuery): Promise<{ rows: RamItem[]; count: number }> {
  const { domain } = await domainOf(ctx, actor);
  const suffix = `@${domain}`;
  const text = q.search?.toLowerCase().endsWith(suffix) ? q.search.slice(0, -suffix.length) : q.search;
  const filtered = ramRows(ctx, actor.tenantId).$if(!!text, (qb) =>
    qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('ram_account.username'), text!), contains(ctx.dialect, eb.ref('ram_account.nickname'), text!)])),
  );
  const { rows, count } = await pageOf(filtered, q, (qb) => qb.select(ITEM_COLUMNS).orderBy('ram_account.id', 'desc'));
  return { rows: rows.map((r) => toItem(ctx, r)), count };
}

export async function info(ctx: Ctx, actor: Actor, id: number): Promise<RamItem> {
  const r = await ramRows(ctx, actor.tenantId).select(ITEM_COLUMNS).where('ram_account.id', '=', id).executeTakeFirst();
  if (!r) throw notFound(M.ramNotFound);
  return toItem(ctx, r);
}

/** The role must be one of the tenant's own. */
async function ensureRole(db: Db, actor: Actor, roleId: number) {
  const role = await db.selectFrom('ram_role').select('id').where('id', '=', roleId).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
  if (!role) throw invalid(M.ramRoleMissing);
}

/** Creates a sub-account within the tenant's quota; its username is unique in the tenant, case-insensitively. */
export async function create(ctx: Ctx, actor: Actor, input: CreateRam): Promise<number> {
  const key = input.username.toLowerCase();
  const passwordHash = await hashPassword(input.password);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // Two creates racing for the last place.
      await lockTenant(ctx, trx, actor.tenantId);
      await ensureRole(trx, actor, input.role_id);
      const taken = await trx.selectFrom('ram_account').select('id').where('tenant_id', '=', actor.tenantId).where('username_key', '=', key).executeTakeFirst();
      if (taken) throw invalid(M.ramUsernameTaken);
      const q = await quantity(ctx, actor, trx);
      if (q.count >= q.max) throw invalid(M.ramQuotaFull);
      const row = await trx
        .insertInto('ram_account')
        .values({
          tenant_id: actor.tenantId,
          username: input.username,
          username_key: key,
          nickname: input.nickname,
          role_id: input.role_id,
          password_hash: passwordHash,
          status: 1,
          create_time: Date.now(),
          login_time: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    // The unique index decided a race on the username.
    const winner = await ctx.db.selectFrom('ram_account').select('id').where('tenant_id', '=', actor.tenantId).where('username_key', '=', key).executeTakeFirst();
    if (winner) throw invalid(M.ramUsernameTaken);
    throw e;
  }
}

/** Changes nickname, role and (when given) password; a new password ends the sub-account's sessions. */
export async function edit(ctx: Ctx, actor: Actor, input: EditRam): Promise<void> {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  await ctx.db.transaction().execute(async (trx) => {
    const ram = await trx.selectFrom('ram_account').select('id').where('id', '=', input.id).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    if (!ram) throw notFound(M.ramNotFound);
    await ensureRole(trx, actor, input.role_id);
    await trx
      .updateTable('ram_account')
      .set({ nickname: input.nickname, role_id: input.role_id, ...(passwordHash ? { password_hash: passwordHash } : {}) })
      .where('id', '=', input.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
    if (passwordHash) await revokeSessions(trx, { tenantId: actor.tenantId, ramId: input.id });
  });
}

/** Deletes a sub-account; its sessions go with it (session.ram_id cascades), its operation log stays. */
export async function remove(ctx: Ctx, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const ram = await trx.selectFrom('ram_account').select('id').where('id', '=', id).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    if (!ram) throw notFound(M.ramNotFound);
    await trx.deleteFrom('ram_account').where('id', '=', id).where('tenant_id', '=', actor.tenantId).execute();
  });
}

/** A sub-account's operation log, newest first, between two whole days (both included) of the tenant's time zone. */
export async function log(ctx: Ctx, actor: Actor, q: RamLogQuery): Promise<{ rows: RamLogItem[]; count: number }> {
  const ram = await ctx.db.selectFrom('ram_account').select('id').where('id', '=', q.ram_id).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
  if (!ram) throw notFound(M.ramNotFound);
  const tz = ctx.config.timezone;
  const days = dayRange(q.start_time, q.end_time, tz);
  const filtered = ctx.db
    .selectFrom('ram_log')
    .where('tenant_id', '=', actor.tenantId)
    .where('ram_id', '=', q.ram_id)
    .$if(days.from !== undefined, (qb) => qb.where('create_time', '>=', days.from!))
    .$if(days.to !== undefined, (qb) => qb.where('create_time', '<', days.to!));
  const { rows, count } = await pageOf(filtered, q, (qb) => qb.select(['id', 'mode', 'action', 'message', 'create_time']).orderBy('create_time', 'desc').orderBy('id', 'desc'));
  return { rows: rows.map((r) => ({ ...r, create_time: formatTime(r.create_time, tz) })), count };
}
