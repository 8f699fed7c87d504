import type { Generated } from 'kysely';

/** Networks, their members, route prefixes and history: the network module owns them (it also queues `member_command`, which the device gateway delivers). */
export interface NetworksSchema {
  network: NetworkTable;
  network_member: NetworkMemberTable;
  network_prefix: NetworkPrefixTable;
  network_version: NetworkVersionTable;
  member_command: MemberCommandTable;
}

export interface NetworkTable {
  id: Generated<number>;
  tenant_id: number;
  network_number: string;
  network_name: string;
  network_type: Generated<number>;
  ncp_ciphers: Generated<string>;
  mode: Generated<number>;
  center_link: Generated<number>;
  /** JSON list of DNS server addresses. */
  dns: Generated<string>;
  /** 1 dual primary, 2 main-backup (migration 0011). */
  routing_type: Generated<number>;
  /** In main-backup mode the backup line's center (member id); null otherwise. */
  routing_secondary_id: Generated<number | null>;
  /** The POP resource the network uses (migration 0013); null without one. */
  network_fr_id: Generated<number | null>;
  /** JSON { pop, center_link_network, center_network, pop_software, other } of CIDR strings. */
  ip_pool: Generated<string>;
  /** JSON { gateway, mask, public_ip, public_port, static_port, center_router_name }: the twin-center link (migration 0014). */
  center_link_network: Generated<string>;
  /** Center interconnect on (1) or off (0), and its segment, JSON { gateway, mask } (migration 0014). */
  interconnect: Generated<number>;
  interconnect_network: Generated<string>;
  create_time: number;
  update_time: number;
}

export interface NetworkMemberTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  member_id: number;
  /** 'center' | 'point' */
  member_type: string;
  routing: Generated<number>;
  default_route: Generated<number>;
  metric: Generated<number>;
  quagga: Generated<number>;
  mode: Generated<number>;
  /** The POP areas (network_fr_area ids) the member dials, 0 for none (migration 0013). */
  ov_main: Generated<number>;
  ov_backup: Generated<number>;
  ov_priority: Generated<number>;
  /** JSON { router: { gateway, mask } | null, software: … }: a center's VPN segments. */
  gateway: Generated<string>;
  /** JSON { router: { public_ip, public_port, static_port } | null, software: … }. */
  fixed_port: Generated<string>;
  /** JSON list of the center member ids a point links to; null for every center (migration 0014). */
  link_centers: Generated<string | null>;
  create_time: number;
}

/** A route prefix of a network (migration 0014). */
export interface NetworkPrefixTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  position: number;
  ip: string;
  mask: number;
  /** The member (router_name) whose LAN the prefix is; '' for none. */
  name: Generated<string>;
  /** 'permit' | 'deny' */
  permission: Generated<string>;
  ge: number | null;
  le: number | null;
}

/** One version of a network's configuration (issue 18, migration 0029). */
export interface NetworkVersionTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  version: number;
  who_kind: string;
  who_name: Generated<string>;
  ram_id: number | null;
  api_token_id: number | null;
  summary: string;
  snapshot: string;
  create_time: number;
  /** JSON contract ChangeEffect: what the save did (issue 36); null when none was worked out. */
  effect: Generated<string | null>;
  /** 1: an applied network document left the network at this version (issue 36); null otherwise. */
  applied: Generated<number | null>;
}

/** A command queued for a member's device (kill, restart, resend_config); the device gateway delivers it. */
export interface MemberCommandTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  member_id: number;
  kind: string;
  /** JSON object of the command's arguments. */
  payload: Generated<string>;
  /** queued → sent (delivered to the device) → done | failed (its ack). */
  state: Generated<string>;
  /** The device's error text of a failed command (migration 0018). */
  error: Generated<string>;
  create_time: number;
  update_time: number;
}
