import { LIMITS } from '@hublink/contract';
import type { Ctx } from '../../core/context';

const DAY_MS = 86_400_000;

/** Deletes flow and traffic minutes older than the analysis range; returns how many rows went. */
export async function purgeOldHistory(ctx: Ctx, now = Date.now()): Promise<number> {
  const before = now - LIMITS.saasHistoryDays * DAY_MS;
  const flows = await ctx.db.deleteFrom('flow_minute').where('minute', '<', before).executeTakeFirst();
  const traffic = await ctx.db.deleteFrom('traffic_minute').where('minute', '<', before).executeTakeFirst();
  return Number(flows.numDeletedRows) + Number(traffic.numDeletedRows);
}
