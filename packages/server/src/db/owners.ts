import type { Database } from './types';

/**
 * Who owns each table, in one place (issue 35). The owner is the area that writes the table and keeps
 * its rules; every other writer is named on purpose, with why. The lint rule eslint/tableWriters.js
 * refuses a write (Kysely's insertInto, updateTable, deleteFrom, or a raw insert, update or delete)
 * anywhere else; tests and fixtures, the migrations and db/migrate.ts are outside it. The audit
 * trail reads `audited` and `key` from here.
 *
 * Areas are paths under packages/server/src: a folder (everything in it) or one file.
 */
export interface TableOwner {
  /** The area that owns the table. */
  owner: string;
  /** Other areas allowed to write it, each with the reason. */
  writers?: Readonly<Record<string, string>>;
  /** Whether the audit trail records changes of its rows: false for bookkeeping, logs, live state and compiled output. */
  audited: boolean;
  /** The primary key when it is not `id` (one column): the audit reads an updated row again by it. */
  key?: string;
}

const GATEWAY_LIVE = 'the device gateway writes what devices report';

export const OWNERS = {
  // Accounts, sign-in and the machinery's own tables.
  account: {
    owner: 'domain/accounts.ts',
    writers: {
      'ops/commands/tenants.ts': "the operator CLI sets a tenant's plan, status and sign-in source switch",
      'demo.ts': "the demo tenant's password is set at every demo start",
    },
    audited: true,
  },
  session: { owner: 'core', audited: false },
  setting: { owner: 'core', writers: { 'modules/site': 'the brands are setting rows of their own keys' }, audited: true, key: 'key' },
  verification_code: { owner: 'core', audited: false },
  email_validation: { owner: 'core', audited: false },
  outbox: { owner: 'core', audited: false },
  event: { owner: 'core', audited: false },
  event_delivery: { owner: 'core', audited: false },
  job_queue: { owner: 'core', audited: false },
  job_run: { owner: 'core', audited: false },
  audit_pending: { owner: 'core', audited: false },
  recovery: { owner: 'modules/auth', audited: false },
  ram_role: { owner: 'modules/ram-role', audited: true },
  ram_account: { owner: 'modules/ram', audited: true },
  ram_log: { owner: 'modules/ram', audited: false },
  api_token: { owner: 'modules/api-token', writers: { 'core/apiTokens.ts': "a token's last use is stamped as it authenticates a request" }, audited: true },
  audit_entry: { owner: 'modules/audit', audited: false },
  audit_setting: { owner: 'modules/audit', audited: true, key: 'tenant_id' },

  // Members.
  member: {
    owner: 'modules/router',
    writers: {
      gateway: `${GATEWAY_LIVE}: the live columns (online_status, online_time, version, os, router_model, router_mac, router_ipv4, interfaces, traffic)`,
      'domain/members.ts': 'every member insert and delete goes through createMembers and deleteMembers, which keep the quota checks and the member events the same for every area that adds or removes members',
      'modules/ldap': "the directory sync keeps its members' note and status as the directory changes",
      'demo.ts': "the demo devices' secret is set anew at every demo start",
    },
    audited: true,
  },
  member_count: { owner: 'modules/router', audited: false },
  member_import: { owner: 'modules/router', audited: true },
  member_import_row: { owner: 'modules/router', audited: false },
  device_credential: { owner: 'domain/deviceCredentials.ts', audited: true },
  saas_device: { owner: 'modules/saas', audited: true, key: 'member_id' },

  // Networks and what the compiler makes of them.
  network: { owner: 'modules/network', audited: true },
  network_member: { owner: 'modules/network', audited: true },
  network_prefix: { owner: 'modules/network', audited: true },
  network_version: { owner: 'modules/network', audited: false },
  member_command: { owner: 'modules/network', writers: { gateway: 'the gateway marks a queued command delivered when the device has it' }, audited: true },
  member_config: { owner: 'compiler', writers: { 'gateway/applied.ts': "the devices' answers: applied_version and applied_error" }, audited: false },
  network_pki: { owner: 'compiler', audited: true, key: 'network_id' },
  member_certificate: { owner: 'compiler', audited: true },
  pop_relay_port: { owner: 'compiler', audited: false },

  // POP and work orders.
  network_fr: { owner: 'modules/pop', audited: true },
  network_fr_area: { owner: 'modules/pop', audited: true },
  pop_relay: { owner: 'modules/pop', writers: { 'gateway/relayTable.ts': `${GATEWAY_LIVE}: a relay's live columns from its sync` }, audited: true },
  network_ticket: { owner: 'modules/network-ticket', audited: true },

  // The device gateway: live state and logs.
  member_link: { owner: 'gateway', writers: { 'modules/network': "a member's links in a network go when it leaves the network, in that change's transaction" }, audited: false },
  member_diagnosis: { owner: 'gateway', audited: false },
  device_session: { owner: 'gateway', audited: false },
  gateway_instance: { owner: 'gateway', audited: false },
  software_login: { owner: 'gateway', audited: false },
  online_log: { owner: 'gateway', audited: false },
  connect_log: { owner: 'gateway', audited: false },
  flow_minute: { owner: 'gateway', writers: { 'modules/saas/retention.ts': "the statistics' retention removes old minutes" }, audited: false },
  traffic_minute: { owner: 'gateway', writers: { 'modules/saas/retention.ts': "the statistics' retention removes old minutes" }, audited: false },
  device_approval_setting: { owner: 'modules/device-approval', audited: true },
  device_approval: { owner: 'modules/device-approval', writers: { 'gateway/approval.ts': 'the gateway records each device that says hello, for approval' }, audited: true },

  // Sign-in sources and the directory.
  auth_source: { owner: 'modules/auth-source', audited: true },
  auth_source_code: {
    owner: 'modules/auth-source',
    writers: { 'domain/accounts.ts': "a tenant's ID code is drawn when its account is made, so that reading it never writes" },
    audited: false,
  },
  auth_source_member: { owner: 'modules/auth-source', audited: true },
  ldap_config: { owner: 'modules/ldap', audited: true, key: 'tenant_id' },
  ldap_user: { owner: 'modules/ldap', audited: true },
  ldap_file: { owner: 'modules/ldap', audited: true },
  ldap_domain: { owner: 'modules/ldap', audited: true },

  // Monitoring.
  monitor_config: { owner: 'modules/monitor', audited: true, key: 'tenant_id' },
  monitor_router: { owner: 'modules/monitor', audited: true, key: 'member_id' },
  monitor_contact: { owner: 'modules/monitor', audited: true },
  monitor_webhook: { owner: 'modules/monitor', audited: true, key: 'tenant_id' },
  monitor_hook: { owner: 'modules/monitor', audited: true },
  monitor_state: { owner: 'modules/monitor', audited: false },
  monitor_alert: { owner: 'modules/monitor', audited: false },
  monitor_delivery: { owner: 'modules/monitor', audited: false },
  monitor_webhook_message: { owner: 'modules/monitor', audited: false },
  monitor_webhook_lane: { owner: 'modules/monitor', audited: false },

  // The rest of the console's areas.
  message: { owner: 'modules/message', audited: true },
  announcement: { owner: 'modules/announcement', audited: true },
  service: { owner: 'modules/service', audited: true },
  support_ticket: { owner: 'modules/ticket', audited: true },
  support_dialogue: { owner: 'modules/ticket', audited: true },
  support_file: { owner: 'modules/ticket', audited: true },
  document_node: { owner: 'modules/document', audited: true },
  document_page: { owner: 'modules/document', audited: true, key: 'node_id' },
  client_release: { owner: 'modules/download', audited: true },
} as const satisfies Record<keyof Database, TableOwner>;

export type Table = keyof typeof OWNERS;

const entryOf = (table: string): TableOwner | undefined => (Object.hasOwn(OWNERS, table) ? (OWNERS as Record<string, TableOwner>)[table] : undefined);

/** Whether the audit records a table's changes; tables outside the schema's types (the migrations' own) are not. */
export const isAudited = (table: string): boolean => entryOf(table)?.audited ?? false;

/** The primary key column of a table: `id` unless owners.ts says otherwise. */
export const keyColumnOf = (table: string): string => entryOf(table)?.key ?? 'id';
