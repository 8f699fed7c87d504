import type { Generated } from 'kysely';

/** Network work orders: the network-ticket module owns them. */
export interface NetworkTicketsSchema {
  network_ticket: NetworkTicketTable;
}

/** A network work order (migration 0013). */
export interface NetworkTicketTable {
  id: Generated<number>;
  tenant_id: number;
  network_ticket_number: string;
  network_number: string;
  network_ticket_type: number;
  network_ticket_status: Generated<number>;
  service_name: Generated<string>;
  /** JSON { bandwidth, pop, expired_time, pop_conf } */
  attributes: Generated<string>;
  create_time: number;
  complete_time: number | null;
  update_time: number;
}
