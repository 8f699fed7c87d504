import { createHash, randomBytes } from 'node:crypto';
import { CODE, LIMITS, M, ROUTER_TYPE, selfDownload, endpointUrl, type SelfProfileLink, type SelfProfiles, type SelfSession, SM, CM } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../core/context';
import { ApiError, forbidden, invalid, notFound, tooMany } from '../core/errors';
import type { FileAnswer } from '../core/http';
import { issueMemberSession, memberStanding, type MemberSession } from '../core/memberSessions';
import { DUMMY_HASH, verifyPassword } from '../core/passwords';
import { networksOfMember, ownProfile } from '../compiler/profileService';
import { attemptSucceeded, reserveAttempt } from '../gateway/auth';
import { memberLimitKey, namesMember, passwordVerdict } from '../gateway/clientAuth';

/*
 * A member's self-service page (issue 30, docs/clients.md): the member signs in with what it types in
 * a client (gateway/clientAuth.ts's rules: name@sign or its bound phone; its password, or its
 * directory password), failures counting under the gateway's keys, so the page and the clients share
 * one count; it then reads its own profiles only, and makes single-use links for a phone.
 */

const MEMBER_COLUMNS = ['member.id', 'member.tenant_id', 'member.router_name', 'member.router_key', 'member.phone', 'member.status', 'member.secret_hash', 'member.source', 'account.sign', 'account.status as tenant_status'] as const;

/** A phone as a login gives it: no spaces or dashes, and without China's country code. */
const phoneOf = (login: string) => {
  const given = login.replace(/[\s-]/g, '');
  return /^\+?86\d{11}$/.test(given) ? given.replace(/^\+?86/, '') : given;
};

/**
 * The software members a login names: `name@sign` names one at most; a bound phone is unique within a
 * tenant only, so it may name one in each of a few tenants (the password then decides).
 */
async function membersNamed(ctx: Ctx, login: string) {
  const base = () => ctx.db.selectFrom('member').innerJoin('account', 'account.id', 'member.tenant_id').select(MEMBER_COLUMNS).where('member.router_type', '=', ROUTER_TYPE.software);
  const at = login.lastIndexOf('@');
  const rows =
    at > 0
      ? await base()
          .where('member.router_key', '=', login.slice(0, at).toLowerCase())
          .where('account.sign', '=', login.slice(at + 1))
          .execute()
      : /^\d{5,}$/.test(phoneOf(login))
        ? await base().where('member.phone', '=', phoneOf(login)).orderBy('member.id').limit(LIMITS.selfPhoneMembersMax).execute()
        : [];
  // The gateway's rule decides, so the page admits exactly the logins a client is admitted with.
  return rows.filter((m) => namesMember(login, m));
}

/**
 * Signs a member in. A wrong password counts against the member and the address (the gateway's
 * limits); a member whose count is full is not tried; a disabled member is refused after its password
 * was proven, so the refusal tells nothing to someone who does not know it.
 */
export async function signIn(ctx: Ctx, ip: string, login: string, password: string): Promise<SelfSession> {
  const members = await membersNamed(ctx, login);
  if (members.length === 0) {
    if (!(await reserveAttempt(ctx, `a:${login.toLowerCase()}`, ip))) throw tooMany(CM.clientTooManyAttempts);
    await verifyPassword(password, DUMMY_HASH);
    throw invalid(CM.clientWrongPassword);
  }
  let limited = 0;
  let unavailable = false;
  for (const member of members) {
    const key = memberLimitKey(member);
    const attempt = await reserveAttempt(ctx, key, ip);
    if (!attempt) {
      limited++;
      continue;
    }
    const verdict = await passwordVerdict(ctx, member, password);
    if (verdict === 'unavailable') {
      unavailable = true;
      await attempt.release();
    } else if (verdict !== 'wrong') {
      await attemptSucceeded(ctx, attempt, key);
      if (verdict === 'disabled' || member.status !== 1 || member.tenant_status !== 1) throw forbidden(CM.clientDisabled);
      return issueMemberSession(ctx, member);
    }
  }
  if (unavailable) throw invalid(CM.clientDirectoryUnavailable);
  if (limited === members.length) throw tooMany(CM.clientTooManyAttempts);
  throw invalid(CM.clientWrongPassword);
}

/** The signed-in member (authenticateMember has checked it is an enabled software member). */
async function memberOf(ctx: Ctx, s: MemberSession) {
  return ctx.db
    .selectFrom('member')
    .innerJoin('account', 'account.id', 'member.tenant_id')
    .select(['member.id', 'member.router_name', 'member.phone', 'account.sign'])
    .where('member.id', '=', s.memberId)
    .where('member.tenant_id', '=', s.tenantId)
    .executeTakeFirstOrThrow();
}

/** The networks of the member only. */
export async function profilesOf(ctx: Ctx, s: MemberSession): Promise<SelfProfiles> {
  const member = await memberOf(ctx, s);
  const networks = await networksOfMember(ctx, s.tenantId, s.memberId);
  return { router_name: member.router_name, login: `${member.router_name}@${member.sign}`, phone: member.phone ?? '', networks };
}

/** The member's own profile in one of its networks (another network reads as not found). */
export async function profileOf(ctx: Ctx, s: MemberSession, networkNumber: string): Promise<FileAnswer> {
  const member = await memberOf(ctx, s);
  return ownProfile(ctx, s.tenantId, networkNumber, member.router_name);
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const linkKey = (token: string) => `self:link:${sha256(token)}`;
const linkValue = z.object({ tenant_id: z.number(), member_id: z.number(), network_number: z.string() });

/**
 * A single-use link to the member's profile in one of its networks, for a phone (docs/decisions.md):
 * the token's hash names it in the shared store for LIMITS.selfLinkSeconds. The network is checked now
 * (a link is made only for a profile that can be had) and again when the link is used.
 */
export async function linkFor(ctx: Ctx, s: MemberSession, origin: string, networkNumber: string): Promise<SelfProfileLink> {
  await profileOf(ctx, s, networkNumber);
  const token = randomBytes(32).toString('base64url');
  await ctx.store.set(linkKey(token), JSON.stringify({ tenant_id: s.tenantId, member_id: s.memberId, network_number: networkNumber }), LIMITS.selfLinkSeconds);
  const url = `${origin}${endpointUrl(selfDownload)}?token=${token}`;
  return { url, import_url: `openvpn://import-profile/${url}`, expires_in: LIMITS.selfLinkSeconds };
}

/** The profile a link names, once: the link is gone as it is read; a member disabled or moved out since gets nothing. */
export async function download(ctx: Ctx, token: string): Promise<FileAnswer> {
  const raw = await ctx.store.take(linkKey(token));
  const link = raw === null ? undefined : linkValue.safeParse(JSON.parse(raw)).data;
  if (!link) throw invalid(SM.selfLinkInvalid);
  const standing = await memberStanding(ctx, link.tenant_id, link.member_id);
  if (standing === 'gone') throw notFound(M.memberNotFound);
  if (standing === 'disabled') throw new ApiError(CODE.forbidden, CM.clientDisabled);
  return profileOf(ctx, { tenantId: link.tenant_id, memberId: link.member_id }, link.network_number);
}
