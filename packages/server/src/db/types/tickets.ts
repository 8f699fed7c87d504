import type { Generated } from 'kysely';

/** Support tickets: the ticket module owns them. */
export interface TicketsSchema {
  support_ticket: SupportTicketTable;
  support_dialogue: SupportDialogueTable;
  support_file: SupportFileTable;
}

/** A support ticket (migration 0023). */
export interface SupportTicketTable {
  id: Generated<number>;
  tenant_id: number;
  ticket_number: string;
  title: string;
  content: string;
  type: number;
  /** 1 pending, 2 replied, 3 closed. */
  status: Generated<number>;
  /** The sub-account that raised it; null for the main account. */
  ram_id: number | null;
  raised_by: string;
  grade: number | null;
  appraise_content: string | null;
  appraise_time: number | null;
  create_time: number;
  update_time: number;
}

/** One entry of a ticket's dialogue: the tenant's reply or the service's answer. */
export interface SupportDialogueTable {
  id: Generated<number>;
  ticket_id: number;
  tenant_id: number;
  reply_type: 'tenant' | 'service';
  ram_id: number | null;
  reply_name: string;
  content: string;
  create_time: number;
}

/** An image uploaded for a ticket: pending (0), attached (1) or discarded (2). */
export interface SupportFileTable {
  id: Generated<number>;
  file_id: string;
  tenant_id: number;
  storage_key: string;
  content_type: string;
  size: number;
  state: Generated<number>;
  ticket_id: number | null;
  dialogue_id: number | null;
  create_time: number;
}
