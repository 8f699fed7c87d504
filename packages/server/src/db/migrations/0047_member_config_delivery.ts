import { sql, type Kysely } from 'kysely';
import type { HubMigration } from '../migrationTypes';

/*
 * A network's delivery (GET /network/delivery, polled every 10 s by the network page) read every config
 * row of the network to find its last change and count the members behind: 5,000 rows, 3–5 ms, for a
 * network of 5,000 (issue 34). By network and time, the last change is one index entry and its members
 * one range; the members behind, which are few once a change has gone out, are an index of their own
 * (its predicate is the one delivery's queries state, word for word, so both planners use it).
 * Indexes only: additive.
 */
export function memberConfigDelivery(): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('member_config_network_time').on('member_config').columns(['network_id', 'update_time']).execute();
      await sql`create index member_config_network_behind on member_config (network_id, update_time) where (applied_version < version or applied_error <> '')`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const i of ['member_config_network_time', 'member_config_network_behind']) await db.schema.dropIndex(i).execute();
    },
  };
}
