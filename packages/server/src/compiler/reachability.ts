import { bestPaths, type ReachRefusal, type RouteVia } from '@hublink/contract';
import { ipToInt, sizeOf, type Range } from './ip';
import type { CompiledNetwork, MemberJson } from './model';

/*
 * Which member and LAN reaches which, and by which path, predicted from the compiled configurations
 * alone (issue 36): a packet is walked hop by hop as each member's agent would route it
 * (packages/agent/src/routing/select.ts, with the same choice of paths, bestPaths), in a state where
 * some members are down. Pure: the same configs and state give the same answer. The data-plane suite
 * holds it to the pings it observes.
 *
 * What a device does, as modelled: its own LAN and addresses are delivered there; a deny row is
 * unreachable; otherwise the most specific route of its configuration, sent on the best live path,
 * unreachable when none is live. A point's tunnel is live while both ends are up; a center's hop to a
 * client while that client's tunnel to it is; a link while both centers are. What matches no route
 * leaves a point by its own uplink (outside the network) and goes through a center's transit.
 * Dynamic routing is modelled as its static equal: every permit row is routed statically anyway.
 */

/** A state of the network: the members (router_names) that are down, and connections that are cut while both ends are up. */
export interface NetworkState {
  down: readonly string[];
  cut?: readonly CutConnection[];
}

/** The connections between two members that are down: every one, or one kind (a point's tunnel, the twin link, an interconnect link). */
export interface CutConnection {
  between: readonly [string, string];
  kind?: 'tunnel' | 'twin' | 'mesh';
}

/** How a packet went from one member to the next. */
export type HopKind = 'tunnel' | 'pop' | 'client' | 'twin' | 'mesh';

export interface Hop {
  /** The member the packet arrives at. */
  member: string;
  kind: HopKind;
}

/** One way a packet goes: the members after the source, or empty when it is delivered at the source. */
export interface Path {
  hops: Hop[];
  /** Where it ended: delivered, or why not (a member and the reason). */
  end: { delivered: true } | { delivered: false; at: string; why: Refusal };
}

export type Refusal = ReachRefusal;

/** Where a packet is going: an address, or the internet (an address outside every prefix of the network). */
export type Destination = { address: string } | { internet: true };

const INTERNET = -1;
const MAX_HOPS = 16;

interface Route {
  length: number;
  /** The best live paths, or null: unreachable. */
  via: RouteVia[] | null;
}

const SIZES = Array.from({ length: 33 }, (_, length) => sizeOf(length));
const networkAt = (a: number, length: number) => Math.floor(a / SIZES[length]!) * SIZES[length]!;

/** `a.b.c.d/m` (m from 0: the default route too, which ip.ts parseCidr refuses) as the addresses it holds. */
export const cidrRange = (cidr: string): Range & { length: number } => {
  const [ip, m] = cidr.split('/');
  const length = Number(m);
  const start = networkAt(ipToInt(ip!), length);
  return { start, end: start + sizeOf(length), length };
};
const within = (r: Range, a: number) => a !== INTERNET && a >= r.start && a < r.end;

type Arrival = 'origin' | 'tunnel' | 'link' | 'center';
const arrivalOf = (hop: Hop): Arrival => (hop.kind === 'twin' || hop.kind === 'mesh' ? 'link' : hop.kind === 'client' ? 'center' : 'tunnel');

type Decision = { kind: 'delivered' } | { kind: 'stop'; why: Refusal } | { kind: 'forward'; hops: Hop[] };
const DELIVERED: Decision = { kind: 'delivered' };
const stopped = (why: Refusal): Decision => ({ kind: 'stop', why });
const ARRIVALS: Record<Arrival, number> = { origin: 0, tunnel: 1, link: 2, center: 3 };

