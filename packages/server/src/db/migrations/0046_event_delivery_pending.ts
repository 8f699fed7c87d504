import { sql, type Kysely } from 'kysely';
import type { HubMigration } from '../migrate';

/*
 * The event bus's pass reads the oldest pending deliveries in id order (core/events.ts, issue 34). Its
 * index on (state, next_at) gives no id order, so PostgreSQL, with statistics taken while many were
 * pending, walked the primary key through every done delivery (26 ms a pass at 66,000 done rows; 4.4 ms
 * with this index, the rest being the check for older pending ones). Only pending rows are in it, so it
 * stays small however many deliveries are done. An index only: additive.
 */
export function eventDeliveryPending(): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('event_delivery_pending').on('event_delivery').column('id').where(sql.ref('state'), '=', sql.lit('pending')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('event_delivery_pending').execute();
    },
  };
}
