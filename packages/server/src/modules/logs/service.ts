import type { ConnectLogItem, connectLog, ConnectSessionItem, OnlineLogItem, onlineLog, SoftwareLoginItem, softwareLoginLog } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { allowedNetworks } from '../../core/networks';
import { contains, pageOf } from '../../core/paging';
import { dayRange, formatTime } from '../../core/time';

// The member logs the device gateway writes (software sign-ins, p2p and POP sessions, device
// connections), read by the log pages, their exports and the member detail dialog. Newest first;
// dates are whole days of the tenant's zone.

type LoginQuery = z.output<typeof softwareLoginLog.query>;
type OnlineQuery = z.output<typeof onlineLog.query>;
type ConnectQuery = z.output<typeof connectLog.query>;
type Days = { start_time?: string | undefined; end_time?: string | undefined };

/** [from, to) in epoch ms for the query's days, both included; either end may be open. */
const range = (ctx: Ctx, q: Days) => dayRange(q.start_time, q.end_time, ctx.config.timezone);

/** Search matches the member's name, the address or the client's system. */
export function softwareLoginRows(ctx: Ctx, actor: Actor, q: Omit<LoginQuery, 'page' | 'limit'>) {
  const { from, to } = range(ctx, q);
  return ctx.db
    .selectFrom('software_login')
    .where('tenant_id', '=', actor.tenantId)
    .$if(!!q.router_name, (qb) => qb.where('router_name', '=', q.router_name!))
    .$if(from !== undefined, (qb) => qb.where('create_time', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('create_time', '<', to!))
    .$if(!!q.search, (qb) =>
      qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('router_name'), q.search!), contains(ctx.dialect, eb.ref('ip'), q.search!), contains(ctx.dialect, eb.ref('os'), q.search!)])),
    );
}

export const softwareLoginColumns = ['router_name', 'ip', 'os', 'version', 'sys_brand', 'sys_model', 'sys_version', 'create_time'] as const;

export const toSoftwareLogin = (ctx: Ctx, r: Omit<SoftwareLoginItem, 'create_time'> & { create_time: number | string }): SoftwareLoginItem => ({
  ...r,
  create_time: formatTime(Number(r.create_time), ctx.config.timezone),
});

export async function softwareLogins(ctx: Ctx, actor: Actor, q: LoginQuery): Promise<{ rows: SoftwareLoginItem[]; count: number }> {
  const { rows, count } = await pageOf(softwareLoginRows(ctx, actor, q), q, (qb) => qb.select(softwareLoginColumns).orderBy('create_time', 'desc').orderBy('id', 'desc'));
  return { rows: rows.map((r) => toSoftwareLogin(ctx, r)), count };
}

/**
 * p2p or POP sessions. A sub-account whose role lists networks sees the p2p sessions of those
 * networks only. Search matches the member, the peer (linked member or POP), the network and the
 * addresses.
 */
export function onlineRows(ctx: Ctx, actor: Actor, q: Omit<OnlineQuery, 'page' | 'limit'>) {
  const { from, to } = range(ctx, q);
  const allowed = allowedNetworks(actor);
  return ctx.db
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
}

export const onlineColumns = ['router_name', 'network_number', 'link_router_name', 'pop_name', 'area', 'orig', 'vpn_ip', 'start_time', 'end_time', 'online_time'] as const;

type OnlineRow = Omit<OnlineLogItem, 'start_time' | 'end_time' | 'online_time'> & {
  start_time: number | string;
  end_time: number | string | null;
  online_time: number | string;
};

export const toOnline = (ctx: Ctx, r: OnlineRow, now: number): OnlineLogItem => ({
  ...r,
  start_time: formatTime(Number(r.start_time), ctx.config.timezone),
  end_time: r.end_time === null ? '' : formatTime(Number(r.end_time), ctx.config.timezone),
  // A session still up has lasted until now.
  online_time: r.end_time === null ? Math.max(0, Math.floor((now - Number(r.start_time)) / 1000)) : Number(r.online_time),
});

export async function onlineSessions(ctx: Ctx, actor: Actor, q: OnlineQuery): Promise<{ rows: OnlineLogItem[]; count: number }> {
  const now = Date.now();
  const { rows, count } = await pageOf(onlineRows(ctx, actor, q), q, (qb) => qb.select(onlineColumns).orderBy('start_time', 'desc').orderBy('id', 'desc'));
  return { rows: rows.map((r) => toOnline(ctx, r, now)), count };
}