/** One member as the walk reads it: its configuration with the addresses parsed once, and its routes in the model's state. */
interface Node {
  name: string;
  json: MemberJson;
  lan: Range[];
  blocked: Range[];
  own: Set<number>;
  /** An address on a tunnel subnet or link segment: the path to the peer there (a center's client by its address). */
  subnets: { range: Range; via: string | null }[];
  neighbours: Map<number, RouteVia>;
  /** Instance name → where it leads. */
  hops: Map<string, Hop>;
  /** Routes by prefix length, longest first, each by network address; built on first use. */
  table: { lengths: number[]; byLength: Map<number, Map<number, Route>> } | null;
  /** What the member does with a packet sent by one of its routes (by the route's paths). */
  forwards: Map<readonly RouteVia[], Decision>;
  /** Walks from this member by (address, arrival). */
  walks: Map<number, Path[]>;
  /** Whether every branch delivers, by the address's slot (the model's) and arrival: 0 not known, 1 being worked out, 2 yes, 3 no. */
  delivers: Uint8Array;
}

/** The network's members, read once, and the walk of packets through them in one state. */
export class ReachabilityModel {
  private readonly nodes = new Map<string, Node>();
  private readonly down: Set<string>;
  private readonly cut: Set<string>;
  /** A small number per address asked about, so that the answers per member fit in an array. */
  private readonly slots = new Map<number, number>();

  constructor(compiled: CompiledNetwork, state: NetworkState = { down: [] }) {
    for (const m of compiled.members) this.nodes.set(m.router_name, nodeOf(m.router_name, m.json));
    this.down = new Set(state.down);
    this.cut = new Set((state.cut ?? []).flatMap((c) => (c.kind ? [c.kind] : (['tunnel', 'twin', 'mesh'] as const)).flatMap((k) => [cutKey(c.between[0], c.between[1], k), cutKey(c.between[1], c.between[0], k)])));
  }

  /** Every way a packet from `from` (its own traffic or its LAN's) to `to` goes; several where paths balance. */
  paths(from: string, to: Destination): Path[] {
    if (this.down.has(from)) return [{ hops: [], end: { delivered: false, at: from, why: 'down' } }];
    return this.walk(from, 'origin', 'address' in to ? ipToInt(to.address) : INTERNET, []);
  }

  /**
   * Whether every path delivers a packet from `from` to `to`, and the answer from there gets back to
   * `back`: the source's LAN address, or (null) the address of the interface the packet left by.
   */
  reaches(from: string, to: Destination, back: string | null): { forward: Path[]; reply: Path[]; ok: boolean } {
    const forward = this.paths(from, to);
    const reply: Path[] = [];
    for (const p of forward) {
      if (!p.end.delivered) continue;
      const at = p.hops.at(-1)?.member ?? from;
      const source = back ?? this.sourceAddressOf(from, p.hops[0]);
      if (source === null) {
        reply.push({ hops: [], end: { delivered: false, at: from, why: 'no-route' } });
        continue;
      }
      for (const r of this.paths(at, { address: source })) if (!reply.some((x) => sameHops(x, r))) reply.push(r);
    }
    const delivered = (ps: Path[]) => ps.length > 0 && ps.every((p) => p.end.delivered);
    return { forward, reply, ok: delivered(forward) && delivered(reply) };
  }

  /** The address a member's own traffic leaves with when it has no LAN: the address of the interface its first hop goes out of. */
  sourceAddressOf(member: string, firstHop: Hop | undefined): string | null {
    const m = this.nodes.get(member)?.json;
    if (!m) return null;
    if (m.member_type === 'point') {
      const t = firstHop ? m.tunnels.find((x) => x.center === firstHop.member) : m.tunnels.find((x) => x.address !== null);
      return t?.address ?? null;
    }
    if (firstHop && (firstHop.kind === 'twin' || firstHop.kind === 'mesh')) return m.links.find((l) => l.peer === firstHop.member)?.address ?? null;
    const service = firstHop ? m.services.find((s) => s.clients.some((c) => c.router_name === firstHop.member)) : undefined;
    return (service ?? m.services[0])?.address ?? m.links[0]?.address ?? null;
  }

