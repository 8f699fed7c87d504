import type { Generated, Selectable } from 'kysely';

/** Sub-accounts and their operation log: the ram module owns them. */
export interface RamSchema {
  ram_account: RamAccountTable;
  ram_log: RamLogTable;
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

export type RamAccount = Selectable<RamAccountTable>;
