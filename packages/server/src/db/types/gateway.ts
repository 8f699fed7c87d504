import type { Generated } from 'kysely';

/** What the device gateway (`gateway/`) writes from the devices: links, logs, sessions, credentials, diagnosis, and the flow and traffic minutes the saas module reads. */
export interface GatewaySchema {
  member_link: MemberLinkTable;
  software_login: SoftwareLoginTable;
  online_log: OnlineLogTable;
  connect_log: ConnectLogTable;
  device_credential: DeviceCredentialTable;
  device_session: DeviceSessionTable;
  gateway_instance: GatewayInstanceTable;
  member_diagnosis: MemberDiagnosisTable;
  flow_minute: FlowMinuteTable;
  traffic_minute: TrafficMinuteTable;
}

/** The live state of a point's link to a center, as the device gateway last reported it. */
export interface MemberLinkTable {
  id: Generated<number>;
  network_id: number;
  member_id: number;
  center_member_id: number;
  vpn_online: Generated<number>;
  vpn_ip: Generated<string>;
  vpn_online_time: number | null;
  update_time: number;
  /** 'center' straight to the center, 'pop' through a POP relay, '' unknown (migration 0035). */
  path: Generated<string>;
  /** The POP area's name when path is 'pop'. */
  path_area: Generated<string>;
}

/** A software member's sign-in from its client (written by the device gateway). */
export interface SoftwareLoginTable {
  id: Generated<number>;
  tenant_id: number;
  router_name: string;
  ip: Generated<string>;
  os: Generated<string>;
  version: Generated<string>;
  sys_brand: Generated<string>;
  sys_model: Generated<string>;
  sys_version: Generated<string>;
  create_time: number;
}

/** One p2p or POP session of a member (written by the device gateway). */
export interface OnlineLogTable {
  id: Generated<number>;
  tenant_id: number;
  router_name: string;
  mode: string;
  network_number: Generated<string>;
  link_router_name: Generated<string>;
  pop_name: Generated<string>;
  area: Generated<string>;
  orig: Generated<string>;
  vpn_ip: Generated<string>;
  start_time: number;
  end_time: number | null;
  online_time: Generated<number>;
  /** The gateway session that wrote the row, and the device's own id of the session (migration 0018). */
  session_id: Generated<string>;
  device_key: Generated<string>;
  /** The session's own counters from the row's member's side, reported at its end (migration 0036); null: not reported. */
  bytes_in: number | null;
  bytes_out: number | null;
}

/** A device session's begin (online 1) or end (online 0); unique by session and direction. */
export interface ConnectLogTable {
  id: Generated<number>;
  tenant_id: number;
  member_id: number;
  router_name: string;
  remote_ip: Generated<string>;
  remote_port: Generated<number>;
  version: Generated<string>;
  online: number;
  session_id: string;
  create_time: number;
  /** Why a client's connection was refused at a center (migration 0033); '' for a session's rows. */
  reason: Generated<string>;
}

/** A device credential (migration 0018): issued by a welcome after a secret check; only its hash is kept. */
export interface DeviceCredentialTable {
  id: Generated<number>;
  tenant_id: number;
  member_id: number;
  token_hash: string;
  create_time: number;
  used_time: number;
}

/** An open device session (the row goes when the session ends and its connect-log row is written). */
export interface DeviceSessionTable {
  id: string;
  tenant_id: number;
  member_id: number;
  router_name: string;
  instance: string;
  remote_ip: Generated<string>;
  remote_port: Generated<number>;
  version: Generated<string>;
  start_time: number;
}

/** A gateway instance's heartbeat: its sessions count as open while it is recent. */
export interface GatewayInstanceTable {
  instance: string;
  seen_time: number;
}

/** What the device gateway last knew of a member's device (migration 0030, issue 18 diagnostics). */
export interface MemberDiagnosisTable {
  member_id: number;
  tenant_id: number;
  fail_time: number | null;
  fail_ip: Generated<string>;
  fail_code: Generated<number>;
  seen_time: number | null;
  seen_ip: Generated<string>;
  close_code: Generated<number>;
  close_reason: Generated<string>;
}

/** Flow records of a device added up per kind, name and minute (migration 0019). */
export interface FlowMinuteTable {
  tenant_id: number;
  member_id: number;
  kind: string;
  name: string;
  minute: number;
  download: number;
  upload: number;
}

/** A device's reported traffic rates added up per minute (migration 0019); the average is sum / samples. */
export interface TrafficMinuteTable {
  tenant_id: number;
  member_id: number;
  minute: number;
  down_sum: number;
  upload_sum: number;
  samples: number;
}
