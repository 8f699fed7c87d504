import type { Generated } from 'kysely';

/** Roles of sub-accounts: the ram-role module owns them. */
export interface RamRolesSchema {
  ram_role: RamRoleTable;
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
