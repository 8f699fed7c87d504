import type { Generated, Insertable, Selectable } from 'kysely';

/** Times are epoch milliseconds; flags are 0/1 integers (the same on SQLite and PostgreSQL). */
export interface AccountTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  nickname: string;
  password_hash: string;
  phone: string | null;
  email: string | null;
  sign: string;
  domain: string;
  status: Generated<number>;
  birthday: string | null;
  industry: string | null;
  occupation: string | null;
  software_auth_source: Generated<number>;
  auth_quagga: Generated<number>;
  auth_quagga_advanced: Generated<number>;
  auth_default_route: Generated<number>;
  network_level: number;
  network_router_count: number;
  network_center_count: number;
  dns_quantity: number;
  /** How many sub-accounts the tenant may have. */
  ram_quantity: number;
  /** Distinct members of the tenant in at least one network, kept by triggers (migration 0007). */
  network_router_use: Generated<number>;
  create_time: number;
  update_time: number;
}

export interface RamRoleTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  /** name lower-cased: unique in the tenant. */
  name_key: string;
  note: string;
  /** JSON of the role's auth object (spec 1 §3). */
  auth: string;
  create_time: number;
  update_time: number;
}

export interface RamAccountTable {
  id: Generated<number>;
  tenant_id: number;
  username: string;
  username_key: string;
  nickname: string;
  role_id: number;
  password_hash: string;
  status: number;
  create_time: number;
  login_time: number | null;
}

export interface SessionTable {
  id: string;
  tenant_id: number;
  ram_id: number | null;
  create_time: number;
  expires_at: number;
  refresh_until: number;
  /** This token's end: replaced by a refresh, signed out, or ended with its account's sessions. */
  revoked_at: number | null;
  /** The first row of this sign-in's chain of refreshed tokens (migration 0037; every row has one). */
  family_id: string;
  /** On a chain's first row: when the sign-in ended, which ends every token of the chain. */
  ended_at: number | null;
}

export interface VerificationCodeTable {
  id: Generated<number>;
  destination: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  create_time: number;
  expires_at: number;
  used_at: number | null;
}

export interface RecoveryTable {
  id: string;
  account_id: number;
  verified_channel: string | null;
  create_time: number;
  expires_at: number;
}

export interface OutboxTable {
  id: Generated<number>;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  code: string;
  status: string;
  error: string | null;
  create_time: number;
}

export interface MessageTable {
  id: Generated<number>;
  tenant_id: number;
  title: string;
  content: string;
  type: string;
  status: number;
  create_time: number;
  /** Set by writers that may be told twice (an alert's message: 'alert:<id>'); unique in the tenant (migration 0022). */
  dedupe_key: Generated<string | null>;
}

export interface AnnouncementTable {
  id: Generated<number>;
  title: string;
  tag: string;
  content: string;
  release_time: number;
}

export interface SettingTable {
  key: string;
  value: string;
}

/** A tenant's sign-in source (migration 0021). */
export interface AuthSourceTable {
  id: Generated<number>;
  tenant_id: number;
  type: string;
  name: string;
  name_key: string;
  app_id: string;
  /** Sealed with the secret box. */
  app_secret: string;
  agent_id: Generated<string>;
  corp_id: Generated<string>;
  status: Generated<number>;
  create_time: number;
  update_time: number;
}

/** A tenant's ID code for the sign-in sources. */
export interface AuthSourceCodeTable {
  tenant_id: number;
  code: string;
  create_time: number;
}

/** A member a sign-in source created, and the provider identity it belongs to. */
export interface AuthSourceMemberTable {
  id: Generated<number>;
  tenant_id: number;
  source_id: number;
  member_id: number;
  external_key: string;
  create_time: number;
}

