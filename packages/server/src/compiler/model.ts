/*
 * The network compiler's input and output (issue 12). The input is a plain snapshot of one network as
 * the database holds it (compiler/load.ts reads it); compile() is a pure function of it, so the same
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
  /** A center's fixed ports for its hardware and software services; null when not set. */
  fixed_port: { router: Endpoint | null; software: Endpoint | null };
  /** A center's VPN segments for hardware and software clients; null when not set. */
  gateway: { router: Segment | null; software: Segment | null };
  /** The POP areas the member dials (area ids of the network's POP resource), 0 for none. */
  ov: { main: number; backup: number; priority: number };
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
  /** The twin-center link between the two centers, or null when off. */
  center_link: { gateway: Segment; center_router_name: string; endpoint: Endpoint | null } | null;
  /** The network's POP resource areas; empty without a POP. */
  pop_areas: PopAreaInput[];
}

/** What a member's device needs: its own addresses, the peers it serves or dials, routes and DNS. */
export interface MemberConfig {
  router_name: string;
  role: 'server' | 'client';
  /** Structured form, the agent's input. */
  json: Record<string, unknown>;
  /** The rendered OpenVPN configuration (without certificates: the agent adds its own). */
  openvpn: string;
}

export interface CompiledNetwork {
  network_number: string;
  /** One entry per member, in the input's member order. */
  members: MemberConfig[];
}
