import {
  fmt,
  formatCidr,
  M,
  overlaps,
  parseCidr,
  POOL_KEYS,
  POOL_LABELS,
  VPN_DEFAULT_POOLS,
  type IpPool,
  type PoolKey,
  type Segment,
} from '@hublink/contract';
import { invalid } from '../../core/errors';
import type { Db } from '../../db/connect';
import { centerLinkFrom, interconnectFrom, memberGateway, poolFrom } from './segmentsData';

/*
 * The VPN's addresses and the members' LANs kept apart. The VPN of a network uses its centers' set
 * segments, the interconnect and twin-center segments, and the pools the compiler allocates from
 * (the network's IP address pools where set, the compiler's defaults, VPN_DEFAULT_POOLS, where not).
 * A route prefix row is a LAN the others route to its member: inside the VPN's addresses it would
 * send tunnel traffic to a member's LAN (or the other way round), so neither side may be saved over
 * the other. Every check runs inside the caller's transaction, under the tenant lock.
 */

/** One pool the compiler allocates from, and whether it is the default of an unset pool. */
interface EffectivePool {
  key: PoolKey;
  segment: Segment;
  isDefault: boolean;
}

const isVpnPoolKey = (k: PoolKey): k is keyof typeof VPN_DEFAULT_POOLS => k in VPN_DEFAULT_POOLS;

/** The pools in use: each set pool, and the default of each unset pool that has one. */
export function effectivePools(pool: IpPool): EffectivePool[] {
  const out: EffectivePool[] = [];
  for (const key of POOL_KEYS) {
    const set = parseCidr(pool[key]);
    if (set) out.push({ key, segment: set, isDefault: false });
    else if (isVpnPoolKey(key)) out.push({ key, segment: VPN_DEFAULT_POOLS[key], isDefault: true });
  }
  return out;
}

/** How a refusal names a pool: its label, and for an unset one the default it falls back to. */
export const poolLabel = (p: EffectivePool) => (p.isDefault ? fmt(M.popPoolDefault, { label: POOL_LABELS[p.key], cidr: formatCidr(p.segment) }) : POOL_LABELS[p.key]);

const asSegment = (s: { gateway: string; mask: number }): Segment => ({ ip: s.gateway, mask: s.mask });

/** Every segment of the network's VPN, with what a refusal calls it. */
async function vpnSegmentsOf(trx: Db, tenantId: number, networkId: number): Promise<{ segment: Segment; what: string }[]> {
  const net = await trx
    .selectFrom('network')
    .select(['ip_pool', 'interconnect_network', 'center_link_network'])
    .where('id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  const centers = await trx
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select(['m.router_name', 'nm.gateway'])
    .where('nm.network_id', '=', networkId)
    .where('nm.tenant_id', '=', tenantId)
    .where('nm.member_type', '=', 'center')
    .orderBy('nm.id')
    .execute();
  const out: { segment: Segment; what: string }[] = [];
  for (const c of centers) {
    const g = memberGateway(c.gateway);
    if (g.router) out.push({ segment: asSegment(g.router), what: fmt(M.segWhatCenterRouter, { name: c.router_name }) });
    if (g.software) out.push({ segment: asSegment(g.software), what: fmt(M.segWhatCenterSoftware, { name: c.router_name }) });
  }
  const interconnect = interconnectFrom(net.interconnect_network);
  if (interconnect) out.push({ segment: asSegment(interconnect), what: M.segWhatInterconnect });
  const link = centerLinkFrom(net.center_link_network);
  if (link.gateway) out.push({ segment: asSegment(link), what: M.segWhatCenterLink });
  for (const p of effectivePools(poolFrom(net.ip_pool))) {
    out.push({ segment: p.segment, what: fmt(p.isDefault ? M.segWhatDefaultPool : M.segWhatPool, { label: POOL_LABELS[p.key] }) });
  }
  return out;
}

/** The network's route prefixes (network addresses, as stored). */
function prefixesOf(trx: Db, tenantId: number, networkId: number): Promise<Segment[]> {
  return trx
    .selectFrom('network_prefix')
    .select(['ip', 'mask'])
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .orderBy('position')
    .execute();
}

/** Refuses prefix rows that overlap a segment of the network's VPN (422 M.segPrefixOverlapVpn, naming both). */
export async function ensurePrefixesOffVpn(trx: Db, tenantId: number, networkId: number, rows: Segment[]): Promise<void> {
  if (rows.length === 0) return;
  const vpn = await vpnSegmentsOf(trx, tenantId, networkId);
  for (const r of rows) {
    const hit = vpn.find((v) => overlaps(r, v.segment));
    if (hit) throw invalid(fmt(M.segPrefixOverlapVpn, { prefix: formatCidr(r), what: hit.what, segment: formatCidr(hit.segment) }));
  }
}

/** Refuses VPN segments (a center's, the interconnect's, the twin-center link's) that overlap a prefix row (422 M.segOverlapPrefix). */
export async function ensureOffPrefixes(trx: Db, tenantId: number, networkId: number, segments: { gateway: string; mask: number }[]): Promise<void> {
  const prefixes = await prefixesOf(trx, tenantId, networkId);
  for (const s of segments.map(asSegment)) {
    const hit = prefixes.find((p) => overlaps(s, p));
    if (hit) throw invalid(fmt(M.segOverlapPrefix, { segment: formatCidr(s), prefix: formatCidr(hit) }));
  }
}

/**
 * Refuses new pools that would cover a prefix row (422 M.popPoolOverlap, naming the pool and the
 * prefix): a pool set or changed, and the default that takes over a pool cleared. Pools in use as
 * they were are not checked again, so a save of another pool is not held up by them.
 */
export async function ensurePoolsOffPrefixes(trx: Db, tenantId: number, networkId: number, before: IpPool, after: IpPool): Promise<void> {
  const key = (p: EffectivePool) => `${p.key} ${formatCidr(p.segment)}`;
  const kept = new Set(effectivePools(before).map(key));
  const fresh = effectivePools(after).filter((p) => !kept.has(key(p)));
  if (fresh.length === 0) return;
  const prefixes = await prefixesOf(trx, tenantId, networkId);
  for (const p of fresh) {
    const hit = prefixes.find((r) => overlaps(p.segment, r));
    if (hit) throw invalid(fmt(M.popPoolOverlap, { a: poolLabel(p), b: fmt(M.popPoolPrefix, { prefix: formatCidr(hit) }) }));
  }
}
