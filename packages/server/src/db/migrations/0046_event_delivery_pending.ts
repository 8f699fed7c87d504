import { sql, type Kysely } from 'kysely';
import type { HubMigration } from '../migrationTypes';

/*
 * The event bus's pass takes each subscriber and tenant's oldest pending delivery (core/events.ts,
 * issue 34). It read every pending row and checked each for an older one of its group: behind one
 * tenant's running chain, thousands a pass (11,741 buffers, 7.8 ms under the console's load on
 * PostgreSQL). With the pending rows alone indexed by group and id, it skips from one group's oldest to
 * the next group's. Only pending rows are in it, so it stays small however many deliveries are done.
 * An index only: additive.
 */
export function eventDeliveryPending(): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('event_delivery_pending')
        .on('event_delivery')
        .columns(['subscriber', 'tenant_id', 'id'])
        .where(sql.ref('state'), '=', sql.lit('pending'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('event_delivery_pending').execute();
    },
  };
}
