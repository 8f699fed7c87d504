import type { DomainEvent } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import type { EventMeta } from '../../core/events';

/** Column sizes of ram_log (migration 0004). */
const MODE_MAX = 32;
const ACTION_MAX = 64;
const MESSAGE_MAX = 255;

/**
 * Writes one row of a sub-account's operation log from an operation.performed event: mode is the
 * call's area (its first path segment), action the rest of its path, message the answer's msg, time
 * the call's. The row carries the event's id, so a delivery that comes twice (at least once) writes once.
 */
export async function writeOperationLog(event: DomainEvent<'operation.performed'>, ctx: Ctx, meta: EventMeta): Promise<void> {
  // The event carries every audited call (issue 18); the operation log is the sub-accounts' only.
  if (event.ram_id === null) return;
  const [mode = '', ...rest] = event.path.replace(/^\//, '').split('/');
  await ctx.db
    .insertInto('ram_log')
    .values({
      tenant_id: event.tenant_id,
      ram_id: event.ram_id,
      mode: mode.slice(0, MODE_MAX),
      action: rest.join('/').slice(0, ACTION_MAX),
      message: event.msg.slice(0, MESSAGE_MAX),
      create_time: meta.at,
      event_id: meta.eventId,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
}
