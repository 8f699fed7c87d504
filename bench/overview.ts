/**
 * The dashboard overview's queries at 100,000 members (issue 18): bench/seed.ts's tenant, plus a
 * configuration per network member (one in seven not applied), online times, recent session ends
 * and alerts. Prints each count's median time and its query plan, on SQLite and, with
 * BENCH_DATABASE_URL, on PostgreSQL.
 *
 *   npx tsx bench/overview.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Compilable } from 'kysely';
import { LIMITS, MEMBER_STATE } from '@hublink/contract';
import { connect, type DbHandle } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { countByType } from '../packages/server/src/domain/members';
import { memberStateCondition, type StateScope } from '../packages/server/src/domain/memberStates';
import { countAlertsSince, countInState, countNetworks } from '../packages/server/src/domain/overview';
import { seed } from './seed';

const RUNS = 15;
const HOUR = 3_600_000;
const CHUNK = 500;

async function extra(handle: DbHandle, tenantId: number) {
  const db = handle.db;
  const now = Date.now();
  const links = await db.selectFrom('network_member').select(['network_id', 'member_id']).where('tenant_id', '=', tenantId).execute();
  const configs = links.map((l, i) => ({ tenant_id: tenantId, network_id: l.network_id, member_id: l.member_id, version: 3, hash: 'h', config: '{}', openvpn: '{}', update_time: now, applied_version: i % 7 === 0 ? 2 : 3 }));
  for (let i = 0; i < configs.length; i += CHUNK) await db.insertInto('member_config').values(configs.slice(i, i + CHUNK)).execute();
  // Every member was seen some time in the last four days; 5,000 sessions ended in the last hour.
  await sql`update member set online_time = cast(${now} as bigint) - (id % 96) * cast(${HOUR} as bigint) where tenant_id = ${tenantId}`.execute(db);
  const members = await db.selectFrom('member').select(['id', 'router_name']).where('tenant_id', '=', tenantId).where('online_status', '=', 0).limit(5000).execute();
  const ends = members.map((m, i) => ({ tenant_id: tenantId, member_id: m.id, router_name: m.router_name, online: 0, session_id: `b${i}`, create_time: now - (i % 60) * 60_000 }));
  for (let i = 0; i < ends.length; i += CHUNK) await db.insertInto('connect_log').values(ends.slice(i, i + CHUNK)).execute();
  const alerts = Array.from({ length: 2000 }, (_, i) => ({ tenant_id: tenantId, dedupe_key: `b${i}`, kind: 'router_offline', member_id: null, router_name: '', title: 't', text: '', at: now - i * 90_000, create_time: now - i * 90_000 }));
  for (let i = 0; i < alerts.length; i += CHUNK) await db.insertInto('monitor_alert').values(alerts.slice(i, i + CHUNK)).execute();
  if (handle.dialect === 'postgres') await sql`analyze`.execute(db);
  else await sql`analyze`.execute(db);
}

async function plan(handle: DbHandle, q: Compilable) {
  const c = q.compile();
  const explain = handle.dialect === 'sqlite' ? `explain query plan ${c.sql}` : `explain ${c.sql}`;
  const rows = await sql.raw<Record<string, unknown>>(explain.replace(/\$(\d+)|\?/g, (m, n: string | undefined) => {
    const i = n ? Number(n) - 1 : (plan as unknown as { i: number }).i++;
    const v = c.parameters[i];
    return typeof v === 'string' ? `'${v}'` : String(v);
  })).execute(handle.db);
  (plan as unknown as { i: number }).i = 0;
  return rows.rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n    ');
}
(plan as unknown as { i: number }).i = 0;

async function time(run: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

async function bench(dialect: 'sqlite' | 'postgres') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-overview-'));
  const pg = process.env.BENCH_DATABASE_URL;
  const name = `hublink_overview_${process.pid}`;
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    const admin = connect({ databaseUrl: pg!, dataDir });
    await sql`create database ${sql.id(name)}`.execute(admin.db);
    await admin.close();
    const url = new URL(pg!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const handle = connect({ databaseUrl, dataDir });
  try {
    await migrateToLatest(handle);
    const { tenantId } = await seed(handle.db);
    await extra(handle, tenantId);
    const now = Date.now();
    const scope: StateScope = { tenantId, allowed: null, now };
    const db = handle.db;
    console.log(`\n${dialect}: 100,000 members`);
    const show = async (label: string, run: () => Promise<unknown>, q?: Compilable) => {
      const result = await run();
      console.log(`  ${label}: ${(await time(run)).toFixed(1)} ms → ${JSON.stringify(result)}`);
      if (q) console.log(`    ${await plan(handle, q)}`);
    };
    const stateQuery = (state: (typeof MEMBER_STATE)[keyof typeof MEMBER_STATE]) =>
      db
        .selectFrom('member')
        .select(['member.router_type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('member.tenant_id', '=', tenantId)
        .where('member.router_type', 'in', [1, 2])
        .where((eb) => memberStateCondition(eb, state, scope))
        .groupBy('member.router_type');
    await show('networks', () => countNetworks(db, scope));
    await show('members (member_count)', () => countByType(db, tenantId));
    await show('online', () => countInState(db, scope, MEMBER_STATE.online), stateQuery(MEMBER_STATE.online));
    await show('behind', () => countInState(db, scope, MEMBER_STATE.behind), stateQuery(MEMBER_STATE.behind));
    await show('offline_day', () => countInState(db, scope, MEMBER_STATE.offlineDay), stateQuery(MEMBER_STATE.offlineDay));
    await show('alerts', () => countAlertsSince(db, tenantId, now - LIMITS.overviewAlertsMs));
    await show('the whole overview (these in parallel)', () =>
      Promise.all([
        countNetworks(db, scope),
        countByType(db, tenantId),
        countInState(db, scope, MEMBER_STATE.online),
        countInState(db, scope, MEMBER_STATE.behind),
        countInState(db, scope, MEMBER_STATE.offlineDay),
        countAlertsSince(db, tenantId, now - LIMITS.overviewAlertsMs),
      ]).then(() => 'ok'),
    );
  } finally {
    await handle.close();
    if (dialect === 'postgres') {
      const admin = connect({ databaseUrl: pg!, dataDir });
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
      await admin.close();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await bench('sqlite');
if (process.env.BENCH_DATABASE_URL) await bench('postgres');
