import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Each session's own bytes (issue 30): an online-log row keeps the counters its device reported when the
 * session ended, from the row's member's side (bytes_in: what it received). Null: not reported (an
 * older agent, or a session still up), where the dial-in records fall back to the device's flow records.
 * And the open rows by member: a member connected with a standard client is online while one is open.
 */
export function sessionBytes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('online_log').addColumn('bytes_in', 'bigint').execute();
      await db.schema.alterTable('online_log').addColumn('bytes_out', 'bigint').execute();
      await db.schema.createIndex('online_log_open').on('online_log').columns(['tenant_id', 'router_name']).where(sql.ref('end_time'), 'is', null).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('online_log_open').execute();
      await db.schema.alterTable('online_log').dropColumn('bytes_out').execute();
      await db.schema.alterTable('online_log').dropColumn('bytes_in').execute();
    },
  };
}
