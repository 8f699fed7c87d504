import { CODE, M, type RoleAuth } from '@hublink/contract';
import type { Db } from '../db/connect';
import { authenticateApiToken, isApiToken } from './apiTokens';
import { ApiError } from './errors';
import type { TokenService } from './tokens';

export type { RoleAuth };

/** Who is calling: always a tenant; a sub-account also has its id and role. */
export interface Actor {
  tenantId: number;
  ramId: number | null;
  sessionId: string;
  role: RoleAuth | null;
  /** Set when the call was made with a personal API token (issue 18) instead of a console session. */
  apiTokenId?: number;
  /** That token's name (the audit trail and the network history name the caller by it). */
  apiTokenName?: string;
  /**
   * A token's scope: 'read' acts as the main account for GET calls only; 'role' has its role's
   * permissions (role set, ramId null) as a sub-account of that role would. guard.ts applies both.
   */
  apiTokenScope?: 'read' | 'role';
}

export const bearerToken = (header: string | undefined): string | null => {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m ? m[1]! : null;
};

/**
 * Resolves a bearer token into an actor; throws 2001 (missing/invalid/revoked), 2002 (expired),
 * 2003 (disabled). A personal API token ('hlk_…', core/apiTokens.ts) gives an actor with apiTokenId. With allowExpired (the refresh call) a token whose time ran out is accepted as
 * long as its session lives; with replacedToo (the sign-out) one a refresh replaced, while its sign-in lasts.
 */
export async function authenticate(
  db: Db,
  tokens: TokenService,
  header: string | undefined,
  opts: { allowExpired?: boolean; ip?: string; replacedToo?: boolean } = {},
): Promise<Actor> {
  const token = bearerToken(header);
  if (!token) throw new ApiError(CODE.tokenInvalid, M.tokenMissing);
  if (isApiToken(token)) {
    const t = await authenticateApiToken(db, token, opts.ip);
    return { tenantId: t.tenantId, ramId: null, sessionId: '', role: t.role, apiTokenId: t.apiTokenId, apiTokenName: t.apiTokenName, apiTokenScope: t.scope };
  }
  const claims = await tokens.decode(token, opts.allowExpired);
  // The session, its account and a sub-account's role in one indexed read: every call pays for it.
  const s = await db
    .selectFrom('session')
    .innerJoin('account', 'account.id', 'session.tenant_id')
    .leftJoin('ram_account', (j) => j.onRef('ram_account.id', '=', 'session.ram_id').onRef('ram_account.tenant_id', '=', 'session.tenant_id'))
    .leftJoin('ram_role', 'ram_role.id', 'ram_account.role_id')
    .leftJoin('session as sign_in', (j) => j.on((eb) => eb('sign_in.id', '=', eb.fn.coalesce('session.family_id', 'session.id'))))
    .select(['session.tenant_id', 'session.ram_id', 'session.revoked_at', 'sign_in.ended_at', 'account.status', 'ram_account.status as ram_status', 'ram_role.auth'])
    .where('session.id', '=', claims.sid)
    .executeTakeFirst();
  // A token replaced by a refresh is revoked while its sign-in goes on (ended_at is the sign-in's end).
  const revoked = s !== undefined && s.revoked_at !== null && !(opts.replacedToo && s.ended_at === null);
  if (!s || revoked || s.ended_at !== null || s.tenant_id !== claims.tid || (s.ram_id ?? 0) !== claims.rid) {
    throw new ApiError(CODE.tokenInvalid, M.tokenInvalid);
  }
  if (s.status !== 1) throw new ApiError(CODE.accountDisabled, M.accountDisabled);
  if (claims.rid === 0) return { tenantId: claims.tid, ramId: null, sessionId: claims.sid, role: null };
  if (s.ram_status === null || s.auth === null) throw new ApiError(CODE.tokenInvalid, M.tokenInvalid);
  if (s.ram_status !== 1) throw new ApiError(CODE.accountDisabled, M.accountDisabled);
  return { tenantId: claims.tid, ramId: claims.rid, sessionId: claims.sid, role: JSON.parse(s.auth) as RoleAuth };
}
