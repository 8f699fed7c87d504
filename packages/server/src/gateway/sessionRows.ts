import { sql } from 'kysely';
import type { HelloMessage } from '@hublink/contract';
import type { Ctx } from '../core/context';
import type { Db } from '../db/connect';
import type { DeviceMember } from './auth';
import { recordEnds, type SessionEndSeen } from './diagnosisRows';
import { clientsEnded, logConnect, withOpenSessions, type ClientMember } from './onlineLog';

/*
 * The rows a session writes when it begins and ends. Its begin: the device_session row, the connect-log
 * row (online 1), the member's online flag and what the hello said, and for an app its login record,
 * in one transaction. Its end: the device_session row goes and, only if this call removed it, the
 * connect-log row (online 0) is written, the member's open online-log rows and links close, and the
 * member is offline unless another session of it is open: so an end written twice (the instance and
 * a sweeper racing after a crash) leaves one row.
 */

export interface SessionBegin {
  id: string;
  member: DeviceMember;
  instance: string;
  remoteIp: string;
  remotePort: number;
  hello: HelloMessage;
  now: number;
}

/** Whether the member is a center of any of its networks. */
async function isCenter(db: Db, member: { id: number; tenant_id: number }): Promise<boolean> {
  const row = await db.selectFrom('network_member').select('id').where('member_id', '=', member.id).where('tenant_id', '=', member.tenant_id).where('member_type', '=', 'center').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function beginSession(ctx: Ctx, s: SessionBegin): Promise<void> {
  const h = s.hello;
  await ctx.db.transaction().execute(async (trx) => {
    // Online only if no other session of the member is open (a second device under the same name, or a standard client).
    const other =
      (await trx.selectFrom('device_session').select('id').where('member_id', '=', s.member.id).limit(1).executeTakeFirst()) ??
      (h.kind === 'app' && (await withOpenSessions(trx, [s.member])).size > 0 ? { id: '' } : undefined);
    const before = h.kind === 'router' ? await trx.selectFrom('member').select('router_ipv4').where('id', '=', s.member.id).where('tenant_id', '=', s.member.tenant_id).executeTakeFirst() : undefined;
    await trx
      .insertInto('device_session')
      .values({ id: s.id, tenant_id: s.member.tenant_id, member_id: s.member.id, router_name: s.member.router_name, instance: s.instance, remote_ip: s.remoteIp, remote_port: s.remotePort, version: h.version, start_time: s.now })
      .execute();
    await trx
      .insertInto('connect_log')
      .values({ tenant_id: s.member.tenant_id, member_id: s.member.id, router_name: s.member.router_name, remote_ip: s.remoteIp, remote_port: s.remotePort, version: h.version, online: 1, session_id: s.id, create_time: s.now })
      .execute();
    await trx
      .updateTable('member')
      .set({
        online_status: 1,
        online_time: s.now,
        version: h.version,
        os: h.os,
        interfaces: JSON.stringify(h.interfaces),
        ...(h.kind === 'router' ? { router_model: h.router_model, router_mac: h.router_mac, router_ipv4: h.router_ipv4 } : {}),
      })
      .where('id', '=', s.member.id)
      .where('tenant_id', '=', s.member.tenant_id)
      .execute();
    if (h.kind === 'app') {
      await trx
        .insertInto('software_login')
        .values({ tenant_id: s.member.tenant_id, router_name: s.member.router_name, ip: s.remoteIp, os: h.os, version: h.version, sys_brand: h.sys_brand, sys_model: h.sys_model, sys_version: h.sys_version, create_time: s.now })
        .execute();
    }
    if (!other) await ctx.events.emit(trx, { type: 'member.online', tenant_id: s.member.tenant_id, member_id: s.member.id, at: s.now });
    // A center dialled at the address it reports moved: its points' configurations must follow (compiler).
    // A point's address is dialled by no one: points behind dynamic addresses reconnecting by the
    // thousand made as many compiler deliveries, and one tenant's deliveries run in order, so a change
    // of its networks waited behind them.
    if (h.kind === 'router' && h.router_ipv4 && before && before.router_ipv4 !== h.router_ipv4 && (await isCenter(trx, s.member))) {
      await ctx.events.emit(trx, { type: 'member.changed', tenant_id: s.member.tenant_id, member_id: s.member.id, fields: ['router_ipv4'] });
    }
  });
}

/** What writing a session's end needs: the database, and the events to say a member went offline. */
export type SessionCtx = Pick<Ctx, 'db' | 'events'>;

/** Ends a session (see above); returns whether this call ended it. `at` is when it ended. */
export async function endSession(ctx: SessionCtx, sessionId: string, at: number): Promise<boolean> {
  return (await endSessions(ctx, [{ id: sessionId, at }])).length === 1;
}

/**
 * Ends many sessions in one transaction (a shutdown, a mass disconnect); returns the ids this call
 * ended. A member left without an open session is offline (member.offline, dated at its last end).
 */
export async function endSessions(ctx: SessionCtx, ends: readonly { id: string; at: number }[]): Promise<string[]> {
  if (ends.length === 0) return [];
  const atOf = new Map(ends.map((e) => [e.id, e.at]));
  return ctx.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('device_session').selectAll().where('id', 'in', [...atOf.keys()]).execute();
    if (rows.length === 0) return [];
    const gone = new Set((await trx.deleteFrom('device_session').where('id', 'in', rows.map((r) => r.id)).returning('id').execute()).map((g) => g.id));
    const ended = rows.filter((r) => gone.has(r.id));
    if (ended.length === 0) return [];
    await trx
      .insertInto('connect_log')
      .values(ended.map((r) => ({ tenant_id: r.tenant_id, member_id: r.member_id, router_name: r.router_name, remote_ip: r.remote_ip, remote_port: r.remote_port, version: r.version, online: 0, session_id: r.id, create_time: atOf.get(r.id)! })))
      .execute();
    // Standard clients' sessions a center wrote for their members: they end with the center's session.
    const clientRows = (
      await trx
        .selectFrom('online_log')
        .select(['session_id', 'device_key', 'tenant_id', 'router_name', 'orig'])
        .where('session_id', 'in', ended.map((r) => r.id))
        .where('end_time', 'is', null)
        .execute()
    ).filter((row) => row.router_name !== ended.find((r) => r.id === row.session_id)?.router_name);
    for (const r of ended) {
      const at = atOf.get(r.id)!;
      await trx
        .updateTable('online_log')
        .set({ end_time: at, online_time: sql<number>`(${at} - start_time) / 1000` })
        .where('session_id', '=', r.id)
        // Always true (device_key is never null): it makes SQLite's planner take online_log_session rather
        // than the tenant's time index, which scanned every online-log row of the tenant per ended session.
        .where('device_key', '>=', '')
        // `+` (the same conditions, which no index may serve): PostgreSQL without fresh statistics took the
        // tenant's index of open rows for them, 17,000 rows a session when a restart swept 10,000 (9 ms
        // an update; 0.2 ms by the session's index; onlineLog.ts alike).
        .where(sql<number>`+tenant_id`, '=', r.tenant_id)
        .where(sql<number | null>`+end_time`, 'is', null)
        .execute();
    }
    await endClientRows(trx, ctx.events, clientRows, atOf);
    const memberIds = [...new Set(ended.map((r) => r.member_id))];
    const still = new Set((await trx.selectFrom('device_session').select('member_id').where('member_id', 'in', memberIds).execute()).map((r) => r.member_id));
    // A member whose standard client is still connected stays online when its agent's session ends.
    for (const id of await withOpenSessions(trx, ended.map((r) => ({ id: r.member_id, tenant_id: r.tenant_id, router_name: r.router_name })))) still.add(id);
    const offline = ended.filter((r) => !still.has(r.member_id));
    if (offline.length > 0) {
      const ids = [...new Set(offline.map((r) => r.member_id))];
      await trx.updateTable('member').set({ online_status: 0 }).where('id', 'in', ids).execute();
      // Through the members' networks: member_link is indexed by network first (a member leaving a network loses its rows there).
      await trx
        .updateTable('member_link')
        .set({ vpn_online: 0, update_time: Math.max(...offline.map((r) => atOf.get(r.id)!)) })
        .where('network_id', 'in', (eb) => eb.selectFrom('network_member').select('network_id').where('member_id', 'in', ids))
        .where('member_id', 'in', ids)
        .where('vpn_online', '=', 1)
        .execute();
      const lastEnd = new Map<number, { tenant_id: number; at: number }>();
      for (const r of offline) lastEnd.set(r.member_id, { tenant_id: r.tenant_id, at: Math.max(atOf.get(r.id)!, lastEnd.get(r.member_id)?.at ?? 0) });
      await ctx.events.emitAll(
        trx,
        [...lastEnd].map(([member_id, e]) => ({ type: 'member.offline', tenant_id: e.tenant_id, member_id, at: e.at })),
      );
    }
    return ended.map((r) => r.id);
  });
}

