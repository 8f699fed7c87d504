import type { Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { idColumn } from './helpers';

/*
 * The webhook queue (issue 33, modules/monitor/dispatch.ts): alerts for one webhook within a window go
 * out as one message, and each webhook's messages leave in order under its provider's rate limit, from
 * the database (a restart or several instances lose and double nothing).
 * - monitor_webhook_message: one message to a webhook, with the deliveries it carries
 *   (monitor_delivery.message_id), its window's end, its attempts and its outcome.
 * - monitor_webhook_lane: one row per webhook (tenant and delivery target): the lease of the one
 *   instance that sends its messages, the grouping window, and the times of recent attempts (the rate
 *   limit's count).
 * New tables and a nullable column: additive.
 */
export function webhookQueue(dialect: Dialect): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('monitor_webhook_message'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** The deliveries' target (monitor_delivery.target): which webhook. */
        .addColumn('target', 'varchar(255)', (c) => c.notNull())
        /** queued | sending | sent | failed | cancelled */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        /** Alerts join the message until then; it leaves no earlier. */
        .addColumn('close_at', 'bigint', (c) => c.notNull())
        /** The next attempt no earlier than this (a failed attempt's wait). */
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'varchar(1000)')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .addColumn('done_at', 'bigint')
        .execute();
      await db.schema.createIndex('monitor_webhook_message_lane').on('monitor_webhook_message').columns(['tenant_id', 'target', 'status', 'id']).execute();
      await db.schema.createIndex('monitor_webhook_message_status').on('monitor_webhook_message').columns(['status', 'next_at']).execute();

      await db.schema
        .createTable('monitor_webhook_lane')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('target', 'varchar(255)', (c) => c.notNull())
        /** A message made before this joins the window that ends then (leading edge: the first goes at once). */
        .addColumn('window_until', 'bigint', (c) => c.notNull().defaultTo(0))
        /** The sending instance holds the lane until then (0: nobody). */
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        /** JSON: epoch ms of the recent attempts, oldest first (the rate limit counts them). */
        .addColumn('recent', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('monitor_webhook_lane_pk', ['tenant_id', 'target'])
        .execute();

      await db.schema.alterTable('monitor_delivery').addColumn('message_id', 'integer').execute();
      await db.schema.createIndex('monitor_delivery_message').on('monitor_delivery').columns(['message_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('monitor_delivery_message').ifExists().execute();
      await db.schema.alterTable('monitor_delivery').dropColumn('message_id').execute();
      await db.schema.dropTable('monitor_webhook_lane').ifExists().execute();
      await db.schema.dropTable('monitor_webhook_message').ifExists().execute();
    },
  };
}
