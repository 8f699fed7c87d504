import { POP_REGIONS, type TicketConfig, type TicketItem } from '@hublink/contract';

/** A work order as the list and the detail answer it. */
export const ticket = (over: Partial<TicketItem> = {}): TicketItem => ({
  network_ticket_number: 'T2026112300000001',
  network_number: 'NABC',
  network_ticket_type: 1001,
  network_ticket_status: 1,
  service_name: 'HQ',
  create_time: '2026-11-23 09:00:00',
  complete_time: '',
  attributes: { bandwidth: 50, pop: ['south', 'east'], expired_time: 2, pop_conf: { south: ['r1', 'r2'], east: [] } },
  ...over,
});

export const wizardConfig = (over: Partial<TicketConfig['ticket']> = {}, members = ['r1', 'r2', 'r3']): TicketConfig => ({
  ticket: {
    bandwidth: { min: 1, max: 200 },
    expired_time: [{ value: 1 }, { value: 2 }, { value: 3 }],
    pop: POP_REGIONS.map((r) => ({ value: r.value, name: r.name })),
    ...over,
  },
  member: members.map((router_name) => ({ router_name })),
});
