import type { OnlineLogItem, onlineLog, SoftwareLoginItem, softwareLoginLog } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { allowedNetworks } from '../../core/networks';
import { contains, pageOf } from '../../core/paging';
import { dayRange, formatTime } from '../../core/time';

// The member logs the device gateway writes (software sign-ins, p2p and POP sessions), read by the
// log pages and the member detail dialog. Newest first; dates are whole days of the tenant's zone.

type LoginQuery = z.output<typeof softwareLoginLog.query>;
type OnlineQuery = z.output<typeof onlineLog.query>;

/** [from, to) in epoch ms for the query's days, both included; either end may be open. */
const range = (ctx: Ctx, q: { start_time?: string; end_time?: string }) => dayRange(q.start_time, q.end_time, ctx.config.timezone);

/** Search matches the member's name, the address or the client's system. */
export async function softwareLogins(ctx: Ctx, actor: Actor, q: LoginQuery): Promise<{ rows: SoftwareLoginItem[]; count: number }> {
  const { from, to } = range(ctx, q);
  const filtered = ctx.db
    .selectFrom('software_login')
    .where('tenant_id', '=', actor.tenantId)
    .$if(!!q.router_name, (qb) => qb.where('router_name', '=', q.router_name!))
    .$if(from !== undefined, (qb) => qb.where('create_time', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('create_time', '<', to!))
    .$if(!!q.search, (qb) =>
      qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('router_name'), q.search!), contains(ctx.dialect, eb.ref('ip'), q.search!), contains(ctx.dialect, eb.ref('os'), q.search!)])),
    );
  const { rows, count } = await pageOf(filtered, q, (qb) =>
    qb.select(['router_name', 'ip', 'os', 'version', 'sys_brand', 'sys_model', 'sys_version', 'create_time']).orderBy('create_time', 'desc').orderBy('id', 'desc'),
  );
  return { rows: rows.map((r) => ({ ...r, create_time: formatTime(Number(r.create_time), ctx.config.timezone) })), count };
}

/**
 * p2p or POP sessions. A sub-account whose role lists networks sees the p2p sessions of those
 * networks only. Search matches the member, the peer (linked member or POP), the network and the
 * addresses.
 */
export async function onlineSessions(ctx: Ctx, actor: Actor, q: OnlineQuery): Promise<{ rows: OnlineLogItem[]; count: number }> {
  const { from, to } = range(ctx, q);
  const allowed = allowedNetworks(actor);
  const filtered = ctx.db
    .selectFrom('online_log')
    .where('tenant_id', '=', actor.tenantId)
    .where('mode', '=', q.mode)
    .$if(q.mode === 'p2p' && allowed !== null, (qb) => qb.where('network_number', 'in', allowed!))
    .$if(!!q.router_name, (qb) => qb.where('router_name', '=', q.router_name!))
    .$if(from !== undefined, (qb) => qb.where('start_time', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('start_time', '<', to!))
    .$if(!!q.search, (qb) =>
      qb.where((eb) =>
        eb.or(
          (['router_name', 'link_router_name', 'pop_name', 'network_number', 'orig', 'vpn_ip'] as const).map((c) => contains(ctx.dialect, eb.ref(c), q.search!)),
        ),
      ),
    );
  const tz = ctx.config.timezone;
  const now = Date.now();
  const { rows, count } = await pageOf(filtered, q, (qb) =>
    qb
      .select(['router_name', 'network_number', 'link_router_name', 'pop_name', 'area', 'orig', 'vpn_ip', 'start_time', 'end_time', 'online_time'])
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc'),
  );
  return {
    rows: rows.map((r) => ({
      ...r,
      start_time: formatTime(Number(r.start_time), tz),
      end_time: r.end_time === null ? '' : formatTime(Number(r.end_time), tz),
      // A session still up has lasted until now.
      online_time: r.end_time === null ? Math.max(0, Math.floor((now - Number(r.start_time)) / 1000)) : Number(r.online_time),
    })),
    count,
  };
}
