import { BIND_TYPE, CODE, LIMITS, M, phoneValue, type routerPhone } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import { lockTenant } from '../../core/tenantLock';
import { findSoftware, phoneHolder } from './service';

type PhoneInput = z.output<typeof routerPhone.body>;

/** Where the proof that a member's current phone was verified is kept (tenant and member). */
export const memberProofKey = (tenantId: number, memberId: number) => `verified:${tenantId}:member-phone:${memberId}`;

const hasProof = async (ctx: Ctx, tenantId: number, memberId: number) => (await ctx.store.get(memberProofKey(tenantId, memberId))) !== null;
/** Uses up the proof; false when it is gone (expired, or taken by a request that came first). */
const takeProof = async (ctx: Ctx, tenantId: number, memberId: number) => (await ctx.store.take(memberProofKey(tenantId, memberId))) !== null;

/** Writes a software member's phone; another member of the tenant holding it refuses (checked under the tenant's lock). */
async function setPhone(ctx: Ctx, actor: Actor, memberId: number, value: { area: string; phone: string } | null) {
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    if (value && (await phoneHolder(trx, actor.tenantId, value.phone, memberId))) throw invalid(M.memberPhoneInUse);
    await trx
      .updateTable('member')
      .set({ phone: value?.phone ?? null, area_number: value?.area ?? null, update_time: Date.now() })
      .where('id', '=', memberId)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  });
}

/**
 * A member's phone dialog (spec 3 §4), the account's binding flow for a software member. Answers the
 * message for the console:
 * - type 2: an app_change_phone code sent to the member's current phone proves it for 10 minutes;
 * - type 1 with a phone: binds it with its app_bind_phone code; while the member has a phone, 401
 *   until that phone is proven, and the proof is used up;
 * - type 1 with nothing: unbinds; 403 until the current phone is proven.
 * Refusals that need no code come first, so a mistyped phone does not use up the code or the proof.
 */
export async function bindMemberPhone(ctx: Ctx, actor: Actor, input: PhoneInput): Promise<string> {
  const m = await findSoftware(ctx.db, actor, input.router_name);
  const current = m.phone;

  if (input.type === BIND_TYPE.verify) {
    if (!current) throw invalid(M.phoneNotBound);
    await ctx.codes.consume('phone', current, 'app_change_phone', input.code);
    await ctx.store.set(memberProofKey(actor.tenantId, m.id), String(Date.now()), LIMITS.codeTtlSeconds);
    return M.memberPhoneVerified;
  }

  if (!input.phone && !input.code) {
    if (!current) throw invalid(M.phoneNotBound);
    if (!(await takeProof(ctx, actor.tenantId, m.id))) throw new ApiError(CODE.flow403, M.memberPhoneUnbindVerify);
    await setPhone(ctx, actor, m.id, null);
    return M.unbound;
  }

  const area = input.area_code.replace(/^\+/, '');
  const value = phoneValue(area, input.phone);
  if (current && !(await hasProof(ctx, actor.tenantId, m.id))) throw new ApiError(CODE.flow401, M.memberPhoneBoundVerify);
  if (current === value) throw invalid(M.phoneSame);
  if (await phoneHolder(ctx.db, actor.tenantId, value, m.id)) throw invalid(M.memberPhoneInUse);
  await ctx.codes.consume('phone', value, 'app_bind_phone', input.code);
  if (current && !(await takeProof(ctx, actor.tenantId, m.id))) throw new ApiError(CODE.flow401, M.memberPhoneBoundVerify);
  await setPhone(ctx, actor, m.id, { area, phone: value });
  return M.bound;
}