  /**
   * Whether every path of a packet from `from` to the address delivers it, and the answer from there
   * gets back to `back` (the source's LAN address; null: the address it left by). The same answer as
   * reaches(...).ok without building the paths: what a whole network's map asks of every pair.
   */
  reachesAddress(from: string, address: string | number, back: string | number | null, owner?: string): boolean {
    if (this.down.has(from)) return false;
    const node = this.nodes.get(from);
    if (!node) return false;
    const to = typeof address === 'number' ? address : ipToInt(address);
    if (node.own.has(to) || node.lan.some((r) => within(r, to))) return true;
    // Every branch ends at the address's owner: the answer starts there.
    const at = owner ?? this.ownerOf(to);
    if (at === null) return false;
    if (back !== null) {
      // The source's own traffic and the answers to it share one memo: A → B's answer is B → A's question.
      return this.delivers(from, 'origin', to) && this.deliversFrom(at, typeof back === 'number' ? back : ipToInt(back));
    }
    const d = this.decide(node, 'origin', to);
    if (d.kind !== 'forward') return d.kind === 'delivered';
    return d.hops.every((hop) => {
      const source = this.sourceAddressOf(from, hop);
      return this.delivers(hop.member, arrivalOf(hop), to) && source !== null && this.deliversFrom(at, ipToInt(source));
    });
  }

  /** Builds a member's routes now (each takes time in proportion to the network), so that a long run can pause between members. */
  prepare(member: string): void {
    const node = this.nodes.get(member);
    if (node) this.tableOf(node);
  }

  /** The member an address is delivered at (its LAN or one of its own addresses), or null. */
  private ownerOf(address: number): string | null {
    for (const node of this.nodes.values()) if (node.own.has(address) || node.lan.some((r) => within(r, address))) return node.name;
    return null;
  }

  private deliversFrom(at: string, address: number): boolean {
    return !this.down.has(at) && this.delivers(at, 'origin', address);
  }

  /** Every branch from here delivers: memoised per member, arrival and address; a state met again on its own way is a loop. */
  private delivers(at: string, arrived: Arrival, address: number): boolean {
    const node = this.nodes.get(at);
    if (!node) return false;
    const key = this.slotOf(address) * 4 + ARRIVALS[arrived];
    if (key >= node.delivers.length) {
      const grown = new Uint8Array(Math.max(64, key * 2));
      grown.set(node.delivers);
      node.delivers = grown;
    }
    const known = node.delivers[key]!;
    if (known !== 0) return known === 2;
    node.delivers[key] = 1;
    const d = this.decide(node, arrived, address);
    const ok = d.kind === 'delivered' || (d.kind === 'forward' && d.hops.every((hop) => this.delivers(hop.member, arrivalOf(hop), address)));
    node.delivers[key] = ok ? 2 : 3;
    return ok;
  }

  private slotOf(address: number): number {
    let slot = this.slots.get(address);
    if (slot === undefined) this.slots.set(address, (slot = this.slots.size));
    return slot;
  }

  private walk(at: string, arrived: Arrival, address: number, seen: readonly string[]): Path[] {
    const node = this.nodes.get(at);
    if (!node) return [{ hops: [], end: { delivered: false, at, why: 'no-route' } }];
    if (seen.includes(at) || seen.length >= MAX_HOPS) return [{ hops: [], end: { delivered: false, at, why: 'loop' } }];
    // A walk from its source is asked for once per pair: only the hops after it are worth keeping.
    if (arrived === 'origin') return this.follow(node, arrived, address, seen);
    const key = address * 4 + ARRIVALS[arrived];
    // A walk depends on the members seen before only where it would come back to one of them.
    const known = node.walks.get(key);
    if (known && known.every((p) => (p.end.delivered || p.end.why !== 'loop') && p.hops.every((h) => !seen.includes(h.member)))) return known;
    const out = this.follow(node, arrived, address, seen);
    node.walks.set(key, out);
    return out;
  }

