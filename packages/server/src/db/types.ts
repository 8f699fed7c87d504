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
  create_time: number;
  update_time: number;
}

export interface RamRoleTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
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
  revoked_at: number | null;
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

export interface Database {
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
}
