/*
 * The parts of a member's compiled configuration (packages/server/src/compiler/model.ts, MemberJson)
 * that the device agent reads for its routing (packages/agent/src/routing, src/frr), typed once for
 * both. docs/networking.md says what each does on a device. The agent still reads them defensively:
 * they come over the wire.
 */

/** Prefixes are written `a.b.c.d/m` in the output. */
export interface PrefixListEntry {
  seq: number;
  action: 'permit' | 'deny';
  prefix: string;
  ge: number | null;
  le: number | null;
}

/**
 * The keepalive and failover timers every tunnel and link of the network runs with (seconds), and the
 * hold-down the agent applies before it uses a tunnel that came back (docs/networking.md, "Failover").
 */
export interface Timers {
  /** A ping is sent on every tunnel and link when nothing else was sent for this long. */
  ping: number;
  /** Nothing received for this long: the tunnel restarts, and its routes move to the next best path. */
  ping_restart: number;
  /** A tunnel that was up before and came back is used again after it stayed up this long. */
  hold_down: number;
  /** The hold-down doubles for each time the tunnel went down within flap_window, up to this. */
  hold_down_max: number;
  flap_window: number;
}

/**
 * One way a group of prefixes can go: through an OpenVPN instance of the member (a point's tunnel to a
 * center, a center's link to another center, or a center's server for one of its clients). The agent
 * uses, per group, the live candidates of the lowest cost; among equal costs the lowest rank, or all of
 * them (equal-cost multipath) where the network balances.
 */
export interface RouteVia {
  /** The instance: the name of its .conf file without `.conf`; 'local' (a center's own uplink) only in `transit`. */
  via: string;
  /** On a center's server: usable only while this client is connected to it. */
  client: string | null;
  cost: number;
  rank: number;
}

/**
 * Of a group's usable paths, the ones a member sends on: the cheapest, and among equal costs the lowest
 * rank's first one, or every one of them where the network balances (per-flow multipath). The agent
 * routes by it; the server's reachability model predicts by it.
 */
export function bestPaths<V extends { cost: number; rank: number }>(usable: readonly V[], balance: boolean): V[] {
  if (usable.length === 0) return [];
  const cost = Math.min(...usable.map((v) => v.cost));
  const best = usable.filter((v) => v.cost === cost);
  if (balance) return best;
  const rank = Math.min(...best.map((v) => v.rank));
  return best.filter((v) => v.rank === rank).slice(0, 1);
}

export interface RouteGroup {
  /** `a.b.c.d/m`; `0.0.0.0/0` is the default route (installed as two /1 routes beside the member's own). */
  prefixes: string[];
  via: RouteVia[];
}

/** A BGP peer of the member over one of its tunnels or links. */
export interface BgpNeighbor {
  name: string;
  /** The peer's address on the tunnel or link. */
  address: string;
  /** The instance the session runs over. */
  via: string;
  kind: 'center' | 'point';
  /** What is accepted from the peer (its prefix list), or null to accept what it sends (a center). */
  accept: PrefixListEntry[] | null;
  /**
   * BGP local preference of what the peer sends (100, FRR's default, or less). A center prefers a route
   * from the point that owns it to the same route reflected by another center (which would otherwise
   * make the two centers send it to each other); a main-backup point prefers its main center.
   */
  preference: number;
}

/**
 * Dynamic routing (the member's quagga flag, docs/networking.md "Dynamic routing"): FRRouting with OSPF
 * on the member's own LAN interfaces, to learn the routes of the routers there, and iBGP over the
 * tunnels, centers reflecting to their points. Every prefix goes through the owner's prefix list when
 * it is announced and again when a center accepts it.
 */
export interface DynamicRouting {
  asn: number;
  /** Tags this network's routes, so a device in two networks never carries one network's routes into the other. */
  community: string;
  router_id: string;
  /** OSPF runs on the interfaces whose addresses lie in these prefixes (the member's permit rows); empty: none. */
  ospf_networks: string[];
  /** The member's own prefix list: what it announces; null for a center that only reflects. */
  announce: PrefixListEntry[] | null;
  neighbors: BgpNeighbor[];
  /** Equal-cost paths BGP may install (2 where the network balances). */
  maximum_paths: number;
}
