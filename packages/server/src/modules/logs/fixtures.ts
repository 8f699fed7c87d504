import type { TestApp } from '../../../test/helpers';

// Shared by the log module's tests: rows the device gateway would write, seeded directly.

export const HOUR = 3_600_000;

export async function softwareLogin(t: TestApp, tenantId: number, router_name: string, at: number, over: Partial<{ ip: string; os: string }> = {}) {
  await t.db
    .insertInto('software_login')
    .values({ tenant_id: tenantId, router_name, ip: over.ip ?? '10.0.0.1', os: over.os ?? 'windows', version: '2.0.1', sys_brand: 'Lenovo', sys_model: 'X1', sys_version: '11', create_time: at })
    .execute();
}

export async function onlineSession(
  t: TestApp,
  tenantId: number,
  over: Partial<{ router_name: string; mode: string; network_number: string; link_router_name: string; pop_name: string; area: string; start: number; end: number | null; online_time: number; session_id: string }>,
) {
  const start = over.start ?? Date.now() - HOUR;
  const end = over.end === undefined ? start + 600_000 : over.end;
  await t.db
    .insertInto('online_log')
    .values({
      tenant_id: tenantId,
      router_name: over.router_name ?? 'alice',
      mode: over.mode ?? 'p2p',
      network_number: over.network_number ?? '',
      link_router_name: over.link_router_name ?? '',
      pop_name: over.pop_name ?? '',
      area: over.area ?? '',
      orig: '1.2.3.4',
      vpn_ip: '10.8.0.2',
      start_time: start,
      end_time: end,
      online_time: over.online_time ?? (end === null ? 0 : Math.round((end - start) / 1000)),
      ...(over.session_id === undefined ? {} : { session_id: over.session_id }),
    })
    .execute();
}

let sessions = 0;

/** One connect_log row: a session's begin (online 1) or end (online 0). */
export async function connection(t: TestApp, tenantId: number, router_name: string, at: number, online: 0 | 1, over: Partial<{ remote_ip: string; remote_port: number; version: string; session_id: string }> = {}) {
  await t.db
    .insertInto('connect_log')
    .values({
      tenant_id: tenantId,
      member_id: 1,
      router_name,
      remote_ip: over.remote_ip ?? '203.0.113.7',
      remote_port: over.remote_port ?? 40000,
      version: over.version ?? '3.1.0',
      online,
      session_id: over.session_id ?? `s-${process.pid}-${++sessions}`,
      create_time: at,
    })
    .execute();
}
