import type { Generated } from 'kysely';

/** Personal API tokens: the api-token module owns them (`core/apiTokens.ts` records their use). */
export interface ApiTokensSchema {
  api_token: ApiTokenTable;
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
