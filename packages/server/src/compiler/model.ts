import type { DynamicRouting, PrefixListEntry, RouteGroup, RouteVia, Timers } from '@hublink/contract';

/*
 * The network compiler's input and output (issue 12). The input is a plain snapshot of one network as
 * the database holds it (compiler/load.ts reads it); compileNetwork (compile.ts) is a pure function of it, so the same
 * snapshot always gives the same configs, byte for byte. Addresses are dotted IPv4 and masks prefix
 * lengths; a segment is { network, mask } with `network` already the network address of its mask.
 */

export interface Segment {
  network: string;
  mask: number;
}

/** A public endpoint a member is reached at (fixed port, twin-center link). */
export interface Endpoint {
  /** '' when the member's own address is used. */
  public_ip: string;
  public_port: number;
  /** The port the member listens on locally. */
  static_port: number;
}

export interface PrefixInput {
  /** The member whose LAN this prefix is (router_name), advertised by it to the network. */
  router_name: string;
  ip: string;
  mask: number;
  permission: 'permit' | 'deny';
  /** With advanced routing only; null when not set. */
  ge: number | null;
  le: number | null;
}

export interface MemberInput {
  router_name: string;
  /** The address the member last reported (member.router_ipv4); '' when unknown. */
  public_host: string;
  /** 1 hardware router, 2 software client. */
  router_type: number;
  member_type: 'center' | 'point';
  /** 1 main line, 2 backup line (centers, in main-backup routing). */
  routing: number;
  /** 0 off, 1 advertise, 2 receive. */
  default_route: number;
  /** 30, 60, 90, 120 or 150. */
  metric: number;
  /** Dynamic routing 0/1. */
  quagga: number;
  /** Dial mode 1 default, 2 center first, 3 POP first. */
  mode: number;
  /**
   * Fixed ports: a center's for its hardware and software services (its `port`, the points' `remote`);
   * a point's for the service it dials (its local port, and where its centers can reach it). null when not set.
   */
  fixed_port: { router: Endpoint | null; software: Endpoint | null };
  /** A center's VPN segments for hardware and software clients; null when not set. */
  gateway: { router: Segment | null; software: Segment | null };
  /** The POP areas the member dials (area ids of the network's POP resource), 0 for none. */
  ov: { main: number; backup: number; priority: number };
  /** A point's centers (router_names) it links to; null (or none of them a center) for every center. */
  link_centers: string[] | null;
}

export interface PopAreaInput {
  id: number;
  name: string;
  /** The address the area's POP relay is reached at ('' when the area has none). */
  host: string;
  port: number;
  /**
   * The relay's ports (pop_relay_port, allocated from `port` up by compiler/relayPorts.ts): a point
   * dials its center through the area at `host` and the port of that center and service. A center
   * without one is not reached through the area.
   */
  relays: RelayPortInput[];
}

export interface RelayPortInput {
  /** The center's router_name. */
  center: string;
  service: 'router' | 'software';
  port: number;
}

export interface NetworkInput {
  network_number: string;
  /** 1 dual primary, 2 main-backup. */
  routing_type: number;
  ncp_ciphers: 'default' | 'sm';
  /** Network-level line mode (POP config): 1 default, 2 center first, 3 POP first. */
  mode: number;
  dns: string[];
  prefixes: PrefixInput[];
  members: MemberInput[];
  /** Address pools the compiler allocates from; null entries are left to the defaults. */
  pools: {
    center_network: Segment | null;
    center_link_network: Segment | null;
    pop: Segment | null;
    pop_software: Segment | null;
  };
  /** The twin-center link between the two centers, or null when off; gateway null: allocated from the pools. */
  center_link: { gateway: Segment | null; center_router_name: string; endpoint: Endpoint | null } | null;
  /** The center interconnect (every pair of centers linked), or null when off; segment null: allocated from the pools. */
  interconnect: { segment: Segment | null } | null;
  /** The network's POP resource areas; empty without a POP. */
  pop_areas: PopAreaInput[];
}

