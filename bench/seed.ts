import type { Db } from '../packages/server/src/db/connect';

export const MEMBERS = 100_000;
export const NETWORKS = 1_000;
/** Members of the big network whose detail and status are measured (BENCH_BIG_NETWORK: 5,000 for issue 34's network detail). */
export const BIG_NETWORK_MEMBERS = Number(process.env.BENCH_BIG_NETWORK ?? 1_000);
/** Members of every other network. */
const SMALL_NETWORK_MEMBERS = 10;
const CHUNK = 500;

export interface Seeded {
  tenantId: number;
  bigNetwork: string;
  /** The big network's first center, whose router detail shows its 5,000 links. */
  bigCenter: string;
  /** A software member's name somewhere in the middle, for the search case. */
  searchText: string;
}

async function insertChunks<T>(db: Db, rows: T[], insert: (trx: Db, chunk: T[]) => Promise<unknown>) {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += CHUNK) await insert(trx as unknown as Db, rows.slice(i, i + CHUNK));
  });
}

/**
 * One tenant with 100,000 members (a tenth hardware), 1,000 networks: one of 1,000 members (2 centers)
 * and 999 of 10, plus live link rows for half of the big network's points. Rows go in directly: the
 * benchmark measures reading, not the rules of adding.
 */
/** A main account put in directly, with room for `members` members: the tenant a benchmark works in. */
export async function benchTenant(db: Db, t: { username: string; sign: string; domain: string; members: number }): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('account')
    .values({
      username: t.username,
      username_key: t.username,
      nickname: 'bench',
      password_hash: 'x',
      phone: null,
      email: null,
      sign: t.sign,
      domain: t.domain,
      network_level: 2,
      network_router_count: t.members,
      network_center_count: 2,
      dns_quantity: 2,
      ram_quantity: 10,
      create_time: now,
      update_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function seed(db: Db): Promise<Seeded> {
  const now = Date.now();
  const account = { id: await benchTenant(db, { username: 'benchtenant', sign: 'benchsg', domain: 'benchtenant', members: MEMBERS }) };
  const tenantId = account.id;

  const members = Array.from({ length: MEMBERS }, (_, i) => {
    const hardware = i % 10 === 0;
    const name = hardware ? `router${String(i).padStart(6, '0')}` : `user${String(i).padStart(6, '0')}`;
    return {
      tenant_id: tenantId,
      router_name: name,
      router_key: name,
      router_type: hardware ? 1 : 2,
      note: `note ${i % 977}`,
      secret_hash: 'x',
      area_number: hardware ? null : '86',
      phone: hardware ? null : `+86 13${String(100000000 + i).slice(0, 9)}`,
      online_status: i % 3 === 0 ? 1 : 0,
      create_time: now - (MEMBERS - i) * 1000,
      update_time: now,
    };
  });
  await insertChunks(db, members, (trx, chunk) => trx.insertInto('member').values(chunk).execute());
  const ids = (await db.selectFrom('member').select(['id', 'router_type']).where('tenant_id', '=', tenantId).orderBy('id').execute());
  const hardwareIds = ids.filter((m) => m.router_type === 1).map((m) => m.id);
  const softwareIds = ids.filter((m) => m.router_type === 2).map((m) => m.id);

  const networks = Array.from({ length: NETWORKS }, (_, i) => ({
    tenant_id: tenantId,
    network_number: `NBENCH${String(i).padStart(6, '0')}`,
    network_name: `网络${i}`,
    create_time: now - (NETWORKS - i) * 1000,
    update_time: now,
  }));
  await insertChunks(db, networks, (trx, chunk) => trx.insertInto('network').values(chunk).execute());
  const nets = await db.selectFrom('network').select(['id', 'network_number']).where('tenant_id', '=', tenantId).orderBy('id').execute();

  const links: { tenant_id: number; network_id: number; member_id: number; member_type: string; create_time: number }[] = [];
  const big = nets[0]!;
  const [c1, c2] = hardwareIds as [number, number];
  links.push({ tenant_id: tenantId, network_id: big.id, member_id: c1, member_type: 'center', create_time: now });
  links.push({ tenant_id: tenantId, network_id: big.id, member_id: c2, member_type: 'center', create_time: now });
  const bigPoints = softwareIds.slice(0, BIG_NETWORK_MEMBERS - 2);
  for (const id of bigPoints) links.push({ tenant_id: tenantId, network_id: big.id, member_id: id, member_type: 'point', create_time: now });
  let next = BIG_NETWORK_MEMBERS;
  for (const net of nets.slice(1)) {
    const center = hardwareIds[2 + (net.id % (hardwareIds.length - 2))]!;
    links.push({ tenant_id: tenantId, network_id: net.id, member_id: center, member_type: 'center', create_time: now });
    for (let k = 1; k < SMALL_NETWORK_MEMBERS; k++) {
      links.push({ tenant_id: tenantId, network_id: net.id, member_id: softwareIds[next++ % softwareIds.length]!, member_type: 'point', create_time: now });
    }
  }
  await insertChunks(db, links, (trx, chunk) => trx.insertInto('network_member').values(chunk).execute());

  const live = bigPoints
    .filter((_, i) => i % 2 === 0)
    .flatMap((id, i) => [c1, c2].map((center) => ({ network_id: big.id, member_id: id, center_member_id: center, vpn_online: 1, vpn_ip: `10.8.${(i >> 8) & 255}.${i & 255}`, vpn_online_time: now - 60_000, update_time: now })));
  await insertChunks(db, live, (trx, chunk) => trx.insertInto('member_link').values(chunk).execute());

  // The big network's compiled configs, as after its third change: all acknowledged but a few (the
  // network page's delivery call reads them every 10 s).
  const configs = [c1, c2, ...bigPoints].map((id, i) => ({
    tenant_id: tenantId,
    network_id: big.id,
    member_id: id,
    version: 3,
    hash: 'bench',
    config: '{}',
    openvpn: '{}',
    update_time: now - 60_000,
    applied_version: i % 200 === 7 ? 2 : 3,
    applied_error: '',
    applied_time: i % 200 === 7 ? now - 120_000 : now - 60_000 + 500 + (i % 40) * 50,
  }));
  await insertChunks(db, configs, (trx, chunk) => trx.insertInto('member_config').values(chunk).execute());

  // The first member is hardware (every tenth is), the first of hardwareIds: the big network's first center.
  return { tenantId, bigNetwork: big.network_number, bigCenter: members[0]!.router_name, searchText: 'user054321' };
}
