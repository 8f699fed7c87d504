import { DEVICE_CLOSE, M, type DeviceApprovalItem, type DeviceApprovalSetting, type listDeviceApprovals } from '@hublink/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { DEVICE_CHANNELS } from '../../domain/deviceChannels';
import { invalid, notFound } from '../../core/errors';
import { contains, pageOf } from '../../core/paging';
import { formatTime } from '../../core/time';

type ListQuery = z.output<typeof listDeviceApprovals.query>;

/*
 * Devices join by approval (issue 30): the tenant's setting and the decisions on its members' devices.
 * The device gateway records devices as they sign in (gateway/approval.ts) and applies the decisions at
 * their next hello; this module turns the setting on and off and approves or refuses. Every change is a
 * mutating call, so the audit trail records it (core/audit.ts).
 */

export async function getSetting(ctx: Ctx, actor: Actor): Promise<DeviceApprovalSetting> {
  const row = await ctx.db.selectFrom('device_approval_setting').select('enabled').where('tenant_id', '=', actor.tenantId).executeTakeFirst();
  return { enabled: row?.enabled === 1 ? 1 : 0 };
}

/** Turning approval on notes when (a member that signed in before and has no device recorded keeps its next one, see gateway/approval.ts). */
export async function saveSetting(ctx: Ctx, actor: Actor, enabled: 0 | 1): Promise<void> {
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('device_approval_setting').select(['id', 'enabled']).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    if (!row) {
      await trx
        .insertInto('device_approval_setting')
        .values({ tenant_id: actor.tenantId, enabled, enabled_time: enabled === 1 ? now : null, update_time: now })
        .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ enabled, update_time: now }))
        .execute();
      return;
    }
    if (row.enabled === enabled) return;
    await trx
      .updateTable('device_approval_setting')
      .set({ enabled, update_time: now, ...(enabled === 1 ? { enabled_time: now } : {}) })
      .where('id', '=', row.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  });
}

const columns = [
  'device_approval.id',
  'member.router_name',
  'member.router_type',
  'device_approval.ip',
  'device_approval.os',
  'device_approval.model',
  'device_approval.brand',
  'device_approval.state',
  'device_approval.first_time',
  'device_approval.last_time',
  'device_approval.decided_by',
  'device_approval.decided_time',
] as const;

const stateOf = (s: string): DeviceApprovalItem['state'] => (s === 'approved' ? 'approved' : s === 'refused' ? 'refused' : 'waiting');

/** The tenant's devices: waiting ones first, then the most recently seen. */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: DeviceApprovalItem[]; count: number }> {
  const filtered = ctx.db
    .selectFrom('device_approval')
    .innerJoin('member', (j) => j.onRef('member.id', '=', 'device_approval.member_id').onRef('member.tenant_id', '=', 'device_approval.tenant_id'))
    .where('device_approval.tenant_id', '=', actor.tenantId)
    .$if(q.state === 'waiting', (qb) => qb.where('device_approval.state', '=', 'waiting'))
    .$if(q.state === 'decided', (qb) => qb.where('device_approval.state', '<>', 'waiting'))
    .$if(!!q.search, (qb) =>
      qb.where((eb) =>
        eb.or([
          contains(ctx.dialect, eb.ref('member.router_name'), q.search!),
          contains(ctx.dialect, eb.ref('device_approval.ip'), q.search!),
          contains(ctx.dialect, eb.ref('device_approval.model'), q.search!),
        ]),
      ),
    );
  const { rows, count } = await pageOf(filtered, q, (qb) =>
    qb
      .select(columns)
      .orderBy(sql`case when device_approval.state = 'waiting' then 0 else 1 end`)
      .orderBy('device_approval.last_time', 'desc')
      .orderBy('device_approval.id', 'desc'),
  );
  const tz = ctx.config.timezone;
  return {
    count,
    rows: rows.map((r) => ({
      id: r.id,
      router_name: r.router_name,
      router_type: r.router_type,
      ip: r.ip,
      os: r.os,
      model: r.model,
      brand: r.brand,
      state: stateOf(r.state),
      first_time: formatTime(r.first_time, tz),
      last_time: formatTime(r.last_time, tz),
      decided_by: r.decided_by,
      decided_time: r.decided_time === null ? '' : formatTime(r.decided_time, tz),
    })),
  };
}

/** Who decides: a sub-account's or the main account's username, or a token's name. */
async function deciderOf(ctx: Ctx, actor: Actor): Promise<string> {
  if (actor.apiTokenId !== undefined) return actor.apiTokenName || `#${actor.apiTokenId}`;
  if (actor.ramId !== null) {
    const ram = await ctx.db.selectFrom('ram_account').select('username').where('id', '=', actor.ramId).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    return ram?.username ?? '';
  }
  const main = await ctx.db.selectFrom('account').select('username').where('id', '=', actor.tenantId).executeTakeFirst();
  return main?.username ?? '';
}

/**
 * Approves (a waiting or refused device) or refuses (a waiting or approved one): 204 for a device that
 * is not the tenant's, 422 when it is already so. A refused device that was approved may be online:
 * its member's session is closed (the gateway holds one session per member; an approved device of the
 * same member signs in again at once).
 */
export async function decide(ctx: Ctx, actor: Actor, id: number, state: 'approved' | 'refused'): Promise<void> {
  const by = await deciderOf(ctx, actor);
  const before = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('device_approval')
      .select(['id', 'state', 'member_id'])
      .where('id', '=', id)
      .where('tenant_id', '=', actor.tenantId)
      .executeTakeFirst();
    if (!row) throw notFound(M.deviceApprovalNotFound);
    if (row.state === state) throw invalid(state === 'approved' ? M.deviceAlreadyApproved : M.deviceAlreadyRefused);
    await trx
      .updateTable('device_approval')
      .set({ state, decided_by: by, decided_time: Date.now() })
      .where('id', '=', row.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
    return row;
  });
  if (state === 'refused' && before.state === 'approved') {
    await ctx.pubsub.publish(DEVICE_CHANNELS.deliver, { kind: 'close', member_id: before.member_id, code: DEVICE_CLOSE.deviceRefused, reason: 'the administrator refused this device' });
  }
}
