import type { Generated } from 'kysely';

/** The message centre: the message module owns it. */
export interface MessagesSchema {
  message: MessageTable;
}

export interface MessageTable {
  id: Generated<number>;
  tenant_id: number;
  title: string;
  content: string;
  type: string;
  status: number;
  create_time: number;
  /** Set by writers that may be told twice (an alert's message: 'alert:<id>'); unique in the tenant (migration 0022). */
  dedupe_key: Generated<string | null>;
}
