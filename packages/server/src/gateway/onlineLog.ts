import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { ROUTER_TYPE, type SessionReport } from '@hublink/contract';
import { chunks } from '../core/chunks';
import type { Ctx } from '../core/context';
import type { Db } from '../db/connect';
import { splitOrig } from './clientAuth';
import type { DeviceSession } from './session';

/*
 * The online log (dial-in records) from the sessions devices report. A row is written from its member's
 * side. A center reports each client of its services; a software member connected with a standard
 * OpenVPN client has no agent to report its own session, so the center's report is also written as the
 * member's row (router_name the member, link_router_name the center), with the bytes turned round. A
 * member whose agent is signed in reports its own tunnel, so it gets no second row (issue 30). Such a
 * member is online while one of its standard clients' sessions is open, as it is while its agent is
 * signed in (member.online_status, member.online / member.offline).
 */

type Events = Ctx['events'];
export interface ClientMember {
  id: number;
  tenant_id: number;
  router_name: string;
}

/**
 * Which of these software members have an open session row (a standard client's session a center
 * wrote for them, or their agent's own): they are online. One query per tenant and 500 names.
 */
export async function withOpenSessions(db: Db, members: readonly ClientMember[]): Promise<Set<number>> {
  const open = new Set<number>();
  const byTenant = new Map<number, ClientMember[]>();
  for (const m of members) byTenant.set(m.tenant_id, [...(byTenant.get(m.tenant_id) ?? []), m]);
  for (const [tenantId, list] of byTenant) {
    for (let i = 0; i < list.length; i += 500) {
      const part = list.slice(i, i + 500);
      const rows = await db
        .selectFrom('online_log')
        .select('router_name')
        .distinct()
        .where('tenant_id', '=', tenantId)
        .where('router_name', 'in', part.map((m) => m.router_name))
        .where('end_time', 'is', null)
        .execute();
      const names = new Set(rows.map((r) => r.router_name));
      for (const m of part) if (names.has(m.router_name)) open.add(m.id);
    }
  }
  return open;
}

/** Standard clients' members whose last session ended at `at`: offline unless their agent or another client is connected. */
export async function clientsEnded(db: Db, events: Events, members: readonly ClientMember[], at: number): Promise<void> {
  if (members.length === 0) return;
  const ids = [...new Set(members.map((m) => m.id))];
  const agents = new Set((await db.selectFrom('device_session').select('member_id').where('member_id', 'in', ids).execute()).map((r) => r.member_id));
  const open = await withOpenSessions(db, members);
  const offline = [...new Map(members.filter((m) => !agents.has(m.id) && !open.has(m.id)).map((m) => [m.id, m])).values()];
  if (offline.length === 0) return;
  await db.updateTable('member').set({ online_status: 0 }).where('id', 'in', offline.map((m) => m.id)).where('online_status', '=', 1).execute();
  await events.emitAll(db, offline.map((m) => ({ type: 'member.offline', tenant_id: m.tenant_id, member_id: m.id, at })));
}

/** Rows inserted per statement (12 columns each: well under SQLite's and PostgreSQL's bound parameters). */
const ROWS_PER_INSERT = 200;

/** A center's report of a client session names the client: the candidates for a standard client's row. */
function namesAClient(s: DeviceSession, m: SessionReport): boolean {
  if (m.mode !== 'p2p' || !m.link_router_name) return false;
  return [...s.networks.values()].find((n) => n.number === m.network_number)?.memberType === 'center';
}

/** The software members among the clients these reports of a center name, by router_key (one query per 500 names). */
async function softwareClientsNamed(db: Db, s: DeviceSession, reports: readonly SessionReport[]): Promise<Map<string, ClientMember>> {
  const keys = [...new Set(reports.filter((m) => namesAClient(s, m)).map((m) => m.link_router_name.toLowerCase()))];
  const found = new Map<string, ClientMember>();
  for (const part of chunks(keys)) {
    const rows = await db
      .selectFrom('member')
      .select(['id', 'tenant_id', 'router_name', 'router_key'])
      .where('tenant_id', '=', s.member.tenant_id)
      .where('router_key', 'in', part)
      .where('router_type', '=', ROUTER_TYPE.software)
      .execute();
    for (const r of rows) found.set(r.router_key, { id: r.id, tenant_id: r.tenant_id, router_name: r.router_name });
  }
  return found;
}

/**
 * Whether the software member a center's report names is a standard client: this center session asked
 * about it and admitted it otherwise than by the member's agent credential (messages.ts keeps what the
 * client said of itself then), or — `resumed` — the center reports again, after its own connection to
 * the platform dropped, a session that was written as the member's before (same center, same device's
 * id for it, same start).
 */
async function asStandardClient(db: Db, s: DeviceSession, m: SessionReport, peer: ClientMember): Promise<{ member: ClientMember; resumed: boolean } | null> {
  if (s.clientHellos.has(m.link_router_name.toLowerCase())) return { member: peer, resumed: false };
  const before = await db
    .selectFrom('online_log')
    .select('id')
    .where('tenant_id', '=', peer.tenant_id)
    .where('router_name', '=', peer.router_name)
    .where('mode', '=', 'p2p')
    .where('start_time', '=', m.time * 1000)
    .where('link_router_name', '=', s.member.router_name)
    .where('device_key', '=', m.id)
    .limit(1)
    .executeTakeFirst();
  return before ? { member: peer, resumed: true } : null;
}

