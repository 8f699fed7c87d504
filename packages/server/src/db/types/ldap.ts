import type { Generated } from 'kysely';

/** Directory sync: the ldap module owns them. */
export interface LdapSchema {
  ldap_config: LdapConfigTable;
  ldap_user: LdapUserTable;
  ldap_file: LdapFileTable;
  ldap_domain: LdapDomainTable;
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