  private follow(node: Node, arrived: Arrival, address: number, seen: readonly string[]): Path[] {
    const d = this.decide(node, arrived, address);
    if (d.kind === 'delivered') return [{ hops: [], end: { delivered: true } }];
    if (d.kind === 'stop') return [{ hops: [], end: { delivered: false, at: node.name, why: d.why } }];
    const next = [...seen, node.name];
    const out: Path[] = [];
    for (const hop of d.hops) for (const p of this.walk(hop.member, arrivalOf(hop), address, next)) out.push({ hops: [hop, ...p.hops], end: p.end });
    return out;
  }

  /** What a member does with a packet for the address that arrived this way: delivers it, drops it (why), or sends it on. */
  private decide(node: Node, arrived: Arrival, address: number): Decision {
    const m = node.json;
    if (address === INTERNET) {
      // A member that advertises the default route sends the network's internet traffic out of its own uplink.
      if (m.default_route.mode === 'advertise' && arrived !== 'origin') return DELIVERED;
    } else {
      if (node.own.has(address) || node.lan.some((r) => within(r, address))) return DELIVERED;
      const subnet = node.subnets.find((s) => within(s.range, address));
      if (subnet) {
        const via = subnet.via !== null ? { via: subnet.via, client: null, cost: 0, rank: 0 } : node.neighbours.get(address);
        return via && this.live(node, via) ? this.forward(node, [via]) : stopped('unreachable');
      }
    }
    const route = this.lookup(node, address);
    if (route) {
      if (route.via === null) return stopped(node.blocked.some((b) => within(b, address)) ? 'denied' : 'unreachable');
      // A route group's prefixes share their paths: one decision for all of them.
      let d = node.forwards.get(route.via);
      if (!d) node.forwards.set(route.via, (d = this.forward(node, route.via)));
      return d;
    }
    if (m.member_type === 'point') return stopped(address === INTERNET && arrived !== 'origin' ? 'no-route' : 'outside');
    if (arrived === 'origin') return address === INTERNET && m.default_route.mode === 'advertise' ? DELIVERED : stopped('outside');
    // Transit: what came over a link never goes back over a link.
    const transit = m.transit.filter((v) => arrived !== 'link' || !isLink(v.via));
    if (transit.length === 0) return stopped('no-route');
    const best = bestPaths(transit.filter((v) => v.via === 'local' || this.live(node, v)), m.balance);
    if (best.length === 0) return stopped('unreachable');
    if (best.some((v) => v.via === 'local')) return address === INTERNET ? DELIVERED : stopped('outside');
    return this.forward(node, best);
  }

  private forward(node: Node, via: readonly RouteVia[]): Decision {
    const hops: Hop[] = [];
    for (const v of via) {
      const hop = hopOf(node, v);
      if (!hop) return stopped('no-route');
      hops.push(hop);
    }
    return { kind: 'forward', hops };
  }

  private live(node: Node, v: RouteVia): boolean {
    if (v.via === 'local') return true;
    const hop = hopOf(node, v);
    if (!hop || this.down.has(hop.member)) return false;
    if (this.cut.has(cutKey(node.name, hop.member, hop.kind === 'twin' || hop.kind === 'mesh' ? hop.kind : 'tunnel'))) return false;
    const m = node.json;
    if (m.member_type === 'point') return m.tunnels.some((t) => t.name === v.via && t.address !== null);
    if (hop.kind === 'client') {
      const client = this.nodes.get(hop.member)?.json;
      return client?.member_type === 'point' && client.tunnels.some((t) => t.center === node.name && t.address !== null);
    }
    return true;
  }