/** The connect log's id of a standard client's session: one per center session and client session, the same at its end. */
function clientSessionId(centerSession: string, deviceKey: string): string {
  const h = createHash('sha256').update(`${centerSession}/${deviceKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A standard client's connection in its member's connect log (it has no gateway session of its own). */
export async function logConnect(db: Db, centerSession: string, deviceKey: string, client: ClientMember, orig: string, online: 0 | 1, version: string, at: number): Promise<void> {
  const [ip, port] = splitOrig(orig);
  await db
    .insertInto('connect_log')
    .values({ tenant_id: client.tenant_id, member_id: client.id, router_name: client.router_name, remote_ip: ip, remote_port: port, version: version.slice(0, 32), online, session_id: clientSessionId(centerSession, deviceKey), create_time: at })
    .execute();
}

/**
 * A device's session reports, in the order it sent them (a `session` message is a batch of one). Runs of
 * starts are written in a few statements; a center of 5,000 points reports them in a handful of batches
 * when its tunnels come up (issue 34). Call inside a transaction; nothing outside it changes (the
 * caller drops the standard clients' hellos once it committed), so it can be run again after a rollback.
 */
export async function sessionsReported(db: Db, events: Events, s: DeviceSession, reports: readonly SessionReport[]): Promise<void> {
  for (let i = 0; i < reports.length; ) {
    let j = i + 1;
    while (j < reports.length && reports[j]!.event === reports[i]!.event) j++;
    const run = reports.slice(i, j);
    if (run[0]!.event === 'up') await sessionsUp(db, events, s, run);
    else await sessionsDown(db, events, s, run);
    i = j;
  }
}

async function sessionsUp(db: Db, events: Events, s: DeviceSession, reports: readonly SessionReport[]): Promise<void> {
  const software = await softwareClientsNamed(db, s, reports);
  const plain: SessionReport[] = [];
  for (const m of reports) {
    const peer = namesAClient(s, m) ? software.get(m.link_router_name.toLowerCase()) : undefined;
    const found = peer && (await asStandardClient(db, s, m, peer));
    if (found) await clientSessionUp(db, events, s, m, found);
    else plain.push(m);
  }
  for (const part of chunks(plain, ROWS_PER_INSERT)) {
    await db
      .insertInto('online_log')
      .values(part.map((m) => ({ ...rowOf(s, m), router_name: s.member.router_name, link_router_name: m.link_router_name })))
      .execute();
  }
}

function rowOf(s: DeviceSession, m: SessionReport) {
  return {
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
}

/** A standard client's session: the center's row and the member's, its sign-in, its connect log, and the member online. */
async function clientSessionUp(db: Db, events: Events, s: DeviceSession, m: SessionReport, found: { member: ClientMember; resumed: boolean }): Promise<void> {
  const client = found.member;
  const row = rowOf(s, m);
  // Online from its first open session (none yet: neither this row nor any other).
  const wasOnline = (await withOpenSessions(db, [client])).size > 0;
  await db
    .insertInto('online_log')
    .values([
      { ...row, router_name: s.member.router_name, link_router_name: m.link_router_name },
      { ...row, router_name: client.router_name, link_router_name: s.member.router_name },
    ])
    .execute();
  // Its sign-in, with what the client said of itself when it asked to connect (a resumed session signed in before).
  const hello = s.clientHellos.get(m.link_router_name.toLowerCase()) ?? { os: '', version: '' };
  if (!found.resumed) {
    await db
      .insertInto('software_login')
      .values({ tenant_id: s.member.tenant_id, router_name: client.router_name, ip: splitOrig(m.orig)[0], os: hello.os.slice(0, 16), version: hello.version.slice(0, 32), create_time: m.time * 1000 })
      .execute();
  }
  await logConnect(db, s.id, m.id, client, m.orig, 1, hello.version, m.time * 1000);
  if (!wasOnline) {
    await db.updateTable('member').set({ online_status: 1, online_time: m.time * 1000 }).where('id', '=', client.id).where('tenant_id', '=', client.tenant_id).execute();
    await events.emit(db, { type: 'member.online', tenant_id: client.tenant_id, member_id: client.id, at: m.time * 1000 });
  }
}

/** Ends the sessions' rows (the device's own, and the clients' the center wrote for them) with their bytes. */
async function sessionsDown(db: Db, events: Events, s: DeviceSession, reports: readonly SessionReport[]): Promise<void> {
  const rowsByKey = new Map<string, { id: number; start_time: number; router_name: string }[]>();
  for (const part of chunks([...new Set(reports.map((m) => m.id))])) {
    const rows = await db
      .selectFrom('online_log')
      .select(['id', 'start_time', 'router_name', 'device_key'])
      .where('session_id', '=', s.id)
      .where('device_key', 'in', part)
      // `+`: not a term an index may use, so SQLite and PostgreSQL take the session's index and not the
      // tenant's open rows (tens of thousands in a big network: 8.6 ms a read instead of 0.05; `end_time
      // is null` alone let PostgreSQL without fresh statistics add the whole partial index of open rows).
      .where(sql<number>`+tenant_id`, '=', s.member.tenant_id)
      .where(sql<number | null>`+end_time`, 'is', null)
      .execute();
    for (const r of rows) rowsByKey.set(r.device_key, [...(rowsByKey.get(r.device_key) ?? []), r]);
  }
  for (const m of reports) {
    const clients: ClientMember[] = [];
    for (const row of rowsByKey.get(m.id) ?? []) {
      const end = Math.max(Number(row.start_time), m.time * 1000);
      const own = row.router_name === s.member.router_name;
      if (!own) {
        const client = await db.selectFrom('member').select(['id', 'tenant_id', 'router_name']).where('tenant_id', '=', s.member.tenant_id).where('router_name', '=', row.router_name).executeTakeFirst();
        if (client) {
          await logConnect(db, s.id, m.id, client, m.orig, 0, '', m.time * 1000);
          clients.push(client);
        }
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
    // A report repeated in the batch ends nothing twice.
    rowsByKey.delete(m.id);
    await clientsEnded(db, events, clients, m.time * 1000);
  }
}
