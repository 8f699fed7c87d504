import type { Generated, Insertable, Selectable } from 'kysely';

/** The tenant and its sign-in: core owns them (`core/accounts.ts`, plan read by `core/plan.ts`; `tokens.ts`, `sessions.ts`, `codes.ts`, `outbox.ts`, `emailValidation.ts`). */
export interface AccountsSchema {
  account: AccountTable;
  session: SessionTable;
  setting: SettingTable;
  verification_code: VerificationCodeTable;
  outbox: OutboxTable;
  email_validation: EmailValidationTable;
}

/** A tenant: its main account, profile and plan. */
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

export interface SessionTable {
  id: string;
  tenant_id: number;
  ram_id: number | null;
  create_time: number;
  expires_at: number;
  refresh_until: number;
  /** This token's end: replaced by a refresh, signed out, or ended with its account's sessions. */
  revoked_at: number | null;
  /**
   * The first row of this sign-in's chain of refreshed tokens (migration 0037). Null on a row a release
   * before 0037 wrote during a rolling upgrade: such a row is its own chain (core/sessions.ts familyOf).
   */
  family_id: string | null;
  /** On a chain's first row: when the sign-in ended, which ends every token of the chain. */
  ended_at: number | null;
}

export interface SettingTable {
  key: string;
  value: string;
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

export type Account = Selectable<AccountTable>;
export type NewAccount = Insertable<AccountTable>;
