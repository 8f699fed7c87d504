import type { Ctx } from '../../core/context';
import { RETENTION } from '../../core/housekeeping';

/** Recovery attempts (spec 1 §2.5) that expired more than RETENTION.recoveriesMs ago. */
export async function purgeRecoveries(ctx: Ctx, now = Date.now()): Promise<number> {
  const res = await ctx.db.deleteFrom('recovery').where('expires_at', '<', now - RETENTION.recoveriesMs).executeTakeFirst();
  return Number(res.numDeletedRows);
}
