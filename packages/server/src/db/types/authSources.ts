import type { Generated } from 'kysely';

/** Sign-in sources: the auth-source module owns them. */
export interface AuthSourcesSchema {
  auth_source: AuthSourceTable;
  auth_source_code: AuthSourceCodeTable;
  auth_source_member: AuthSourceMemberTable;
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