/**
 * Device connections: one row when a session began (online 1), one when it ended (online 0). Search
 * is the member's name. Every caller of the tenant sees every member's rows, as the member list
 * shows every member whatever the role's networks (a connection belongs to no network).
 */
export function connectRows(ctx: Ctx, actor: Actor, q: Omit<ConnectQuery, 'page' | 'limit'>) {
  const { from, to } = range(ctx, q);
  return ctx.db
    .selectFrom('connect_log')
    .where('tenant_id', '=', actor.tenantId)
    .$if(from !== undefined, (qb) => qb.where('create_time', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('create_time', '<', to!))
    .$if(!!q.search, (qb) => qb.where((eb) => contains(ctx.dialect, eb.ref('router_name'), q.search!)));
}

export const connectColumns = ['router_name', 'remote_ip', 'remote_port', 'version', 'online', 'create_time'] as const;

export const toConnect = (ctx: Ctx, r: Omit<ConnectLogItem, 'create_time'> & { create_time: number | string }): ConnectLogItem => ({
  ...r,
  remote_port: Number(r.remote_port),
  online: Number(r.online),
  create_time: formatTime(Number(r.create_time), ctx.config.timezone),
});

export async function connections(ctx: Ctx, actor: Actor, q: ConnectQuery): Promise<{ rows: (ConnectLogItem | ConnectSessionItem)[]; count: number }> {
  if (q.mode !== undefined) return connectSessions(ctx, actor, { ...q, mode: q.mode });
  const { rows, count } = await pageOf(connectRows(ctx, actor, q), q, (qb) => qb.select(connectColumns).orderBy('create_time', 'desc').orderBy('id', 'desc'));
  return { rows: rows.map((r) => toConnect(ctx, r)), count };
}

type SessionQuery = Omit<ConnectQuery, 'page' | 'limit' | 'mode'> & { mode: 'p2p' | 'pop' };

/**
 * The connection log's variant (spec 3 §3): p2p or POP sessions, each with the device connection that
 * carried it (the connect_log row of its session that went up). Search is the member's name, as the
 * connection log's; a sub-account whose role lists networks sees the p2p sessions of those networks only.
 */
export function connectSessionRows(ctx: Ctx, actor: Actor, q: SessionQuery) {
  const { from, to } = range(ctx, q);
  const allowed = allowedNetworks(actor);
  return ctx.db
    .selectFrom('online_log as o')
    .leftJoin('connect_log as c', (j) => j.onRef('c.session_id', '=', 'o.session_id').onRef('c.tenant_id', '=', 'o.tenant_id').on('c.online', '=', 1).on('o.session_id', '!=', ''))
    .where('o.tenant_id', '=', actor.tenantId)
    .where('o.mode', '=', q.mode)
    .$if(q.mode === 'p2p' && allowed !== null, (qb) => qb.where('o.network_number', 'in', allowed!))
    .$if(from !== undefined, (qb) => qb.where('o.start_time', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('o.start_time', '<', to!))
    .$if(!!q.search, (qb) => qb.where((eb) => contains(ctx.dialect, eb.ref('o.router_name'), q.search!)));
}

export const connectSessionColumns = [
  ...onlineColumns.map((c) => `o.${c}` as const),
  'c.remote_ip',
  'c.remote_port',
  'c.version',
] as const;

type SessionRow = OnlineRow & { remote_ip: string | null; remote_port: number | string | null; version: string | null };

export const toConnectSession = (ctx: Ctx, r: SessionRow, now: number): ConnectSessionItem => {
  const { remote_ip, remote_port, version, ...session } = r;
  const s = toOnline(ctx, session, now);
  return { ...s, remote_ip: remote_ip ?? '', remote_port: Number(remote_port ?? 0), version: version ?? '', online: s.end_time === '' ? 1 : 0, create_time: s.start_time };
};

async function connectSessions(ctx: Ctx, actor: Actor, q: ConnectQuery & { mode: 'p2p' | 'pop' }): Promise<{ rows: ConnectSessionItem[]; count: number }> {
  const now = Date.now();
  const { rows, count } = await pageOf(connectSessionRows(ctx, actor, q), q, (qb) => qb.select(connectSessionColumns).orderBy('o.start_time', 'desc').orderBy('o.id', 'desc'));
  return { rows: rows.map((r) => toConnectSession(ctx, r, now)), count };
}
