import type { Actor } from './actor';
import type { Ctx } from './context';

/** Column sizes of ram_log (migration 0004). */
const MODE_MAX = 32;
const ACTION_MAX = 64;
const MESSAGE_MAX = 255;

/**
 * Writes one row of a sub-account's operation log: mode is the call's area (its first path segment),
 * action the rest of its path, message the answer's msg. The call has already succeeded, so a failure
 * here is logged for the operator and does not turn the answer into an error.
 */
export async function recordOperation(ctx: Ctx, actor: Actor, path: string, message: string): Promise<void> {
  if (actor.ramId === null) return;
  const [mode = '', ...rest] = path.replace(/^\//, '').split('/');
  try {
    await ctx.db
      .insertInto('ram_log')
      .values({
        tenant_id: actor.tenantId,
        ram_id: actor.ramId,
        mode: mode.slice(0, MODE_MAX),
        action: rest.join('/').slice(0, ACTION_MAX),
        message: message.slice(0, MESSAGE_MAX),
        create_time: Date.now(),
      })
      .execute();
  } catch (err) {
    ctx.log.error({ err, tenantId: actor.tenantId, ramId: actor.ramId, path }, 'operation log not written');
  }
}
