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
  /** The address the area's POP is reached at. */
  host: string;
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
  /** The network's POP resource areas; empty without a POP. */
  pop_areas: PopAreaInput[];
}

/** Prefixes are written `a.b.c.d/m` in the output. */
export interface PrefixListEntry {
  seq: number;
  action: 'permit' | 'deny';
  prefix: string;
  ge: number | null;
  le: number | null;
}

/** What every member's configuration says. */
export interface CommonConfig {
  network_number: string;
  router_name: string;
  router_type: number;
  ciphers: { ncp_ciphers: 'default' | 'sm'; data_ciphers: string[]; auth: string | null };
  dns: string[];
  /** The member's own LAN prefixes the network routes to it (permit rows). */
  lan: string[];
  /** Dynamic routing: the prefix list (all rows, ge/le kept) the member's routing daemon announces with. */
  quagga: { enabled: boolean; prefix_list: PrefixListEntry[] };
  /** `from`: for a receiver, the advertisers by preference (lowest metric first). */
  default_route: { mode: 'off' | 'advertise' | 'receive'; metric: number | null; from: { router_name: string; metric: number }[] };
}

export interface ServiceClient {
  router_name: string;
  /** null when the subnet has no address left for it (see warnings). */
  address: string | null;
  lan: string[];
  dial_mode: number;
  /** Where the point can be reached (its fixed port), or null. */
  endpoint: { public_ip: string; public_port: number } | null;
  /** The center sends this point its default route. */
  redirect_gateway: boolean;
}

/** One server instance of a center: the hardware routers' or the software clients'. */
export interface ServiceConfig {
  service: 'router' | 'software';
  port: number;
  subnet: string;
  address: string;
  /** Where points dial it. */
  public: { host: string; port: number };
  /** Its clients; their LANs are routed into this instance. */
  clients: ServiceClient[];
}

export interface LinkConfig {
  role: 'server' | 'client';
  peer: string;
  segment: string;
  address: string;
  peer_address: string;
  port: number;
  /** The client's dial target; null on the server. */
  remote: { host: string; port: number } | null;
  /** The peer's LAN prefixes. */
  routes: string[];
}

export interface CenterConfig extends CommonConfig {
  member_type: 'center';
  /** Routes the center sends every client of both services: its own LAN, its twin's, every point's. */
  push_routes: string[];
  services: ServiceConfig[];
  center_link: LinkConfig | null;
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

/** One client instance of a point: to one center (dual primary) or to its main then backup center. */
export interface Tunnel {
  name: string;
  centers: { router_name: string; address: string | null }[];
  remotes: Remote[];
  route_metric: number;
}

export interface PointConfig extends CommonConfig {
  member_type: 'point';
  service: 'router' | 'software';
  /** After the network's line mode is applied: 1 default, 2 center first, 3 POP first. */
  dial_mode: number;
  /** The local port it binds (its fixed port), or null for any. */
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
   * software points and may run the twin-center link; a point dials each center, or its main then backup
   * center) and a center's client-config-dir files. Certificates are not inlined: the files name
   * `ca.crt`, `member.crt`, `member.key` and `crl.pem` beside them, which the agent provides.
   */
  openvpn: Record<string, string>;
}

export interface CompiledNetwork {
  network_number: string;
  /** One entry per member, in the input's member order. */
  members: MemberConfig[];
}
