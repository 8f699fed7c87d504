import { VPN_ADDRESS_SPACE, VPN_DEFAULT_POOLS } from '@hublink/contract';
import { allocate, fnv1a, intToIp, overlaps, parseCidr, rangeOf, sizeOf, type Range } from './ip';
import type { Endpoint, MemberInput, NetworkInput, Segment } from './model';

/*
 * The address plan of one network: each center's VPN subnet per service (hardware routers and software
 * clients connect to separate server instances), every point's fixed address in each of them, and the
 * twin-center link's segment. Segments the user set are kept when they overlap nothing already placed;
 * the rest are allocated from the network's pools, then from 100.64.0.0/10, never from the POP pools
 * nor over a member's LAN.
 */

export type Service = 'router' | 'software';
export const SERVICES: readonly Service[] = ['router', 'software'];

/** Every address the compiler hands out lies in the shared address space of RFC 6598 (the contract's, which the console's checks use too). */
const segmentOf = (s: { ip: string; mask: number }): Segment => ({ network: s.ip, mask: s.mask });
export const VPN_SPACE: Segment = segmentOf(VPN_ADDRESS_SPACE);
export const DEFAULT_POOLS = {
  center_network: segmentOf(VPN_DEFAULT_POOLS.center_network),
  pop: segmentOf(VPN_DEFAULT_POOLS.pop),
  pop_software: segmentOf(VPN_DEFAULT_POOLS.pop_software),
  center_link_network: segmentOf(VPN_DEFAULT_POOLS.center_link_network),
} satisfies Record<keyof NetworkInput['pools'], Segment>;
/** An allocated service subnet: 4,093 points. */
export const SERVICE_MASK = 20;
/** A link between two centers: two hosts. */
export const LINK_MASK = 30;
/** The twin-center link's port unless its endpoint sets one; the interconnect's pairs listen from MESH_PORT on. */
export const LINK_PORT = 1196;
export const MESH_PORT = 1200;

export class CompileError extends Error {}

export const serviceOf = (m: MemberInput): Service => (m.router_type === 2 ? 'software' : 'router');

export interface LinkPlan {
  /** twin: the twin-center link; mesh: one pair of the center interconnect. */
  kind: 'twin' | 'mesh';
  segment: Segment;
  server: MemberInput;
  client: MemberInput;
  endpoint: Endpoint | null;
  /** The port the server end listens on. */
  port: number;
}

export interface AddressPlan {
  subnets: Map<string, Record<Service, Segment>>;
  /** The links between centers: the twin-center link first, then the interconnect's pairs. */
  links: LinkPlan[];
  /** A point's address in a center's subnet of its service; null when the subnet is full. */
  addressOf(point: MemberInput, center: MemberInput): string | null;
  warnings: string[];
}

const show = (s: Segment) => `${s.network}/${s.mask}`;