export interface Database {
  document_node: DocumentNodeTable;
  document_page: DocumentPageTable;
  client_release: ClientReleaseTable;
  auth_source: AuthSourceTable;
  auth_source_code: AuthSourceCodeTable;
  auth_source_member: AuthSourceMemberTable;
  account: AccountTable;
  ram_role: RamRoleTable;
  ram_account: RamAccountTable;
  session: SessionTable;
  verification_code: VerificationCodeTable;
  recovery: RecoveryTable;
  outbox: OutboxTable;
  message: MessageTable;
  announcement: AnnouncementTable;
  setting: SettingTable;
  email_validation: EmailValidationTable;
  service: ServiceTable;
  ram_log: RamLogTable;
  member: MemberTable;
  member_count: MemberCountTable;
  network: NetworkTable;
  network_member: NetworkMemberTable;
  member_link: MemberLinkTable;
  member_command: MemberCommandTable;
  software_login: SoftwareLoginTable;
  online_log: OnlineLogTable;
  event: EventTable;
  event_delivery: EventDeliveryTable;
  job_queue: JobQueueTable;
  job_run: JobRunTable;
  network_pki: NetworkPkiTable;
  member_certificate: MemberCertificateTable;
  network_fr: NetworkFrTable;
  network_fr_area: NetworkFrAreaTable;
  network_ticket: NetworkTicketTable;
  member_config: MemberConfigTable;
  network_prefix: NetworkPrefixTable;
  device_credential: DeviceCredentialTable;
  gateway_instance: GatewayInstanceTable;
  device_session: DeviceSessionTable;
  connect_log: ConnectLogTable;
  saas_device: SaasDeviceTable;
  flow_minute: FlowMinuteTable;
  traffic_minute: TrafficMinuteTable;
  monitor_config: MonitorConfigTable;
  monitor_router: MonitorRouterTable;
  monitor_contact: MonitorContactTable;
  monitor_webhook: MonitorWebhookTable;
  monitor_hook: MonitorHookTable;
  monitor_state: MonitorStateTable;
  monitor_alert: MonitorAlertTable;
  monitor_delivery: MonitorDeliveryTable;
  monitor_webhook_message: MonitorWebhookMessageTable;
  monitor_webhook_lane: MonitorWebhookLaneTable;
  ldap_file: LdapFileTable;
  ldap_domain: LdapDomainTable;
  ldap_config: LdapConfigTable;
  ldap_user: LdapUserTable;
  support_ticket: SupportTicketTable;
  support_dialogue: SupportDialogueTable;
  support_file: SupportFileTable;
  member_import: MemberImportTable;
  member_import_row: MemberImportRowTable;
  network_version: NetworkVersionTable;
  api_token: ApiTokenTable;
  audit_entry: AuditEntryTable;
  audit_setting: AuditSettingTable;
  audit_pending: AuditPendingTable;
  member_diagnosis: MemberDiagnosisTable;
  device_approval_setting: DeviceApprovalSettingTable;
  device_approval: DeviceApprovalTable;
  pop_relay: PopRelayTable;
  pop_relay_port: PopRelayPortTable;
}

/** A domain event (the transactional outbox); payload is the event's JSON. */
export interface EventTable {
  id: Generated<number>;
  tenant_id: number;
  type: string;
  payload: string;
  create_time: number;
}

/** One event for one subscriber: pending until handled (done) or given up (dead). */
export interface EventDeliveryTable {
  id: Generated<number>;
  event_id: number;
  tenant_id: number;
  subscriber: string;
  state: Generated<'pending' | 'done' | 'dead'>;
  attempts: Generated<number>;
  next_at: number;
  /** Until when an instance holds it (epoch ms); 0 when nobody does. */
  lease_until: Generated<number>;
  error: string | null;
  done_at: number | null;
}

/** A one-off job waiting to run (SQLite; pg-boss keeps PostgreSQL's). */
export interface JobQueueTable {
  id: Generated<number>;
  name: string;
  data: string;
  run_at: number;
  attempts: Generated<number>;
  create_time: number;
}

