import { ipToInt, networkOf } from './ip';
import type { MemberInput, NetworkInput, PrefixListEntry } from './model';
import { serviceOf, type AddressPlan, type LinkPlan } from './plan';

/*
 * What every member's configuration is built from, worked out once per compile: the LANs and prefix
 * lists by owner, the advertisers of the default route, the order of the centers and which centers each
 * point links to, the links between centers, and the deny rows that nobody may route.
 */

export const cidr = (network: string, mask: number) => `${network}/${mask}`;

export interface Advertiser {
  member: MemberInput;
}

export interface Shared {
  input: NetworkInput;
  plan: AddressPlan;
  dns: string[];
  /** Permit prefixes by owner (lower-cased name), as CIDR. */
  lans: Map<string, string[]>;
  prefixLists: Map<string, PrefixListEntry[]>;
  /** Members that advertise the default route, best first (lowest metric, then name). */
  advertisers: Advertiser[];
  /** Dual primary: equal-cost paths are used together. */
  balance: boolean;
  /** The order points attach to centers: input order, main lines first in main-backup routing. */
  centerOrder: MemberInput[];
  /** Each point's centers in that order: those of its link_centers, or all when it names none of them. */
  linked: Map<MemberInput, MemberInput[]>;
  /** The points linked to each center. */
  carried: Map<MemberInput, MemberInput[]>;
  /** Some member has dynamic routing on: the centers relay BGP. */
  dynamicOn: boolean;
  /** Everything a point's routes are built from besides its own settings (the compile memo's context). */
  contextKey: string;
  tunnelName(center: MemberInput): string;
  /** A center's place in the network's center order (0: the first main line). */
  rankOf(center: MemberInput): number;
  /** The links a center is an end of. */
  linksOf(center: MemberInput): LinkPlan[];
  /** A center's two service subnets, as CIDR. */
  subnetsOf(center: MemberInput): string[];
  /** The deny rows that members other than `owner` (lower-cased) must never route. */
  blockedFor(owner: string): string[];
  /** What a center's OpenVPN routes to an advertising point besides its LAN: its share of the default route. */
  defaultIroutes(center: MemberInput, point: MemberInput): string[];
  /** Route cache by point signature (routes.ts). */
  routeCache: Map<string, unknown>;
}

export const linkedOf = (shared: Shared, p: MemberInput) => shared.linked.get(p) ?? shared.centerOrder;
export const lanOf = (shared: Shared, m: MemberInput) => shared.lans.get(m.router_name.toLowerCase()) ?? [];
export const quaggaOf = (m: MemberInput) => m.quagga === 1;
export const peerOf = (link: LinkPlan, c: MemberInput) => (link.server === c ? link.client : link.server);
/** A link's instance name at one end: named for the center at the other end. */
export const linkName = (link: LinkPlan, peer: MemberInput) => `${link.kind === 'twin' ? 'link' : 'mesh'}-${peer.router_name}`;

/** Whether prefix `outer` holds prefix `inner` (both `a.b.c.d/m`). */
export function contains(outer: string, inner: string): boolean {
  const [oip, om] = outer.split('/');
  const [iip, im] = inner.split('/');
  return Number(om) <= Number(im) && networkOf(iip!, Number(om)) === oip;
}

