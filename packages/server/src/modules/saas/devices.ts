import { M, ROUTER_TYPE, SAAS_SHARED, saasBandwidthError, type SaasDetail, type SaasGroup, type SaasItem } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { contains } from '../../core/paging';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';

// SaaS devices of a tenant (spec 3 "SaaS devices"): hardware members with a saas_device row.

const DEVICE_COLUMNS = [
  'member.id',
  'member.router_name',
  'member.note',
  'member.online_status',
  'member.online_time',
  'member.router_model',
  'member.router_ipv4',
  'member.router_mac',
  'member.version',
  'member.traffic_in',
  'member.traffic_out',
  'saas_device.category',
  'saas_device.share',
  'saas_device.bandwidth',
  'saas_device.max_bandwidth',
  'saas_device.expire_time',
  'saas_device.temp_bandwidth',
  'saas_device.temp_start_time',
  'saas_device.temp_expire_time',
  'saas_device.ip',
] as const;

/** The tenant's SaaS devices: both tables scoped by the tenant. */
function devicesOf(db: Db, tenantId: number) {
  return db
    .selectFrom('saas_device')
    .innerJoin('member', 'member.id', 'saas_device.member_id')
    .where('saas_device.tenant_id', '=', tenantId)
    .where('member.tenant_id', '=', tenantId)
    .where('member.router_type', '=', ROUTER_TYPE.hardware);
}

/** The tenant's device of this name (any case), or 204. */
export async function findDevice(ctx: Ctx, actor: Actor, name: string) {
  const d = await devicesOf(ctx.db, actor.tenantId).select(DEVICE_COLUMNS).where('member.router_key', '=', name.trim().toLowerCase()).executeTakeFirst();
  if (!d) throw notFound(M.saasDeviceNotFound);
  return d;
}

/**
 * Any hardware member of the tenant of this name (any case), a SaaS device or not, or 204: the
 * records and charts it reported are the same for both, and the router detail's second view reads them.
 */
export async function findHardware(ctx: Ctx, actor: Actor, name: string) {
  const m = await ctx.db
    .selectFrom('member')
    .select(['id', 'router_name'])
    .where('tenant_id', '=', actor.tenantId)
    .where('router_type', '=', ROUTER_TYPE.hardware)
    .where('router_key', '=', name.trim().toLowerCase())
    .executeTakeFirst();
  if (!m) throw notFound(M.saasDeviceNotFound);
  return m;
}

type DeviceRow = Awaited<ReturnType<typeof findDevice>>;

const toItem = (d: DeviceRow): SaasItem => ({
  router_name: d.router_name,
  note: d.note,
  online: d.online_status === 1 ? 1 : 0,
  bandwidth: d.bandwidth,
  max_bandwidth: d.max_bandwidth,
  share: d.share,
});

/** The devices grouped by category, categories in name order and the uncategorised ('') last; only non-empty groups. */
export async function list(ctx: Ctx, actor: Actor, search: string | undefined): Promise<SaasGroup[]> {
  const text = search?.toLowerCase();
  const rows = await devicesOf(ctx.db, actor.tenantId)
    .select(DEVICE_COLUMNS)
    .$if(!!text, (qb) => qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('member.router_key'), text!), contains(ctx.dialect, eb.ref('member.note'), text!)])))
    .orderBy('saas_device.category')
    .orderBy('member.router_key')
    .execute();
  const groups = new Map<string, SaasItem[]>();
  for (const r of rows) {
    const g = groups.get(r.category) ?? [];
    g.push(toItem(r));
    groups.set(r.category, g);
  }
  return [...groups]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a < b ? -1 : a > b ? 1 : 0))
    .map(([category, items]) => ({ category, list: items }));
}

/** A JSON list of strings as stored, or [] for anything else. */
export function addressesOf(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export async function info(ctx: Ctx, actor: Actor, name: string): Promise<SaasDetail> {
  const d = await findDevice(ctx, actor, name);
  const tz = ctx.config.timezone;
  const time = (ms: number | null) => (ms === null ? '' : formatTime(Number(ms), tz));
  return {
    ...toItem(d),
    category: d.category,
    expire_date: time(d.expire_time),
    temp_bandwidth: d.temp_bandwidth,
    temp_start_date: time(d.temp_start_time),
    temp_expire_date: time(d.temp_expire_time),
    ip: addressesOf(d.ip),
    router_model: d.router_model,
    router_ipv4: d.router_ipv4,
    router_mac: d.router_mac,
    version: d.version,
    input: Number(d.traffic_in),
    out: Number(d.traffic_out),
    online_time: d.online_status === 1 ? time(d.online_time) : '',
  };
}

/** Spec 3 §5, §6: only a shared-edition device, above 0 and at most its max_bandwidth. */
export async function setBandwidth(ctx: Ctx, actor: Actor, name: string, bandwidth: number) {
  const d = await findDevice(ctx, actor, name);
  if (d.share !== SAAS_SHARED) throw invalid(M.saasBandwidthNotShared);
  const refused = saasBandwidthError(bandwidth, d.max_bandwidth);
  if (refused) throw invalid(refused);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('saas_device')
      .set({ bandwidth, update_time: Date.now() })
      .where('member_id', '=', d.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
    // The device's configuration follows its bandwidth (the compiler and the gateway listen).
    await ctx.events.emit(trx, { type: 'member.changed', tenant_id: actor.tenantId, member_id: d.id, fields: ['bandwidth'] });
  });
}