/** One run of a job on some instance. */
export interface JobRunTable {
  id: Generated<number>;
  job: string;
  job_id: string;
  instance: string;
  outcome: 'running' | 'ok' | 'failed' | 'given_back';
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

export type Account = Selectable<AccountTable>;
export type NewAccount = Insertable<AccountTable>;
export type RamAccount = Selectable<RamAccountTable>;

export interface ServiceTable {
  id: Generated<number>;
  tenant_id: number;
  service_name: string;
  quantity: number;
  start_time: number;
  expired_time: number;
  create_time: number;
}

/** An emailed validation link; `subject` and `subject_id` say what the address belongs to. */
export interface EmailValidationTable {
  id: Generated<number>;
  token_hash: string;
  tenant_id: number;
  email: string;
  subject: string;
  subject_id: string;
  create_time: number;
  expires_at: number;
  used_at: number | null;
}

/** One successful mutating call of a sub-account (its operation log). */
export interface RamLogTable {
  id: Generated<number>;
  tenant_id: number;
  ram_id: number;
  mode: string;
  action: string;
  message: string;
  create_time: number;
  /** The operation.performed event the row was written from (null for rows from before events). */
  event_id: Generated<number | null>;
}

/** A hardware router (router_type 1) or a software client (2) of a tenant. */
export interface MemberTable {
  id: Generated<number>;
  tenant_id: number;
  router_name: string;
  /** router_name lower-cased: unique in the tenant, and for hardware across tenants. */
  router_key: string;
  router_type: number;
  note: Generated<string>;
  /** Software: the login password; hardware: the device secret. */
  secret_hash: string;
  area_number: string | null;
  phone: string | null;
  status: Generated<number>;
  online_status: Generated<number>;
  version: Generated<string>;
  os: Generated<string>;
  source: Generated<string>;
  name: Generated<string>;
  router_model: Generated<string>;
  router_ipv4: Generated<string>;
  router_mac: Generated<string>;
  online_time: number | null;
  /** JSON list of the interfaces the device reported (migration 0018). */
  interfaces: Generated<string>;
  /** Byte counters the device last reported. */
  traffic_in: Generated<number>;
  traffic_out: Generated<number>;
  /** How many networks the member is in, kept by triggers (migration 0007). */
  network_count: Generated<number>;
  create_time: number;
  update_time: number;
}

/** Members per tenant and kind, kept by triggers on member (migration 0006). */
export interface MemberCountTable {
  tenant_id: number;
  router_type: number;
  n: number;
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

/** A POP (franchise) resource of a tenant (migration 0013). */
export interface NetworkFrTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  /** 1 valid, otherwise processing. */
  status: Generated<number>;
  create_time: number;
  expire_time: number;
}

export interface NetworkFrAreaTable {
  id: Generated<number>;
  tenant_id: number;
  network_fr_id: number;
  region: string;
  name: string;
  /** Mbps */
  bandwidth: number;
  host: Generated<string>;
  port: Generated<number>;
}

/** A network work order (migration 0013). */
export interface NetworkTicketTable {
  id: Generated<number>;
  tenant_id: number;
  network_ticket_number: string;
  network_number: string;
  network_ticket_type: number;
  network_ticket_status: Generated<number>;
  service_name: Generated<string>;
  /** JSON { bandwidth, pop, expired_time, pop_conf } */
  attributes: Generated<string>;
  create_time: number;
  complete_time: number | null;
  update_time: number;
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

/** A POP relay the operator registered for an area (migration 0035); seen_time and the load are its last report. */
export interface PopRelayTable {
  id: Generated<number>;
  tenant_id: number;
  area_id: number;
  name: string;
  token_hash: string;
  create_time: number;
  seen_time: number | null;
  address: Generated<string>;
  sessions: Generated<number>;
  bytes_in: Generated<number>;
  bytes_out: Generated<number>;
}

/** One port of an area's relays (migration 0035, kept by the compiler): where it forwards. */
export interface PopRelayPortTable {
  id: Generated<number>;
  tenant_id: number;
  area_id: number;
  network_id: number;
  center_member_id: number;
  service: string;
  port: number;
  target_host: Generated<string>;
  target_port: Generated<number>;
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

/** A network's CA and CRL (migration 0012); the CA key sealed by core/secretBox.ts, never plaintext. */
export interface NetworkPkiTable {
  network_id: number;
  tenant_id: number;
  /** PEM */
  ca_cert: string;
  ca_key_sealed: string;
  /** The network's OpenVPN tls-crypt key, sealed (migration 0032); null in a row made before them until it is first needed. */
  tls_crypt_sealed: string | null;
  /** PEM (X509 CRL) */
  crl: string;
  create_time: number;
  update_time: number;
}

/** A certificate issued to a member in a network (migration 0012); its key sealed, never plaintext. */
export interface MemberCertificateTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  member_id: number;
  /** 'server' (a center) | 'client' (a point or software member) */
  role: string;
  common_name: string;
  /** Lowercase hex, unique in the network. */
  serial: string;
  /** PEM */
  cert: string;
  key_sealed: string;
  /** End of validity, epoch ms. */
  not_after: number;
  /** When the member left the network (epoch ms); null while the certificate is in force. */
  revoked_at: number | null;
  create_time: number;
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

/** A member's compiled configuration in a network (migration 0017); version grows when hash changes. */
export interface MemberConfigTable {
  id: Generated<number>;
  tenant_id: number;
  network_id: number;
  member_id: number;
  version: number;
  /** sha256 (hex) of the canonical config and openvpn texts. */
  hash: string;
  /** JSON text of the structured configuration. */
  config: string;
  /** JSON text of the OpenVPN files by relative path. */
  openvpn: string;
  update_time: number;
  /** The version the device last said it applied, and its error if it failed (migration 0018). */
  applied_version: Generated<number>;
  applied_error: Generated<string>;
  /** When the device acknowledged applied_version (migration 0030); null before any acknowledgement. */
  applied_time: number | null;
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

// ---- issue 12, POP (migration 0015): merged into the table interfaces above ----

export interface NetworkFrTable {
  /** The access-POP order (network_ticket.id) that created it; NULL for one made by hand. */
  ticket_id: Generated<number | null>;
}

export interface NetworkFrAreaTable {
  /** JSON list of the router names the order's pop_conf put in this region. */
  routers: Generated<string>;
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

/** A gateway instance's heartbeat: its sessions count as open while it is recent. */
export interface GatewayInstanceTable {
  instance: string;
  seen_time: number;
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

/** A hardware member's SaaS attributes, set by the operator (migration 0019). */
export interface SaasDeviceTable {
  member_id: number;
  tenant_id: number;
  category: Generated<string>;
  share: Generated<number>;
  bandwidth: Generated<number>;
  max_bandwidth: Generated<number>;
  expire_time: number | null;
  temp_bandwidth: Generated<number>;
  temp_start_time: number | null;
  temp_expire_time: number | null;
  /** JSON list of addresses. */
  ip: Generated<string>;
  create_time: number;
  update_time: number;
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

/** A tenant's monitoring alerts (migration 0022); flags are 0/1. */
export interface MonitorConfigTable {
  tenant_id: number;
  enable: number;
  enable_time: number | null;
  portal_confirm: number;
  email_confirm: number;
  webhook_confirm: number;
  router_online: number;
  router_offline: number;
  service_expired: number;
  pop_connect: number;
  create_time: number;
  update_time: number;
}

/** A monitored device (a hardware member); goes with its member. */
export interface MonitorRouterTable {
  member_id: number;
  tenant_id: number;
  create_time: number;
}

export interface MonitorContactTable {
  id: Generated<number>;
  uuid: string;
  tenant_id: number;
  name: string;
  email: string;
  email_key: string;
  email_verify: Generated<number>;
  verify_sent_at: number | null;
  create_time: number;
  update_time: number;
}

export interface MonitorWebhookTable {
  tenant_id: number;
  type: string;
  url: string;
  /** Sealed by the secret box; null when none. */
  secret: string | null;
  create_time: number;
  update_time: number;
}

/** One of a tenant's webhooks (migration 0043): the default is its oldest. */
export interface MonitorHookTable {
  id: Generated<number>;
  uuid: string;
  tenant_id: number;
  name: string;
  type: string;
  url: string;
  /** Sealed by the secret box (context monitor_webhook:<tenant>); null when none. */
  secret: string | null;
  /** Alert kinds, comma-separated. */
  kinds: string;
  /** Comma-separated; '' for none. */
  at_mobiles: Generated<string>;
  at_user_ids: Generated<string>;
  at_all: Generated<number>;
  create_time: number;
  update_time: number;
}

/** A monitored member's online state as the alert engine follows it. */
export interface MonitorStateTable {
  member_id: number;
  tenant_id: number;
  last_change_at: number;
  offline_at: number | null;
  alerted: Generated<number>;
}

export interface MonitorAlertTable {
  id: Generated<number>;
  tenant_id: number;
  dedupe_key: string;
  kind: string;
  member_id: number | null;
  router_name: Generated<string>;
  title: string;
  text: string;
  at: number;
  create_time: number;
}

export interface MonitorDeliveryTable {
  id: Generated<number>;
  tenant_id: number;
  alert_id: number;
  channel: string;
  target: string;
  contact_id: number | null;
  status: string;
  attempts: Generated<number>;
  last_error: string | null;
  next_at: number;
  lease_until: Generated<number>;
  create_time: number;
  update_time: number;
  done_at: number | null;
  /** The webhook message carrying it (migration 0044); null for other channels and before it is grouped. */
  message_id: Generated<number | null>;
}

/** One message to a webhook, carrying the deliveries of the alerts grouped into it (migration 0044). */
export interface MonitorWebhookMessageTable {
  id: Generated<number>;
  tenant_id: number;
  target: string;
  status: string;
  close_at: number;
  next_at: number;
  attempts: Generated<number>;
  last_error: string | null;
  create_time: number;
  update_time: number;
  done_at: number | null;
}

/** A webhook's sending state: lease, grouping window, recent attempts (migration 0044). */
export interface MonitorWebhookLaneTable {
  tenant_id: number;
  target: string;
  window_until: Generated<number>;
  lease_until: Generated<number>;
  recent: Generated<string>;
  update_time: number;
}

/** A CA certificate a tenant uploaded for LDAPS or StartTLS (migration 0020); the file is in ctx.storage. */
export interface LdapFileTable {
  id: Generated<number>;
  tenant_id: number;
  file_name: string;
  storage_key: string;
  create_time: number;
}

/** A domain a tenant named for LDAP: its verification token, and when the file was found (null until then). */
export interface LdapDomainTable {
  id: Generated<number>;
  tenant_id: number;
  domain: string;
  token: string;
  verify_time: number | null;
  create_time: number;
}

/** A tenant's directory connection and the state of its sync (one row per tenant). */
export interface LdapConfigTable {
  tenant_id: number;
  mode: string;
  router_name: Generated<string>;
  domain: string;
  host: string;
  port: number;
  base_dn: string;
  use_ssl: Generated<number>;
  use_tls: Generated<number>;
  ca_id: number | null;
  type: number;
  username: string;
  /** Sealed with ctx.secretBox. */
  password: string;
  network_number: Generated<string>;
  sync_mode: Generated<number>;
  status: Generated<number>;
  create_time: number;
  update_time: number;
  sync_status: Generated<number>;
  sync_message: Generated<string>;
  sync_time: number | null;
  sync_seconds: Generated<number>;
  sync_cycle: number;
  sync_due: number;
  generation: Generated<number>;
  user_count: Generated<number>;
  /** User selection and attribute mapping (migration 0040). */
  user_group: Generated<string>;
  user_filter: Generated<string>;
  name_attr: Generated<string>;
  name_lower: Generated<number>;
  note_attr: Generated<string>;
  phone_attr: Generated<string>;
  email_attr: Generated<string>;
  /** 1: the automatic sync imports the users it sees for the first time (migration 0041). */
  auto_import: Generated<number>;
}

/** A directory user as the last sync read it, and the software member imported for it. */
export interface LdapUserTable {
  id: Generated<number>;
  tenant_id: number;
  uuid: string;
  dn: string;
  username: string;
  description: Generated<string>;
  disabled: Generated<number>;
  member_id: number | null;
  verify: Generated<string>;
  /** The member name the user maps to (contract memberNameOf; '' when nothing is left) and its key (lower case), migration 0040. */
  member_name: Generated<string>;
  member_key: Generated<string>;
  phone: Generated<string>;
  email: Generated<string>;
  seen: number;
  /** Where the directory's password-change mark last stood ('' before a sync read one; migration 0041). */
  password_mark: Generated<string>;
  create_time: number;
  update_time: number;
}

/** A support ticket (migration 0023). */
export interface SupportTicketTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_number: string;
  title: string;
  content: string;
  type: number;
  /** 1 pending, 2 replied, 3 closed. */
  status: Generated<number>;
  /** The sub-account that raised it; null for the main account. */
  ram_id: number | null;
  raised_by: string;
  grade: number | null;
  appraise_content: string | null;
  appraise_time: number | null;
  create_time: number;
  update_time: number;
}

/** One entry of a ticket's dialogue: the tenant's reply or the service's answer. */
export interface SupportDialogueTable {
  id: Generated<number>;
  ticket_id: number;
  tenant_id: number;
  reply_type: 'tenant' | 'service';
  ram_id: number | null;
  reply_name: string;
  content: string;
  create_time: number;
}

/** An image uploaded for a ticket: pending (0), attached (1) or discarded (2). */
export interface SupportFileTable {
  id: Generated<number>;
  file_id: string;
  tenant_id: number;
  storage_key: string;
  content_type: string;
  size: number;
  state: Generated<number>;
  ticket_id: number | null;
  dialogue_id: number | null;
  create_time: number;
}

/** A node of the help menu: a section (type 1) or a document (type 2), named by its path in the handbook. */
export interface DocumentNodeTable {
  id: Generated<number>;
  path: string;
  fid: number;
  title: string;
  type: number;
  sort: number;
  update_time: number;
}

/** A document's content: HTML rendered from its Markdown and sanitised. */
export interface DocumentPageTable {
  node_id: number;
  content: string;
}

/** A client release the operator published: a package in storage (tenant 0) or a link. */
export interface ClientReleaseTable {
  id: Generated<number>;
  platform: string;
  panel: Generated<string>;
  arch: Generated<string>;
  version: string;
  notes: string;
  file_key: string | null;
  file_name: string | null;
  file_size: number | null;
  url: string | null;
  create_time: number;
}

/** A bulk import of software members (issue 16): its progress, kept by the job that adds the rows. */
export interface MemberImportTable {
  id: Generated<number>;
  tenant_id: number;
  state: string;
  file_key: string;
  total: number;
  done: Generated<number>;
  fail: Generated<number>;
  heartbeat_at: number;
  create_time: number;
  finish_time: number | null;
}

/** One spreadsheet row an import has done: added (ok 1) or refused with its reason. */
export interface MemberImportRowTable {
  id: Generated<number>;
  import_id: number;
  tenant_id: number;
  row: number;
  router_name: string;
  ok: number;
  msg: string;
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
}

/** A personal API token of a main account (issue 18): only its SHA-256 is kept, never the token. */
export interface ApiTokenTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  /** The first characters of the token ('hlk_' and 8 more), shown in the list. */
  prefix: string;
  /** SHA-256 of the whole token, hex. */
  token_hash: string;
  /** 'read' | 'role'. */
  scope: string;
  /** The role a 'role' token acts as; its row may be gone (the token is then unusable). */
  role_id: number | null;
  create_time: number;
  expires_at: number;
  revoked_at: number | null;
  /** Written at most once a minute (LIMITS.apiTokenLastUseSeconds). */
  last_used_at: number | null;
  last_used_ip: string | null;
}

/** One audited call (issue 18), written from its operation.performed event. */
export interface AuditEntryTable {
  id: Generated<number>;
  tenant_id: number;
  event_id: number;
  create_time: number;
  who: string;
  ram_id: number | null;
  token_id: number | null;
  actor_name: Generated<string>;
  ip: Generated<string>;
  user_agent: Generated<string>;
  source: string;
  method: string;
  path: string;
  msg: string;
  area: string;
  kind: string;
  object_type: string;
  object_id: string;
  object_name: string;
  /** JSON: contract auditRowChange[]. */
  changes: string;
  more: Generated<number>;
}

/** An audited row change written with the change itself, until its call's entry is (migration 0038). */
export interface AuditPendingTable {
  id: Generated<number>;
  scope_id: string;
  /** JSON: core/audit.ts PendingCall. */
  call: string;
  /** JSON: core/audit.ts CapturedChange[]. */
  changes: string;
  more: Generated<number>;
  create_time: number;
}

/** A tenant's audit retention; no row: LIMITS.auditRetentionDays. */
export interface AuditSettingTable {
  tenant_id: number;
  retention_days: number;
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

/** A tenant's device approval setting (migration 0034, issue 30); no row: off. */
export interface DeviceApprovalSettingTable {
  id: Generated<number>;
  tenant_id: number;
  enabled: number;
  /** When approval was last turned on. */
  enabled_time: number | null;
  update_time: number;
}

/** A device a member signed in from, and whether it may (migration 0034, issue 30). */
export interface DeviceApprovalTable {
  id: Generated<number>;
  tenant_id: number;
  member_id: number;
  device_key: string;
  ip: Generated<string>;
  os: Generated<string>;
  model: Generated<string>;
  brand: Generated<string>;
  /** 'waiting' | 'approved' | 'refused'. */
  state: string;
  first_time: number;
  last_time: number;
  decided_by: Generated<string>;
  decided_time: number | null;
}
