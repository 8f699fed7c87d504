import { createNetwork, ROUTER_TYPE } from '@hublink/contract';
import { hashPassword } from '../src/core/passwords';
import { randomNetworkNumber } from '../src/modules/network/service';
import type { TestApp } from './helpers';

/*
 * Test data for members and networks, written straight into the database (so a test does not
 * depend on the /router calls), plus the API path for networks. Shared by the tests of several modules.
 */

/** The password (software) or device secret (hardware) of every seeded member. */
export const SEEDED_MEMBER_SECRET = 'member123';
let secretHash: Promise<string> | undefined;

let seq = 0;
/** A member name no other test uses (hardware names are unique across tenants): letters and digits, ≤ 18. */
export const freshMemberName = (prefix = 'm') => `${prefix}${String(Date.now() % 100_000).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;

export interface SeedMemberOptions {
  /** 1 hardware (default), 2 software. */
  router_type?: number;
  note?: string;
  online_status?: number;
}

/** Inserts members of a tenant by name; returns their ids in the same order. */
export async function seedMembers(t: TestApp, tenantId: number, names: string[], opts: SeedMemberOptions = {}): Promise<number[]> {
  if (names.length === 0) return [];
  secretHash ??= hashPassword(SEEDED_MEMBER_SECRET);
  const hash = await secretHash;
  const now = Date.now();
  const ids: number[] = [];
  for (let i = 0; i < names.length; i += 500) {
    const rows = await t.db
      .insertInto('member')
      .values(
        names.slice(i, i + 500).map((name) => ({
          tenant_id: tenantId,
          router_name: name,
          router_key: name.toLowerCase(),
          router_type: opts.router_type ?? ROUTER_TYPE.hardware,
          note: opts.note ?? '',
          secret_hash: hash,
          area_number: null,
          phone: null,
          online_status: opts.online_status ?? 0,
          online_time: null,
          create_time: now,
          update_time: now,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

/** `n` hardware members (or software with router_type 2) with fresh names; returns the names. */
export async function seedFreshMembers(t: TestApp, tenantId: number, n: number, opts: SeedMemberOptions = {}): Promise<string[]> {
  const prefix = (opts.router_type ?? ROUTER_TYPE.hardware) === ROUTER_TYPE.software ? 's' : 'h';
  const names = Array.from({ length: n }, () => freshMemberName(prefix));
  await seedMembers(t, tenantId, names, opts);
  return names;
}

/** Inserts a network of existing members (by name) without any rule; returns its id and number. */
export async function seedNetwork(
  t: TestApp,
  tenantId: number,
  members: { center?: string[]; point?: string[]; name?: string; network_number?: string } = {},
): Promise<{ id: number; network_number: string }> {
  const now = Date.now();
  const network_number = members.network_number ?? randomNetworkNumber();
  const net = await t.db
    .insertInto('network')
    .values({ tenant_id: tenantId, network_number, network_name: members.name ?? '测试网络', create_time: now, update_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const named = [...(members.center ?? []).map((n) => [n, 'center'] as const), ...(members.point ?? []).map((n) => [n, 'point'] as const)];
  for (let i = 0; i < named.length; i += 500) {
    const part = named.slice(i, i + 500);
    const ids = await t.db
      .selectFrom('member')
      .select(['id', 'router_key'])
      .where('tenant_id', '=', tenantId)
      .where(
        'router_key',
        'in',
        part.map(([n]) => n.toLowerCase()),
      )
      .execute();
    const byKey = new Map(ids.map((r) => [r.router_key, r.id]));
    await t.db
      .insertInto('network_member')
      .values(
        part.map(([n, member_type]) => {
          const member_id = byKey.get(n.toLowerCase());
          if (member_id === undefined) throw new Error(`seedNetwork: no member ${n}`);
          return { tenant_id: tenantId, network_id: net.id, member_id, member_type, create_time: now };
        }),
      )
      .execute();
  }
  return { id: net.id, network_number };
}

/** Creates a network through POST /network/create; returns its number (throws on refusal). */
export async function createNetworkThroughApi(t: TestApp, token: string, body: { network_name?: string; center?: string[]; point?: string[] }): Promise<string> {
  const res = await t.call(createNetwork, { token, body: { network_name: '测试网络', ...body } });
  if (res.code !== 200) throw new Error(`create network: ${res.msg}`);
  return res.data!.network_number;
}

/** Records a link state as the device gateway would (point → center of a network). */
export async function seedLink(
  t: TestApp,
  networkId: number,
  point: string,
  center: string,
  state: { vpn_online: number; vpn_ip?: string; vpn_online_time?: number | null },
): Promise<void> {
  const net = await t.db.selectFrom('network').select('tenant_id').where('id', '=', networkId).executeTakeFirstOrThrow();
  const idOf = async (name: string) =>
    (await t.db.selectFrom('member').select('id').where('tenant_id', '=', net.tenant_id).where('router_key', '=', name.toLowerCase()).executeTakeFirstOrThrow()).id;
  await t.db
    .insertInto('member_link')
    .values({
      network_id: networkId,
      member_id: await idOf(point),
      center_member_id: await idOf(center),
      vpn_online: state.vpn_online,
      vpn_ip: state.vpn_ip ?? '',
      vpn_online_time: state.vpn_online_time ?? null,
      update_time: Date.now(),
    })
    .execute();
}

/** Every row of the member and network tables, to show a refused call changed nothing. */
export async function networkTables(t: TestApp): Promise<Record<string, unknown[]>> {
  return {
    member: await t.db.selectFrom('member').selectAll().orderBy('id').execute(),
    network: await t.db.selectFrom('network').selectAll().orderBy('id').execute(),
    network_member: await t.db.selectFrom('network_member').selectAll().orderBy('id').execute(),
    member_link: await t.db.selectFrom('member_link').selectAll().orderBy('id').execute(),
  };
}