/** How long an instance may miss its heartbeat before its sessions count as ended. */
export const INSTANCE_STALE_MS = 60_000;
export const INSTANCE_BEAT_MS = 10_000;
/** Sessions ended per transaction by a sweep (an instance with 10,000 sessions died). */
const SWEEP_BATCH = 500;

/** Records that this instance is alive (its sessions count as open). */
export async function beat(db: Db, instance: string, now: number): Promise<void> {
  await db
    .insertInto('gateway_instance')
    .values({ instance, seen_time: now })
    .onConflict((oc) => oc.column('instance').doUpdateSet({ seen_time: now }))
    .execute();
}

/**
 * Ends the sessions of instances that stopped beating (killed, or lost), dated at their last beat, and
 * those of `restarted` (this instance's name in an earlier life, which can hold none of them now).
 * Returns how many sessions it ended.
 */
export async function sweepSessions(ctx: SessionCtx, now: number, restarted?: string): Promise<number> {
  const { db } = ctx;
  const dead = await db
    .selectFrom('gateway_instance')
    .selectAll()
    .where((eb) => eb.or([eb('seen_time', '<', now - INSTANCE_STALE_MS), ...(restarted ? [eb('instance', '=', restarted)] : [])]))
    .execute();
  const lastBeat = new Map(dead.map((s) => [s.instance, Number(s.seen_time)]));
  const candidates = await db
    .selectFrom('device_session')
    .leftJoin('gateway_instance', 'gateway_instance.instance', 'device_session.instance')
    .select(['device_session.id', 'device_session.instance', 'device_session.start_time', 'device_session.member_id', 'device_session.tenant_id', 'device_session.remote_ip', 'gateway_instance.instance as beating'])
    .where((eb) => eb.or([...(lastBeat.size > 0 ? [eb('device_session.instance', 'in', [...lastBeat.keys()])] : []), eb('gateway_instance.instance', 'is', null)]))
    .execute();
  const ends: { id: string; at: number }[] = [];
  const seen: SessionEndSeen[] = [];
  for (const c of candidates) {
    const start = Number(c.start_time);
    // An instance that never beat (it died in its first moments) is given the stale time before its sessions end.
    if (c.beating === null && c.instance !== restarted && now - start < INSTANCE_STALE_MS) continue;
    const at = Math.max(start, lastBeat.get(c.instance) ?? start);
    ends.push({ id: c.id, at });
    // Its instance is gone: what is known of the device is that it was there at the instance's last beat.
    seen.push({ member_id: c.member_id, tenant_id: c.tenant_id, seen: at, ip: c.remote_ip, code: 0, reason: 'its gateway instance stopped' });
  }
  let ended = 0;
  for (let i = 0; i < ends.length; i += SWEEP_BATCH) ended += (await endSessions(ctx, ends.slice(i, i + SWEEP_BATCH))).length;
  await recordEnds(db, seen);
  const stale = dead.filter((d) => d.instance !== restarted).map((d) => d.instance);
  if (stale.length > 0) await db.deleteFrom('gateway_instance').where('instance', 'in', stale).where('seen_time', '<', now - INSTANCE_STALE_MS).execute();
  return ended;
}

/** The standard clients' sessions that ended with their center's: their connect-log ends, and their members offline if nothing else is open. */
async function endClientRows(db: Db, events: SessionCtx['events'], rows: { session_id: string; device_key: string; tenant_id: number; router_name: string; orig: string }[], atOf: Map<string, number>): Promise<void> {
  if (rows.length === 0) return;
  const members = await db
    .selectFrom('member')
    .select(['id', 'tenant_id', 'router_name'])
    .where('router_name', 'in', [...new Set(rows.map((r) => r.router_name))])
    .where('tenant_id', 'in', [...new Set(rows.map((r) => r.tenant_id))])
    .execute();
  const memberOf = (r: { tenant_id: number; router_name: string }) => members.find((m) => m.tenant_id === r.tenant_id && m.router_name === r.router_name);
  const ended: ClientMember[] = [];
  for (const r of rows) {
    const m = memberOf(r);
    if (!m) continue;
    await logConnect(db, r.session_id, r.device_key, m, r.orig, 0, '', atOf.get(r.session_id)!);
    ended.push(m);
  }
  await clientsEnded(db, events, ended, Math.max(...rows.map((r) => atOf.get(r.session_id)!)));
}
