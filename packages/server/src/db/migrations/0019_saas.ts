import type { Kysely, Migration } from 'kysely';

/**
 * SaaS devices (issue 13): the SaaS attributes the operator gives a hardware member (one row per
 * device, gone with the member), and the two minute-grained histories the device gateway writes for
 * them: flow records (application and source address analysis) and traffic (the detail chart).
 * Both histories add up per minute, so a device writes at most one row per name and minute.
 */
export function saas(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('saas_device')
        .addColumn('member_id', 'integer', (c) => c.primaryKey().references('member.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('category', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        /** 1 shared edition (bandwidth editable by the tenant), otherwise standard. */
        .addColumn('share', 'integer', (c) => c.notNull().defaultTo(0))
        /** Mbs; 0 is a disabled device. */
        .addColumn('bandwidth', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_bandwidth', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expire_time', 'bigint')
        .addColumn('temp_bandwidth', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('temp_start_time', 'bigint')
        .addColumn('temp_expire_time', 'bigint')
        /** JSON list of the device's public addresses. */
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('saas_device_tenant').on('saas_device').columns(['tenant_id', 'category']).execute();

      await db.schema
        .createTable('flow_minute')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        /** 'app' (application name) | 'orig' (source address) */
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('name', 'varchar(256)', (c) => c.notNull())
        /** Epoch ms of the minute's start. */
        .addColumn('minute', 'bigint', (c) => c.notNull())
        /** Bytes. */
        .addColumn('download', 'bigint', (c) => c.notNull())
        .addColumn('upload', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('flow_minute_pk', ['member_id', 'kind', 'name', 'minute'])
        .execute();
      await db.schema.createIndex('flow_minute_range').on('flow_minute').columns(['member_id', 'kind', 'minute']).execute();
      await db.schema.createIndex('flow_minute_age').on('flow_minute').columns(['minute']).execute();

      await db.schema
        .createTable('traffic_minute')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        .addColumn('minute', 'bigint', (c) => c.notNull())
        /** Sums of the reported rates (Mbit/s, all interfaces of one report together) and how many reports. */
        .addColumn('down_sum', 'double precision', (c) => c.notNull())
        .addColumn('upload_sum', 'double precision', (c) => c.notNull())
        .addColumn('samples', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('traffic_minute_pk', ['member_id', 'minute'])
        .execute();
      await db.schema.createIndex('traffic_minute_age').on('traffic_minute').columns(['minute']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['traffic_minute', 'flow_minute', 'saas_device']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