// The parts of a configuration the agent reads are typed once, in the contract (dataPlane.ts).
export type { BgpNeighbor, DynamicRouting, PrefixListEntry, RouteGroup, RouteVia, Timers } from '@hublink/contract';
/** What every member's configuration says. */
export interface CommonConfig {
  network_number: string;
  router_name: string;
  router_type: number;
  ciphers: { ncp_ciphers: 'default' | 'sm'; data_ciphers: string[]; auth: string | null };
  /** The network's DNS servers: the agent makes them the member's resolvers while it is in the network. */
  dns: string[];
  /** The member's own LAN prefixes (its permit rows): routed to it by the others, never away from it here. */
  lan: string[];
  /** Dynamic routing: the prefix list (all rows, ge/le kept) the member's routing daemon announces with. */
  quagga: { enabled: boolean; prefix_list: PrefixListEntry[] };
  /** `from`: for a receiver, the advertisers by preference (lowest metric first). */
  default_route: { mode: 'off' | 'advertise' | 'receive'; metric: number | null; from: { router_name: string; metric: number }[] };
  /** The member routes for others (a center, a member with a LAN, an advertiser): the agent turns on IP forwarding. */
  forwarding: boolean;
  /** Dual primary: equal-cost paths are used together (per-flow multipath); main-backup: the lowest rank. */
  balance: boolean;
  timers: Timers;
  /** Where the rest of the network's prefixes go (the member's own LAN is never among them). */
  routes: RouteGroup[];
  /** Deny rows inside another member's permitted prefixes: never routed to or through it (unreachable here). */
  blocked: string[];
  /** The member advertises the default route: traffic from the network's tunnels leaving by another interface is masqueraded. */
  nat: boolean;
  /** null when neither this member nor (for a center) any member it carries has dynamic routing on. */
  dynamic: DynamicRouting | null;
}

export interface ServiceClient {
  router_name: string;
  /** null when the subnet has no address left for it (see warnings). */
  address: string | null;
  /** What the center's OpenVPN routes to this client: its LAN, and for an advertising point the default route (see iroutesOf). */
  iroutes: string[];
  dial_mode: number;
  /** Where the point can be reached (its fixed port), or null. */
  endpoint: { public_ip: string; public_port: number } | null;
}

/** One server instance of a center: the hardware routers' or the software clients'. */
export interface ServiceConfig {
  service: 'router' | 'software';
  port: number;
  subnet: string;
  address: string;
  /** Where points dial it. */
  public: { host: string; port: number };
  /** Its clients (the points linked to this center, of this service). */
  clients: ServiceClient[];
}

/** A point-to-point link between two centers: the twin-center link, or one pair of the center interconnect. */
export interface LinkConfig {
  /** Its instance: `link-<peer>` (twin) or `mesh-<peer>` (interconnect). */
  name: string;
  kind: 'twin' | 'mesh';
  role: 'server' | 'client';
  peer: string;
  segment: string;
  address: string;
  peer_address: string;
  /** The port the server end listens on. */
  port: number;
  /** The client's dial target; null on the server. */
  remote: { host: string; port: number } | null;
}

export interface CenterConfig extends CommonConfig {
  member_type: 'center';
  services: ServiceConfig[];
  links: LinkConfig[];
  /**
   * Where traffic that arrives from the network's tunnels for an address outside every prefix goes:
   * 'local' (this center advertises: out of its own uplink, masqueraded), a client that advertises, or a
   * link toward a center that offers it. Empty: nowhere (such traffic is not forwarded into the network).
   */
  transit: RouteVia[];
  /** What the address plan could not honour (a user segment overlapping another, a full subnet). */
  warnings: string[];
}

export interface Remote {
  host: string;
  port: number;
  via: 'center' | 'pop';
  /** The center's router_name or the POP area's name. */
  name: string;
}

/** One client instance of a point: to one center, always up (a backup center's tunnel is a hot standby). */
export interface Tunnel {
  /** `center-<center>`. */
  name: string;
  /** The center's router_name: the only name its certificate may carry. */
  center: string;
  /** The point's address in the center's subnet (null: the subnet is full). */
  address: string | null;
  /** The center's subnet of the point's service, and the center's own address in it. */
  subnet: string;
  center_address: string;
  remotes: Remote[];
  /** 0 for the first (main) center, then 1, 2, … in the network's center order. */
  rank: number;
}

export interface PointConfig extends CommonConfig {
  member_type: 'point';
  service: 'router' | 'software';
  /** After the network's line mode is applied: 1 default, 2 center first, 3 POP first. */
  dial_mode: number;
  /** The local port its first tunnel binds (its fixed port), or null for any. */
  local_port: number | null;
  tunnels: Tunnel[];
}

export type MemberJson = CenterConfig | PointConfig;

/** What a member's device needs: its own addresses, the peers it serves or dials, routes and DNS. */
export interface MemberConfig {
  router_name: string;
  role: 'server' | 'client';
  /** Structured form, the agent's input; its key order is fixed by construction, so JSON.stringify is canonical. */
  json: MemberJson;
  /**
   * The rendered OpenVPN files by relative path: one `.conf` per instance (a center serves hardware and
   * software points and runs its links to other centers; a point dials each of its centers) and a
   * center's client-config-dir files. Keys are not inlined: the files name `ca.crt`,
   * `member.crt`, `member.key`, `tls-crypt.key` and `crl.pem` beside them, which the agent provides.
   */
  openvpn: Record<string, string>;
}

export interface CompiledNetwork {
  network_number: string;
  /** One entry per member, in the input's member order. */
  members: MemberConfig[];
}
