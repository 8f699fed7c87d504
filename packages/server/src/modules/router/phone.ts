import { M, phoneValue, type routerPhone } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import { bindStep } from '../../domain/binding';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { proofKey } from '../../domain/proofs';
import { lockTenant } from '../../core/tenantLock';
import { memberChanged } from '../../domain/members';
import { findSoftware, phoneHolder } from './service';

type PhoneInput = z.output<typeof routerPhone.body>;

/** Where the proof that a member's current phone was verified is kept (tenant and member). */
export const memberProofKey = (tenantId: number, memberId: number) => proofKey(tenantId, `member-phone:${memberId}`);

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
    await memberChanged(ctx, trx, actor.tenantId, memberId, 'phone');
  });
}

const TEXT = {
  verified: M.memberPhoneVerified,
  notBound: M.phoneNotBound,
  same: M.phoneSame,
  boundVerify: M.memberPhoneBoundVerify,
  unbindVerify: M.memberPhoneUnbindVerify,
};

/**
 * A member's phone dialog (spec 3 §4), the account's binding flow (core/binding.ts) for a software
 * member: type 2 proves its current phone with an app_change_phone code, a new phone needs its
 * app_bind_phone code, and no other member of the tenant may hold it.
 */
export async function bindMemberPhone(ctx: Ctx, actor: Actor, input: PhoneInput): Promise<string> {
  const m = await findSoftware(ctx.db, actor, input.router_name);
  const area = input.area_code.replace(/^\+/, '');
  return bindStep(
    ctx,
    {
      channel: 'phone',
      current: m.phone,
      proof: memberProofKey(actor.tenantId, m.id),
      purposes: { verify: 'app_change_phone', bind: 'app_bind_phone' },
      text: TEXT,
      ensureFree: async (phone) => {
        if (await phoneHolder(ctx.db, actor.tenantId, phone, m.id)) throw invalid(M.memberPhoneInUse);
      },
      write: (phone) => setPhone(ctx, actor, m.id, phone === null ? null : { area, phone }),
    },
    { type: input.type, value: input.phone ? phoneValue(area, input.phone) : '', code: input.code },
  );
}
