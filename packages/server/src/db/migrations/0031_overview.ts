import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The live overview (issue 18): indexes so its counts stay index ranges at 100,000 members. Members
 * online or offline by kind (and since when, for "offline longer than a day"); the configurations a
 * device has not applied yet, a partial index that holds only those rows; a tenant's recent alerts
 * and its messages of one kind (the alert list the overview links to).
 */
export function overview(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Covering for "offline longer than a day" (online_time, create_time, and router_name against the recent session ends).
      await db.schema
        .createIndex('member_tenant_online')
        .on('member')
        .columns(['tenant_id', 'router_type', 'online_status', 'online_time', 'create_time', 'router_name'])
        .execute();
      // The query must spell the same condition (core/memberStates.ts) for the planner to take it.
      await sql`create index member_config_behind on member_config (tenant_id, member_id) where applied_version < version`.execute(db);
      await db.schema.createIndex('monitor_alert_tenant_time').on('monitor_alert').columns(['tenant_id', 'create_time']).execute();
      await db.schema.createIndex('message_tenant_type').on('message').columns(['tenant_id', 'type', 'create_time']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const i of ['message_tenant_type', 'monitor_alert_tenant_time', 'member_config_behind', 'member_tenant_online']) await db.schema.dropIndex(i).ifExists().execute();
    },
  };
}