  /** The member's most specific route for the address (the default route matches what nothing else does), or null. */
  private lookup(node: Node, address: number): Route | null {
    const table = this.tableOf(node);
    if (address === INTERNET) {
      const fallback = table.byLength.get(0)?.get(0);
      // A live default route only: without one, what matches nothing leaves as it would without the network.
      return fallback?.via ? fallback : null;
    }
    for (const length of table.lengths) {
      const r = table.byLength.get(length)!.get(networkAt(address, length));
      if (!r) continue;
      if (length === 0 && r.via === null) return null;
      return r;
    }
    return null;
  }

  /** The member's routes in this state: blocked rows unreachable, each group on its best live paths (the agent's desiredState). */
  private tableOf(node: Node): NonNullable<Node['table']> {
    if (node.table) return node.table;
    const m = node.json;
    const own = new Set(m.lan);
    const byLength = new Map<number, Map<number, Route>>();
    const put = (cidr: string, via: RouteVia[] | null) => {
      if (own.has(cidr)) return;
      const r = cidrRange(cidr);
      let row = byLength.get(r.length);
      if (!row) byLength.set(r.length, (row = new Map()));
      if (!row.has(r.start)) row.set(r.start, { length: r.length, via });
    };
    for (const b of m.blocked) put(b, null);
    for (const g of m.routes) {
      const best = bestPaths(
        g.via.filter((v) => v.via !== 'local' && this.live(node, v)),
        m.balance,
      );
      for (const cidr of g.prefixes) put(cidr, best.length ? best : null);
    }
    node.table = { lengths: [...byLength.keys()].sort((a, b) => b - a), byLength };
    return node.table;
  }
}

function nodeOf(name: string, m: MemberJson): Node {
  const hops = new Map<string, Hop>();
  const subnets: Node['subnets'] = [];
  const neighbours = new Map<number, RouteVia>();
  const own = new Set<number>();
  if (m.member_type === 'point') {
    for (const t of m.tunnels) {
      hops.set(t.name, { member: t.center, kind: t.remotes[0]?.via === 'pop' ? 'pop' : 'tunnel' });
      subnets.push({ range: cidrRange(t.subnet), via: t.name });
      if (t.address) own.add(ipToInt(t.address));
    }
  } else {
    for (const s of m.services) {
      own.add(ipToInt(s.address));
      subnets.push({ range: cidrRange(s.subnet), via: null });
      for (const c of s.clients) {
        hops.set(`${s.service}\n${c.router_name}`, { member: c.router_name, kind: 'client' });
        if (c.address) neighbours.set(ipToInt(c.address), { via: s.service, client: c.router_name, cost: 0, rank: 0 });
      }
    }
    for (const l of m.links) {
      hops.set(l.name, { member: l.peer, kind: l.kind });
      own.add(ipToInt(l.address));
      subnets.push({ range: cidrRange(l.segment), via: null });
      neighbours.set(ipToInt(l.peer_address), { via: l.name, client: null, cost: 0, rank: 0 });
    }
  }
  return { name, json: m, lan: m.lan.map(cidrRange), blocked: m.blocked.map(cidrRange), own, subnets, neighbours, hops, table: null, forwards: new Map(), walks: new Map(), delivers: new Uint8Array(0) };
}

/** Where one path of a member's leads (its next member and how), or null for a path the member does not have. */
function hopOf(node: Node, v: RouteVia): Hop | null {
  return node.hops.get(v.via) ?? (v.client ? (node.hops.get(`${v.via}\n${v.client}`) ?? null) : null);
}

const cutKey = (a: string, b: string, kind: string) => `${a}\n${b}\n${kind}`;
const isLink = (instance: string) => instance.startsWith('link-') || instance.startsWith('mesh-');
const sameHops = (a: Path, b: Path) => a.hops.length === b.hops.length && a.hops.every((h, i) => h.member === b.hops[i]!.member && h.kind === b.hops[i]!.kind);
