import { createHash } from 'node:crypto';
import { ROUTER_TYPE, type DeviceMessage } from '@hublink/contract';
import type { Db } from '../db/connect';
import { splitOrig } from './clientAuth';
import type { DeviceSession } from './session';

type SessionReport = Extract<DeviceMessage, { type: 'session' }>;

/*
 * The online log (dial-in records) from the sessions devices report. A row is written from its member's
 * side. A center reports each client of its services; a software member connected with a standard
 * OpenVPN client has no agent to report its own session, so the center's report is also written as the
 * member's row (router_name the member, link_router_name the center), with the bytes turned round. A
 * member whose agent is signed in reports its own tunnel, so it gets no second row (issue 30).
 */

/** The software member a center's report names, if its session has no agent of its own to report it. */
async function standardClientOf(db: Db, s: DeviceSession, m: SessionReport): Promise<{ id: number; router_name: string } | null> {
  if (m.mode !== 'p2p' || !m.link_router_name) return null;
  const held = [...s.networks.values()].find((n) => n.number === m.network_number);
  if (held?.memberType !== 'center') return null;
  const peer = await db
    .selectFrom('member')
    .select(['id', 'router_name'])
    .where('tenant_id', '=', s.member.tenant_id)
    .where('router_key', '=', m.link_router_name.toLowerCase())
    .where('router_type', '=', ROUTER_TYPE.software)
    .executeTakeFirst();
  if (!peer) return null;
  const agent = await db.selectFrom('device_session').select('id').where('member_id', '=', peer.id).where('tenant_id', '=', s.member.tenant_id).limit(1).executeTakeFirst();
  return agent ? null : peer;
}

/** The connect log's id of a standard client's session: one per center session and client session, the same at its end. */
function clientSessionId(s: DeviceSession, m: SessionReport): string {
  const h = createHash('sha256').update(`${s.id}/${m.id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A standard client's connection in its member's connect log (it has no gateway session of its own). */
async function logConnect(db: Db, s: DeviceSession, client: { id: number; router_name: string }, m: SessionReport, online: 0 | 1, version: string): Promise<void> {
  const [ip, port] = splitOrig(m.orig);
  await db
    .insertInto('connect_log')
    .values({ tenant_id: s.member.tenant_id, member_id: client.id, router_name: client.router_name, remote_ip: ip, remote_port: port, version: version.slice(0, 32), online, session_id: clientSessionId(s, m), create_time: m.time * 1000 })
    .execute();
}

export async function sessionUp(db: Db, s: DeviceSession, m: SessionReport): Promise<void> {
  const row = {
    tenant_id: s.member.tenant_id,
    mode: m.mode,
    network_number: m.network_number,
    pop_name: m.pop_name,
    area: m.area,
    orig: m.orig,
    vpn_ip: m.vpn_ip,
    start_time: m.time * 1000,
    session_id: s.id,
    device_key: m.id,
  };
  const client = await standardClientOf(db, s, m);
  await db
    .insertInto('online_log')
    .values([
      { ...row, router_name: s.member.router_name, link_router_name: m.link_router_name },
      ...(client ? [{ ...row, router_name: client.router_name, link_router_name: s.member.router_name }] : []),
    ])
    .execute();
  if (!client) return;
  // Its sign-in, with what the client said of itself when it asked to connect.
  const hello = s.clientHellos.get(m.link_router_name.toLowerCase()) ?? { os: '', version: '' };
  s.clientHellos.delete(m.link_router_name.toLowerCase());
  await db
    .insertInto('software_login')
    .values({ tenant_id: s.member.tenant_id, router_name: client.router_name, ip: splitOrig(m.orig)[0], os: hello.os.slice(0, 16), version: hello.version.slice(0, 32), create_time: m.time * 1000 })
    .execute();
  await logConnect(db, s, client, m, 1, hello.version);
}

/** Ends the session's rows (the device's own, and the client's the center wrote for it) with its bytes. */
export async function sessionDown(db: Db, s: DeviceSession, m: SessionReport): Promise<void> {
  const rows = await db
    .selectFrom('online_log')
    .select(['id', 'start_time', 'router_name'])
    .where('session_id', '=', s.id)
    .where('device_key', '=', m.id)
    .where('tenant_id', '=', s.member.tenant_id)
    .where('end_time', 'is', null)
    .execute();
  for (const row of rows) {
    const end = Math.max(Number(row.start_time), m.time * 1000);
    const own = row.router_name === s.member.router_name;
    if (!own) {
      const client = await db.selectFrom('member').select(['id', 'router_name']).where('tenant_id', '=', s.member.tenant_id).where('router_name', '=', row.router_name).executeTakeFirst();
      if (client) await logConnect(db, s, client, m, 0, '');
    }
    await db
      .updateTable('online_log')
      .set({
        end_time: end,
        online_time: Math.round((end - Number(row.start_time)) / 1000),
        bytes_in: (own ? m.bytes_received : m.bytes_sent) ?? null,
        bytes_out: (own ? m.bytes_sent : m.bytes_received) ?? null,
      })
      .where('id', '=', row.id)
      .execute();
  }
}
