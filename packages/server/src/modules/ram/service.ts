import { M } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { hashPassword, verifyPassword } from '../../core/passwords';

/** A sub-account changes its own password; every session of it ends (spec 1 §4). */
export async function changeOwnPassword(ctx: Ctx, actor: Actor, oldPassword: string, password: string) {
  if (actor.ramId === null) throw invalid(M.ramPasswordOnly);
  const ram = await ctx.db
    .selectFrom('ram_account')
    .select('password_hash')
    .where('id', '=', actor.ramId)
    .where('tenant_id', '=', actor.tenantId)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(oldPassword, ram.password_hash))) throw invalid(M.oldPasswordWrong);
  await ctx.db
    .updateTable('ram_account')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', actor.ramId)
    .where('tenant_id', '=', actor.tenantId)
    .execute();
  await ctx.tokens.revokeAll(actor.tenantId, actor.ramId);
}
