import { fmt, FR_STATUS, M, POP_REGION_VALUES, popRegionName, TICKET_TYPE_ACCESS_POP, type DomainEvent } from '@hublink/contract';
import { z } from 'zod';
import type { Ctx } from '../../core/context';
import type { EventMeta } from '../../core/events';

/**
 * The attributes of an access-POP order (spec 2 §3): bandwidth (Mbps), the regions, the validity in
 * years and the members per region. Numbers may arrive as digits; regions and names are deduplicated.
 */
const accessPopAttributes = z.object({
  bandwidth: z.coerce.number().int().min(1).max(100_000),
  pop: z.array(z.enum(POP_REGION_VALUES)).min(1).transform((r) => [...new Set(r)]),
  expired_time: z.coerce.number().int().min(1).max(100),
  pop_conf: z.record(z.string(), z.array(z.string().max(64))).optional().default({}),
});

/**
 * A completed access-POP order (type 1001) becomes a POP resource of its tenant: one area per region
 * with the order's bandwidth, valid from completion for the order's years; `pop.created` tells the
 * network module in the same transaction. Delivered at least once: a resource already made for the
 * ticket (network_fr.ticket_id, unique) ends it. Attributes that do not describe an order are logged
 * and skipped, since no retry would make them valid.
 */
export async function createFromTicket(event: DomainEvent<'network_ticket.completed'>, ctx: Ctx, meta: EventMeta): Promise<void> {
  if (event.network_ticket_type !== TICKET_TYPE_ACCESS_POP) return;
  const parsed = accessPopAttributes.safeParse(event.attributes);
  if (!parsed.success) {
    ctx.log.warn({ ticket_id: event.ticket_id, issues: parsed.error.issues }, 'access-POP order without usable attributes: no POP resource made');
    return;
  }
  const order = parsed.data;
  await ctx.db.transaction().execute(async (trx) => {
    const made = await trx.selectFrom('network_fr').select('id').where('ticket_id', '=', event.ticket_id).executeTakeFirst();
    if (made) return;
    const start = new Date(meta.at);
    const end = new Date(meta.at);
    end.setUTCFullYear(end.getUTCFullYear() + order.expired_time);
    const fr = await trx
      .insertInto('network_fr')
      .values({
        tenant_id: event.tenant_id,
        name: fmt(M.popResourceName, { regions: order.pop.map(popRegionName).join('·'), bandwidth: order.bandwidth }),
        status: FR_STATUS.valid,
        create_time: start.getTime(),
        expire_time: end.getTime(),
        ticket_id: event.ticket_id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('network_fr_area')
      .values(
        order.pop.map((region) => ({
          tenant_id: event.tenant_id,
          network_fr_id: fr.id,
          region,
          name: popRegionName(region),
          bandwidth: order.bandwidth,
          routers: JSON.stringify([...new Set(order.pop_conf[region] ?? [])]),
        })),
      )
      .execute();
    await ctx.events.emit(trx, { type: 'pop.created', tenant_id: event.tenant_id, network_fr_id: fr.id, network_number: event.network_number || null });
  });
}
