import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * The runtime backbone's tables.
 * - event: the transactional outbox of domain events (written in the transaction that made the change);
 * - event_delivery: one row per event and subscriber, so a failing subscriber is retried on its own
 *   and never holds the others back; a subscriber sees one tenant's events in id order;
 * - job_queue: one-off jobs on SQLite (PostgreSQL keeps its queue in pg-boss's own schema);
 * - job_run: every run of a job on either database (start, end, outcome, error), for the operator.
 * ram_log gains the id of the event it was written from, so a delivery that comes twice writes once.
 * No foreign key to account: these rows outlive a deleted tenant until the housekeeping jobs trim them.
 */
export function backbone(dialect: Dialect): Migration {
  const bigId = <T extends string>(t: Parameters<typeof idColumn<T>>[0]) =>
    dialect === 'postgres' ? t.addColumn('id', 'bigserial', (c) => c.primaryKey()) : idColumn(t, dialect);
  return {
    async up(db: Kysely<unknown>) {
      await bigId(db.schema.createTable('event'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull())
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('event_time').on('event').columns(['create_time']).execute();

      await bigId(db.schema.createTable('event_delivery'))
        .addColumn('event_id', 'bigint', (c) => c.notNull().references('event.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull())
        .addColumn('subscriber', 'varchar(128)', (c) => c.notNull())
        .addColumn('state', 'varchar(8)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'varchar(1000)')
        .addColumn('done_at', 'bigint')
        .execute();
      await db.schema.createIndex('event_delivery_due').on('event_delivery').columns(['state', 'next_at']).execute();
      await db.schema.createIndex('event_delivery_order').on('event_delivery').columns(['subscriber', 'tenant_id', 'state', 'id']).execute();
      await db.schema.createIndex('event_delivery_event').on('event_delivery').columns(['event_id']).execute();

      await idColumn(db.schema.createTable('job_queue'), dialect)
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('job_queue_due').on('job_queue').columns(['run_at']).execute();

      await bigId(db.schema.createTable('job_run'))
        .addColumn('job', 'varchar(64)', (c) => c.notNull())
        .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('instance', 'varchar(64)', (c) => c.notNull())
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('error', 'varchar(1000)')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('job_run_job_time').on('job_run').columns(['job', 'started_at']).execute();

      await db.schema.alterTable('ram_log').addColumn('event_id', 'bigint').execute();
      await db.schema.createIndex('ram_log_event').on('ram_log').column('event_id').unique().execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('ram_log_event').ifExists().execute();
      await db.schema.alterTable('ram_log').dropColumn('event_id').execute();
      for (const t of ['job_run', 'job_queue', 'event_delivery', 'event']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
