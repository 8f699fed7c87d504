import type { Generated } from 'kysely';

/** Members (routers and software clients) and their bulk imports: the router module owns them; the device gateway writes the live columns of `member`, triggers keep `member_count`. */
export interface MembersSchema {
  member: MemberTable;
  member_count: MemberCountTable;
  member_import: MemberImportTable;
  member_import_row: MemberImportRowTable;
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
