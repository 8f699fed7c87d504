import { TICKET_TYPE_ACCESS_POP } from '@hublink/contract';
import type { TestApp } from './helpers';

/*
 * POP resources the way the product makes them: a completed access-POP order (`network_ticket.completed`,
 * emitted here as the network-ticket module would), which the pop module turns into a resource and the
 * network module assigns on `pop.created`.
 */

let ticketSeq = 0;
/** A ticket id no other test uses (network_fr.ticket_id is unique across tenants). */
export const freshTicketId = () => (Date.now() % 1_000_000) * 1000 + (++ticketSeq % 1000);

export interface AccessPopOrder {
  bandwidth?: number | string;
  pop?: string[];
  expired_time?: number | string;
  pop_conf?: Record<string, string[]>;
}

/** Emits a completed order of `type` (default access POP) and waits until every handler has run; returns the ticket id. */
export async function completeOrder(
  t: TestApp,
  tenantId: number,
  networkNumber: string,
  order: AccessPopOrder | Record<string, unknown> = {},
  opts: { ticketId?: number; type?: number } = {},
): Promise<number> {
  const ticketId = opts.ticketId ?? freshTicketId();
  const attributes = { bandwidth: 100, pop: ['south', 'north'], expired_time: 1, pop_conf: {}, ...order };
  await t.ctx.db.transaction().execute((trx) =>
    t.ctx.events.emit(trx, {
      type: 'network_ticket.completed',
      tenant_id: tenantId,
      ticket_id: ticketId,
      network_number: networkNumber,
      network_ticket_type: opts.type ?? TICKET_TYPE_ACCESS_POP,
      attributes,
    }),
  );
  await t.ctx.events.settle();
  return ticketId;
}

/** The resource an order made (throws when there is none). */
export async function frOfTicket(t: TestApp, ticketId: number) {
  return t.db.selectFrom('network_fr').selectAll().where('ticket_id', '=', ticketId).executeTakeFirstOrThrow();
}

/** Sets a network's pools straight in the database. */
export async function seedPool(t: TestApp, networkId: number, pool: Record<string, string>) {
  await t.db.updateTable('network').set({ ip_pool: JSON.stringify(pool) }).where('id', '=', networkId).execute();
}
