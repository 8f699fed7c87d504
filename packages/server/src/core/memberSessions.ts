import { createHash, randomBytes } from 'node:crypto';
import { CODE, LIMITS, M, ROUTER_TYPE, type SelfSession, SM, CM } from '@hublink/contract';
import { z } from 'zod';
import { bearerToken } from './actor';
import type { Ctx } from './context';
import { ApiError } from './errors';

/*
 * A member's self-service session (issue 30): what a software member gets by signing in on the
 * console's self-service page, and all the 'member' calls take. It is not an account's session: no
 * row in `session`, no JWT; a random token whose hash names a value in the shared store (Redis with
 * several instances) for LIMITS.selfSessionSeconds, not renewed. It names one member of one tenant,
 * and every call checks that the member is still an enabled software member of an enabled tenant.
 */

export interface MemberSession {
  tenantId: number;
  memberId: number;
}

/** issued_at: when it was signed in (ms); sessions from before it was written count as issued at 0. */
const value = z.object({ tenant_id: z.number(), member_id: z.number(), issued_at: z.number().default(0) });
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const sessionKey = (token: string) => `self:session:${sha256(token)}`;
/** Until when a member's sessions issued before it are void (endMemberSessions); kept as long as a session lives. */
const revokedKey = (memberId: number) => `self:revoked:${memberId}`;

export async function issueMemberSession(ctx: Ctx, member: { tenant_id: number; id: number }): Promise<SelfSession> {
  const token = randomBytes(32).toString('base64url');
  await ctx.store.set(sessionKey(token), JSON.stringify({ tenant_id: member.tenant_id, member_id: member.id, issued_at: Date.now() }), LIMITS.selfSessionSeconds);
  return { token, expires_in: LIMITS.selfSessionSeconds };
}

/** Whether a member may use self-service: 'gone' (removed, or no longer a software member), 'disabled' (it or its tenant), or 'ok'. */
export async function memberStanding(ctx: Pick<Ctx, 'db'>, tenantId: number, memberId: number): Promise<'gone' | 'disabled' | 'ok'> {
  const member = await ctx.db
    .selectFrom('member')
    .innerJoin('account', 'account.id', 'member.tenant_id')
    .select(['member.status', 'member.router_type', 'account.status as tenant_status'])
    .where('member.id', '=', memberId)
    .where('member.tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!member || member.router_type !== ROUTER_TYPE.software) return 'gone';
  return member.status !== 1 || member.tenant_status !== 1 ? 'disabled' : 'ok';
}

/**
 * The member a bearer token names; 2001 when there is none (no token, unknown, expired, the member
 * removed or no longer a software member), 2003 when the member or its tenant is disabled.
 */
export async function authenticateMember(ctx: Ctx, header: string | undefined): Promise<MemberSession> {
  const token = bearerToken(header);
  if (!token) throw new ApiError(CODE.tokenInvalid, M.tokenMissing);
  const raw = await ctx.store.get(sessionKey(token));
  const s = raw === null ? undefined : value.safeParse(JSON.parse(raw)).data;
  if (!s) throw new ApiError(CODE.tokenInvalid, SM.selfSessionExpired);
  const revoked = await ctx.store.get(revokedKey(s.member_id));
  if (revoked !== null && s.issued_at <= Number(revoked)) throw new ApiError(CODE.tokenInvalid, SM.selfSessionExpired);
  const standing = await memberStanding(ctx, s.tenant_id, s.member_id);
  if (standing === 'gone') throw new ApiError(CODE.tokenInvalid, SM.selfSessionExpired);
  if (standing === 'disabled') throw new ApiError(CODE.accountDisabled, CM.clientDisabled);
  return { tenantId: s.tenant_id, memberId: s.member_id };
}

/** Ends every self-service session of a member signed in until now (its password changed): it signs in again. */
export async function endMemberSessions(ctx: Pick<Ctx, 'store'>, memberId: number): Promise<void> {
  await ctx.store.set(revokedKey(memberId), String(Date.now()), LIMITS.selfSessionSeconds);
}

/** Ends the session the token names (nothing when it names none). */
export async function endMemberSession(ctx: Ctx, header: string | undefined): Promise<void> {
  const token = bearerToken(header);
  if (token) await ctx.store.del(sessionKey(token));
}