export function planAddresses(input: NetworkInput, centers: MemberInput[], points: MemberInput[]): AddressPlan {
  const warnings: string[] = [];
  const taken: Range[] = [];
  const take = (s: Segment | null, what: string): Segment | null => {
    if (!s) return null;
    const r = rangeOf(s);
    if (taken.some((t) => overlaps(t, r))) {
      warnings.push(`${what} ${show(s)} overlaps another segment of the network; allocated another`);
      return null;
    }
    taken.push(r);
    return s;
  };

  const chosen = centers.map((c) => ({ router: take(c.gateway.router, `${c.router_name} router`), software: take(c.gateway.software, `${c.router_name} software`) }));
  const linkEnds = linkEndsOf(input, centers, warnings);
  let linkSegment = linkEnds ? take(input.center_link!.gateway, 'center link') : null;
  const pairs = input.interconnect ? meshPairsOf(centers) : [];
  const meshMask = LINK_MASK - Math.ceil(Math.log2(Math.max(1, pairs.length)));
  let meshSegment: Segment | null = null;
  if (pairs.length > 0 && input.interconnect!.segment) {
    if (input.interconnect!.segment.mask > meshMask) warnings.push(`interconnect ${show(input.interconnect!.segment)} holds fewer than ${pairs.length} links; allocated another`);
    else meshSegment = take(input.interconnect!.segment, 'interconnect');
  }

  // Never the POP pools, nor a member's LAN (a segment there would take the LAN's traffic into a tunnel).
  const lans = input.prefixes.flatMap((p) => {
    const s = parseCidr(`${p.ip}/${p.mask}`);
    return s && p.permission === 'permit' ? [rangeOf(s)] : [];
  });
  const reserved = [...[input.pools.pop ?? DEFAULT_POOLS.pop, input.pools.pop_software ?? DEFAULT_POOLS.pop_software].map(rangeOf), ...lans];
  const fresh = (mask: number, pool: Segment, what: string): Segment => {
    const s = allocate(mask, pool, [...taken, ...reserved]) ?? allocate(mask, VPN_SPACE, [...taken, ...reserved]);
    if (!s) throw new CompileError(`no room left in ${show(VPN_SPACE)} for ${what}`);
    taken.push(rangeOf(s));
    return s;
  };

  const subnets = new Map<string, Record<Service, Segment>>();
  centers.forEach((c, i) => {
    const pool = input.pools.center_network ?? DEFAULT_POOLS.center_network;
    const router = chosen[i]!.router ?? fresh(SERVICE_MASK, pool, `${c.router_name} router`);
    const software = chosen[i]!.software ?? fresh(SERVICE_MASK, pool, `${c.router_name} software`);
    subnets.set(c.router_name, { router, software });
  });
  const linkPool = input.pools.center_link_network ?? DEFAULT_POOLS.center_link_network;
  if (linkEnds && !linkSegment) linkSegment = fresh(LINK_MASK, linkPool, 'center link');
  const links: LinkPlan[] = [];
  if (linkEnds && linkSegment) {
    const endpoint = input.center_link!.endpoint;
    links.push({ kind: 'twin', segment: linkSegment, ...linkEnds, endpoint, port: endpoint?.static_port || LINK_PORT });
  }
  if (pairs.length > 0) {
    const segment = meshSegment ?? fresh(meshMask, linkPool, 'interconnect');
    pairs.forEach(([server, client], k) => {
      links.push({ kind: 'mesh', segment: { network: hostAt(segment, k * 4), mask: LINK_MASK }, server, client, endpoint: null, port: MESH_PORT + k });
    });
  }

  // Slots depend only on the subnet's size and the points of the service, so they are worked out once per size.
  const slotsBySize = new Map<string, Map<string, number>>();
  const slots = (service: Service, mask: number) => {
    const key = `${service}/${mask}`;
    let found = slotsBySize.get(key);
    if (!found) {
      found = assignSlots(
        points.filter((p) => serviceOf(p) === service),
        sizeOf(mask) - 3,
      );
      slotsBySize.set(key, found);
    }
    return found;
  };
  const starts = new Map([...subnets].map(([name, s]) => [name, { router: rangeOf(s.router).start, software: rangeOf(s.software).start }]));
  const full = new Set<string>();
  return {
    subnets,
    links,
    warnings,
    addressOf(point, center) {
      const subnet = subnets.get(center.router_name)![serviceOf(point)];
      const slot = slots(serviceOf(point), subnet.mask).get(point.router_name);
      if (slot === undefined) {
        const note = `${point.router_name}: no address left in ${center.router_name}'s ${show(subnet)}`;
        if (!full.has(note)) warnings.push(note);
        full.add(note);
        return null;
      }
      return intToIp(starts.get(center.router_name)![serviceOf(point)] + slot);
    },
  };
}

/** The host `offset` addresses into a subnet. */
export const hostAt = (subnet: Segment, offset: number) => intToIp(rangeOf(subnet).start + offset);
/** The first host of a subnet: the center's own address in it. */
export const centerAddressOf = (subnet: Segment) => hostAt(subnet, 1);

/**
 * Each point's host offset (2 … size-2) in any subnet of `capacity` + 3 addresses: a hash of its name,
 * probing onwards on a collision, names taken in sorted order. A point keeps its address while others
 * come and go, unless it collided with one of them.
 */
function assignSlots(points: MemberInput[], capacity: number): Map<string, number> {
  const out = new Map<string, number>();
  if (capacity <= 0) return out;
  const used = new Uint8Array(capacity);
  const keyed = points.map((p) => ({ name: p.router_name, key: p.router_name.toLowerCase() })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let free = capacity;
  for (const p of keyed) {
    if (free === 0) break;
    let slot = fnv1a(p.key) % capacity;
    while (used[slot]) slot = (slot + 1) % capacity;
    used[slot] = 1;
    free--;
    out.set(p.name, slot + 2);
  }
  return out;
}

/** Every pair of centers, the earlier one (in the network's order) serving. */
function meshPairsOf(centers: MemberInput[]): [MemberInput, MemberInput][] {
  const pairs: [MemberInput, MemberInput][] = [];
  for (let i = 0; i < centers.length; i++) for (let j = i + 1; j < centers.length; j++) pairs.push([centers[i]!, centers[j]!]);
  return pairs;
}

function linkEndsOf(input: NetworkInput, centers: MemberInput[], warnings: string[]) {
  if (!input.center_link) return null;
  const key = input.center_link.center_router_name.toLowerCase();
  const server = centers.find((c) => c.router_name.toLowerCase() === key);
  const client = centers.find((c) => c !== server);
  if (!server || !client) {
    warnings.push('center link needs two centers, its server one of them; left off');
    return null;
  }
  return { server, client };
}
