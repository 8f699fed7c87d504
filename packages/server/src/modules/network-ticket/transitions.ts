import { M, TICKET_STATUS } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import type { Db } from '../../db/connect';

/*
 * The operator's side of a work order (spec 2 §4; the `hublink ops` CLI will call these): start
 * (1 → 2), complete (2 → 3, which emits network_ticket.completed in the same transaction so the pop
 * module creates the POP resource) and cancel (1, 2 or 3 → 4). Any other move is refused. An order is
 * named by its number, unique across tenants.
 */

type Status = (typeof TICKET_STATUS)[keyof typeof TICKET_STATUS];

const FROM: Record<'start' | 'complete' | 'cancel', readonly Status[]> = {
  start: [TICKET_STATUS.pending],
  complete: [TICKET_STATUS.inProgress],
  cancel: [TICKET_STATUS.pending, TICKET_STATUS.inProgress, TICKET_STATUS.completed],
};
const TO = { start: TICKET_STATUS.inProgress, complete: TICKET_STATUS.completed, cancel: TICKET_STATUS.cancelled } as const;

async function move(ctx: Ctx, ticketNumber: string, action: keyof typeof FROM, after?: (trx: Db, row: { id: number; tenant_id: number; network_number: string; network_ticket_type: number; attributes: string }) => Promise<void>) {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('network_ticket')
      .select(['id', 'tenant_id', 'network_number', 'network_ticket_type', 'network_ticket_status', 'attributes'])
      .where('network_ticket_number', '=', ticketNumber)
      .executeTakeFirst();
    if (!row) throw notFound(M.ticketNotFound);
    if (!(FROM[action] as readonly number[]).includes(row.network_ticket_status)) throw invalid(M.ticketTransitionRefused);
    const now = Date.now();
    const moved = await trx
      .updateTable('network_ticket')
      .set({ network_ticket_status: TO[action], update_time: now, ...(action === 'complete' ? { complete_time: now } : {}) })
      .where('id', '=', row.id)
      .where('network_ticket_status', '=', row.network_ticket_status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw invalid(M.ticketTransitionRefused);
    await after?.(trx, row);
  });
}

/** Pending → in progress. */
export const startTicket = (ctx: Ctx, ticketNumber: string) => move(ctx, ticketNumber, 'start');

/** In progress → completed, with complete_time, announcing network_ticket.completed with the order's attributes. */
export const completeTicket = (ctx: Ctx, ticketNumber: string) =>
  move(ctx, ticketNumber, 'complete', async (trx, row) => {
    await ctx.events.emit(trx, {
      type: 'network_ticket.completed',
      tenant_id: row.tenant_id,
      ticket_id: row.id,
      network_number: row.network_number,
      network_ticket_type: row.network_ticket_type,
      attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    });
  });

/** Pending, in progress or completed → cancelled. */
export const cancelTicket = (ctx: Ctx, ticketNumber: string) => move(ctx, ticketNumber, 'cancel');
