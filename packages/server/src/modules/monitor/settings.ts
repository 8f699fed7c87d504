import { fmt, LIMITS, M, ROUTER_TYPE, type MonitorConfig, type MonitorFlag, type MonitorRouter, type monitorSetting } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import type { Db } from '../../db/connect';
import type { MonitorConfigTable } from '../../db/types';

type Setting = z.output<typeof monitorSetting.body>;

/** A tenant's configuration before monitoring was first switched on: the defaults of migration 0022. */
const DEFAULTS = {
  enable: 0,
  portal_confirm: 1,
  email_confirm: 0,
  webhook_confirm: 0,
  router_online: 1,
  router_offline: 1,
  service_expired: 1,
  pop_connect: 0,
} as const;

const flag = (n: number): MonitorFlag => (n === 1 ? 1 : 0);

/** The configuration row of a tenant, or the defaults when it has none yet. */
export async function configRow(db: Db, tenantId: number): Promise<Omit<MonitorConfigTable, 'create_time' | 'update_time' | 'enable_time'> & { enable_time: number | null }> {
  const row = await db.selectFrom('monitor_config').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  return row ?? { tenant_id: tenantId, enable_time: null, ...DEFAULTS };
}

/** The monitored devices of a tenant, by name. */
async function monitoredRouters(db: Db, tenantId: number): Promise<MonitorRouter[]> {
  return db
    .selectFrom('monitor_router')
    .innerJoin('member', 'member.id', 'monitor_router.member_id')
    .select(['member.router_name', 'member.note'])
    .where('monitor_router.tenant_id', '=', tenantId)
    .where('member.tenant_id', '=', tenantId)
    .orderBy('member.router_name')
    .execute();
}

/** GET /monitor/config. */
export async function config(ctx: Ctx, actor: Actor): Promise<MonitorConfig> {
  const [row, router] = await Promise.all([configRow(ctx.db, actor.tenantId), monitoredRouters(ctx.db, actor.tenantId)]);
  return {
    enable: flag(row.enable),
    portal_confirm: 1,
    email_confirm: flag(row.email_confirm),
    webhook_confirm: flag(row.webhook_confirm),
    router_online: flag(row.router_online),
    router_offline: flag(row.router_offline),
    service_expired: flag(row.service_expired),
    pop_connect: flag(row.pop_connect),
    router,
  };
}

/** GET /monitor/routers: the tenant's hardware members, the devices monitoring can watch. */
export async function routers(ctx: Ctx, actor: Actor): Promise<MonitorRouter[]> {
  return ctx.db
    .selectFrom('member')
    .select(['router_name', 'note'])
    .where('tenant_id', '=', actor.tenantId)
    .where('router_type', '=', ROUTER_TYPE.hardware)
    .orderBy('router_name')
    .limit(LIMITS.monitorRoutersMax)
    .execute();
}

/** Writes a tenant's configuration row (created with the defaults when it has none). */
async function upsertConfig(trx: Db, tenantId: number, values: Partial<Omit<MonitorConfigTable, 'tenant_id' | 'create_time'>>) {
  const now = Date.now();
  await trx
    .insertInto('monitor_config')
    .values({ tenant_id: tenantId, ...DEFAULTS, enable_time: null, ...values, create_time: now, update_time: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, update_time: now }))
    .execute();
}

/** POST /monitor/enable: monitoring on; services that expired before now raise nothing. */
export async function enable(ctx: Ctx, actor: Actor): Promise<void> {
  const row = await configRow(ctx.db, actor.tenantId);
  if (row.enable === 1) return;
  await upsertConfig(ctx.db, actor.tenantId, { enable: 1, enable_time: Date.now() });
}

/**
 * POST /monitor/close: monitoring off. The configuration, devices, contacts and webhook stay for the
 * next time; what the engine knew of members' outages goes, so no recovery alert follows later.
 */
export async function close(ctx: Ctx, actor: Actor): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await upsertConfig(trx, actor.tenantId, { enable: 0 });
    await trx.deleteFrom('monitor_state').where('tenant_id', '=', actor.tenantId).execute();
  });
}

/** POST /monitor/setting (monitoring must be on). */
export async function save(ctx: Ctx, actor: Actor, input: Setting): Promise<void> {
  const tenantId = actor.tenantId;
  await ctx.db.transaction().execute(async (trx) => {
    const row = await configRow(trx, tenantId);
    if (row.enable !== 1) throw invalid(M.monitorNotEnabled);
    if (input.email_confirm === 1) {
      const account = await trx.selectFrom('account').select('email').where('id', '=', tenantId).executeTakeFirstOrThrow();
      if (!account.email) throw invalid(M.monitorBindEmailFirst);
    }
    if (input.webhook_confirm === 1) {
      const webhook = await trx.selectFrom('monitor_hook').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst();
      if (!webhook) throw invalid(M.monitorWebhookFirst);
    }
    const memberIds = await hardwareMemberIds(trx, tenantId, input.router);
    await upsertConfig(trx, tenantId, {
      portal_confirm: 1,
      email_confirm: input.email_confirm,
      webhook_confirm: input.webhook_confirm,
      router_online: input.router_online,
      router_offline: input.router_offline,
      service_expired: input.service_expired,
      pop_connect: input.pop_connect,
    });
    await trx.deleteFrom('monitor_router').where('tenant_id', '=', tenantId).execute();
    const now = Date.now();
    for (let i = 0; i < memberIds.length; i += 500) {
      await trx
        .insertInto('monitor_router')
        .values(memberIds.slice(i, i + 500).map((member_id) => ({ member_id, tenant_id: tenantId, create_time: now })))
        .execute();
    }
    // Members no longer watched leave the engine's state with their pending outages.
    let gone = trx.deleteFrom('monitor_state').where('tenant_id', '=', tenantId);
    if (memberIds.length > 0) gone = gone.where('member_id', 'not in', memberIds);
    await gone.execute();
  });
}

/** The ids of the named hardware members of the tenant; the first name that is not one is refused. */
async function hardwareMemberIds(trx: Db, tenantId: number, names: string[]): Promise<number[]> {
  const keys = [...new Set(names.map((n) => n.toLowerCase()))];
  const found = new Map<string, number>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await trx
      .selectFrom('member')
      .select(['id', 'router_key'])
      .where('tenant_id', '=', tenantId)
      .where('router_type', '=', ROUTER_TYPE.hardware)
      .where('router_key', 'in', keys.slice(i, i + 500))
      .execute();
    for (const r of rows) found.set(r.router_key, r.id);
  }
  const unknown = names.find((n) => !found.has(n.toLowerCase()));
  if (unknown !== undefined) throw invalid(fmt(M.monitorRouterUnknown, { name: unknown.slice(0, LIMITS.memberNameMax) }));
  return [...found.values()];
}
