import { TICKET_STATUS, type TicketAttributes } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { attributesOf } from './service';

/** A work order as the operator lists it, across tenants. */
export interface OperatorTicket {
  network_ticket_number: string;
  tenant_id: number;
  /** The tenant's username. */
  tenant: string;
  network_number: string;
  network_ticket_type: number;
  network_ticket_status: number;
  service_name: string;
  attributes: TicketAttributes;
  /** Epoch ms. */
  create_time: number;
  complete_time: number | null;
}

/** Every tenant's orders (or one tenant's, or of one status): pending first, then newest first; at most `limit`. */
export async function listAllTickets(ctx: Ctx, opts: { status?: number; tenantId?: number; limit: number }): Promise<OperatorTicket[]> {
  const rows = await ctx.db
    .selectFrom('network_ticket as t')
    .innerJoin('account as a', 'a.id', 't.tenant_id')
    .select([
      't.network_ticket_number',
      't.tenant_id',
      'a.username as tenant',
      't.network_number',
      't.network_ticket_type',
      't.network_ticket_status',
      't.service_name',
      't.attributes',
      't.create_time',
      't.complete_time',
    ])
    .$if(opts.status !== undefined, (qb) => qb.where('t.network_ticket_status', '=', opts.status!))
    .$if(opts.tenantId !== undefined, (qb) => qb.where('t.tenant_id', '=', opts.tenantId!))
    .orderBy((eb) => eb.case().when('t.network_ticket_status', '=', TICKET_STATUS.pending).then(0).else(1).end())
    .orderBy('t.create_time', 'desc')
    .orderBy('t.id', 'desc')
    .limit(opts.limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    attributes: attributesOf(r.attributes),
    create_time: Number(r.create_time),
    complete_time: r.complete_time === null ? null : Number(r.complete_time),
  }));
}
