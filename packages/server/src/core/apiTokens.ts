import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX, API_TOKEN_SHOWN_CHARS, CODE, LIMITS, M, type RoleAuth } from '@hublink/contract';
import type { Db } from '../db/connect';
import { ApiError } from './errors';

/*
 * Personal API tokens (issue 18): what authentication needs of them. A token has 256 random bits, so
 * one SHA-256 is as good as a slow hash here and costs nothing per call; only the hash is kept.
 */

export const hashApiToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new token, the part of it the list shows, and its hash. */
export function newApiToken(): { token: string; prefix: string; hash: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, prefix: token.slice(0, API_TOKEN_SHOWN_CHARS), hash: hashApiToken(token) };
}

export const isApiToken = (bearer: string): boolean => bearer.startsWith(API_TOKEN_PREFIX);

export interface ApiTokenIdentity {
  tenantId: number;
  apiTokenId: number;
  /** The token's name, as entries written for its calls show it. */
  apiTokenName: string;
  scope: 'read' | 'role';
  /** The role's permissions as they are now (a 'role' token), or null ('read'). */
  role: RoleAuth | null;
}

/**
 * The token's holder and rights, read fresh on every call (so a role's change applies at once):
 * 2001 unknown, revoked, or its role deleted; 2002 expired; 2003 its account disabled. The last use
 * is written when the stored one is older than LIMITS.apiTokenLastUseSeconds (the condition sits in
 * the update, so instances racing on one token write once).
 */
export async function authenticateApiToken(db: Db, token: string, ip: string | undefined, now = Date.now()): Promise<ApiTokenIdentity> {
  if (!API_TOKEN_PATTERN.test(token)) throw new ApiError(CODE.tokenInvalid, M.apiTokenInvalid);
  const row = await db
    .selectFrom('api_token')
    .innerJoin('account', 'account.id', 'api_token.tenant_id')
    .leftJoin('ram_role', (j) => j.onRef('ram_role.id', '=', 'api_token.role_id').onRef('ram_role.tenant_id', '=', 'api_token.tenant_id'))
    .select(['api_token.id', 'api_token.name', 'api_token.tenant_id', 'api_token.scope', 'api_token.expires_at', 'api_token.revoked_at', 'api_token.last_used_at', 'account.status', 'ram_role.auth'])
    .where('api_token.token_hash', '=', hashApiToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) throw new ApiError(CODE.tokenInvalid, M.apiTokenInvalid);
  if (row.expires_at <= now) throw new ApiError(CODE.tokenExpired, M.apiTokenExpired);
  if (row.status !== 1) throw new ApiError(CODE.accountDisabled, M.accountDisabled);
  if (row.scope === 'role' && row.auth === null) throw new ApiError(CODE.tokenInvalid, M.apiTokenRoleDeleted);
  const throttle = LIMITS.apiTokenLastUseSeconds * 1000;
  if (row.last_used_at === null || row.last_used_at <= now - throttle) {
    await db
      .updateTable('api_token')
      .set({ last_used_at: now, last_used_ip: ip ?? null })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - throttle)]))
      .execute();
  }
  return {
    tenantId: row.tenant_id,
    apiTokenId: row.id,
    apiTokenName: row.name,
    scope: row.scope === 'role' ? 'role' : 'read',
    role: row.scope === 'role' ? (JSON.parse(row.auth!) as RoleAuth) : null,
  };
}
