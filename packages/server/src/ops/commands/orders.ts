import { M, popRegionName, TICKET_LIMITS, TICKET_STATUS, TICKET_TYPE_ACCESS_POP, type TicketAttributes } from '@hublink/contract';
import { z } from 'zod';
import { cancelTicket, completeTicket, listAllTickets, startTicket } from '../../modules/network-ticket';
import { defineCommand, intArg, LIMIT_OPTION, limitArg, shownTime, tenantArg } from '../command';
import { TENANT_FILTER, tenantFilterId } from './tenant';

const STATUS_NAMES: Record<number, string> = {
  [TICKET_STATUS.pending]: 'pending',
  [TICKET_STATUS.inProgress]: 'in progress',
  [TICKET_STATUS.completed]: 'completed',
  [TICKET_STATUS.cancelled]: 'cancelled',
};

/** What an access-POP order asks for, on one line: regions, bandwidth, years. */
const orderSummary = (type: number, a: TicketAttributes) =>
  type === TICKET_TYPE_ACCESS_POP ? `${a.pop.map(popRegionName).join('·')} ${a.bandwidth}M ${a.expired_time}y` : '';

const list = defineCommand({
  group: 'orders',
  name: 'list',
  summary: 'network work orders of every tenant, pending first, then newest first',
  options: {
    status: { help: '1 pending, 2 in progress, 3 completed, 4 cancelled' },
    ...TENANT_FILTER,
    ...LIMIT_OPTION,
  },
  input: z.object({
    status: intArg('status', 1, 4).optional(),
    tenant: tenantArg.optional(),
    limit: limitArg(),
  }),
  async run(ctx, input) {
    const tenantId = await tenantFilterId(ctx, input.tenant);
    const rows = await listAllTickets(ctx, { status: input.status, tenantId, limit: input.limit });
    return {
      table: rows.map((r) => ({
        number: r.network_ticket_number,
        tenant: r.tenant,
        network_number: r.network_number,
        type: r.network_ticket_type === TICKET_TYPE_ACCESS_POP ? `${r.network_ticket_type} access POP` : String(r.network_ticket_type),
        status: r.network_ticket_status,
        state: STATUS_NAMES[r.network_ticket_status] ?? '',
        service_name: r.service_name,
        order: orderSummary(r.network_ticket_type, r.attributes),
        created: shownTime(ctx, r.create_time),
        completed: r.network_ticket_status === TICKET_STATUS.completed ? shownTime(ctx, r.complete_time) : '',
      })),
    };
  },
});

const numberArg = z
  .string({ error: 'a work order number is required' })
  .trim()
  .min(1, 'a work order number is required')
  .max(TICKET_LIMITS.numberMax, M.ticketNotFound);

function moveCommand(name: 'take' | 'complete' | 'reject', summary: string, move: typeof startTicket, done: string) {
  return defineCommand({
    group: 'orders',
    name,
    summary,
    positionals: ['number'],
    input: z.object({ number: numberArg }),
    async run(ctx, input) {
      await move(ctx, input.number);
      return { done: `order ${input.number} ${done}` };
    },
  });
}

export const orderCommands = [
  list,
  moveCommand('take', 'start work on a pending order (status 1 → 2)', startTicket, 'is in progress'),
  moveCommand('complete', 'complete an order in progress (2 → 3); an access-POP order makes its POP resource', completeTicket, 'completed'),
  moveCommand('reject', 'cancel an order that is pending, in progress or completed (→ 4)', cancelTicket, 'cancelled'),
];