/** The /L blocks that together make 0.0.0.0/0 (L at most 4: 16 blocks). */
function blocksOf(length: number): string[] {
  const size = 2 ** (32 - length);
  return Array.from({ length: 2 ** length }, (_, i) => {
    const n = i * size;
    return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}/${length}`;
  });
}
const MAX_DEFAULT_SPLIT = 4;

export function buildShared(input: NetworkInput, centers: MemberInput[], points: MemberInput[], plan: AddressPlan): Shared {
  const present = new Set(input.members.map((m) => m.router_name.toLowerCase()));
  const lans = new Map<string, string[]>();
  const prefixLists = new Map<string, PrefixListEntry[]>();
  const denies: { owner: string; prefix: string }[] = [];
  for (const p of input.prefixes) {
    const owner = p.router_name.toLowerCase();
    if (!present.has(owner)) continue;
    const prefix = cidr(networkOf(p.ip, p.mask), p.mask);
    const list = prefixLists.get(owner) ?? [];
    list.push({ seq: (list.length + 1) * 10, action: p.permission, prefix, ge: p.ge, le: p.le });
    prefixLists.set(owner, list);
    if (p.permission === 'permit') {
      const own = lans.get(owner) ?? [];
      if (!own.includes(prefix)) own.push(prefix);
      lans.set(owner, own);
    } else {
      denies.push({ owner, prefix });
    }
  }
  const blocked = blockedRows(denies, lans);
  const blockedAll = [...new Set(blocked.map((b) => b.prefix))];

  const advertisers = input.members
    .filter((m) => m.default_route === 1)
    .map((member) => ({ member }))
    .sort((a, b) => a.member.metric - b.member.metric || (a.member.router_name < b.member.router_name ? -1 : a.member.router_name > b.member.router_name ? 1 : 0));
  const centerOrder = input.routing_type === 2 ? [...centers.filter((c) => c.routing === 1), ...centers.filter((c) => c.routing !== 1)] : centers;
  const linked = new Map<MemberInput, MemberInput[]>();
  for (const p of points) {
    if (!p.link_centers) continue;
    const names = new Set(p.link_centers.map((n) => n.toLowerCase()));
    const chosen = centerOrder.filter((c) => names.has(c.router_name.toLowerCase()));
    // A list naming no center (all of them gone) would cut the point off: it links to every center instead.
    if (chosen.length > 0 && chosen.length < centerOrder.length) linked.set(p, chosen);
  }
  const carried = new Map<MemberInput, MemberInput[]>(centers.map((c) => [c, []]));
  for (const p of points) for (const c of linked.get(p) ?? centerOrder) carried.get(c)!.push(p);
  const ranks = new Map(centerOrder.map((c, i) => [c, i]));
  const subnets = new Map(centers.map((c) => [c, (['router', 'software'] as const).map((s) => plan.subnets.get(c.router_name)![s]).map((s) => cidr(s.network, s.mask))]));
  const links = new Map(centers.map((c) => [c, plan.links.filter((l) => l.server === c || l.client === c)]));

  // Point advertisers each center carries, best first: the best takes the most specific share of 0.0.0.0/0.
  const pointAdvertisers = new Map(centers.map((c) => [c, advertisers.filter((a) => a.member.member_type !== 'center' && carried.get(c)!.includes(a.member)).map((a) => a.member)]));

  const contextKey = JSON.stringify([
    centerOrder,
    [...lans],
    [...prefixLists],
    advertisers.map((a) => [a.member.router_name, a.member.metric, a.member.member_type]),
    points.map((p) => [p.router_name, (linked.get(p) ?? []).map((c) => c.router_name), p.quagga, serviceOf(p)]),
    [...plan.subnets],
    plan.links.map((l) => [l.kind, l.server.router_name, l.client.router_name, cidr(l.segment.network, l.segment.mask), l.port, l.endpoint]),
  ]);

  return {
    input,
    plan,
    dns: [...input.dns],
    lans,
    prefixLists,
    advertisers,
    balance: input.routing_type !== 2,
    centerOrder,
    linked,
    carried,
    dynamicOn: input.members.some(quaggaOf),
    contextKey,
    tunnelName: (c) => `center-${c.router_name}`,
    rankOf: (c) => ranks.get(c) ?? 0,
    linksOf: (c) => links.get(c) ?? [],
    subnetsOf: (c) => subnets.get(c) ?? [],
    blockedFor: (owner) => (blocked.some((b) => b.owner === owner) ? [...new Set(blocked.filter((b) => b.owner !== owner).map((b) => b.prefix))] : blockedAll),
    defaultIroutes: (c, p) => {
      const list = pointAdvertisers.get(c) ?? [];
      const i = list.indexOf(p);
      if (i < 0) return [];
      return blocksOf(Math.max(0, Math.min(MAX_DEFAULT_SPLIT, list.length - 1 - i)));
    },
    routeCache: new Map(),
  };
}

/**
 * A deny row of a member is blocked where a permit row of the same member holds it (else nothing routes
 * it there anyway), unless another member permits that very prefix: then it goes there. A more specific
 * permit of another member needs no exception: the longer prefix wins in every routing table.
 */
function blockedRows(denies: { owner: string; prefix: string }[], lans: Map<string, string[]>) {
  return denies.filter(({ owner, prefix }) => {
    if (!(lans.get(owner) ?? []).some((p) => contains(p, prefix))) return false;
    for (const [other, list] of lans) if (other !== owner && list.includes(prefix)) return false;
    return true;
  });
}

/** Sorting key of an address or prefix, numerically. */
export const addressKey = (prefix: string) => ipToInt(prefix.split('/')[0]!);
