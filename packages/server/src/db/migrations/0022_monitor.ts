import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Monitoring alerts (issue 14): a tenant's alert configuration, its monitored devices, contacts and
 * webhook; each member's online state as the alert engine follows it (debounce and recovery); the
 * alerts raised and one delivery per channel and recipient, with its attempts. message.dedupe_key lets
 * the message module write an alert's in-app message once however often its event is delivered.
 */
export function monitor(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('monitor_config')
        .addColumn('tenant_id', 'integer', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
        .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(0))
        /** When monitoring was last switched on: services that expired before it raise nothing. */
        .addColumn('enable_time', 'bigint')
        .addColumn('portal_confirm', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('email_confirm', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('webhook_confirm', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('router_online', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('router_offline', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('service_expired', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('pop_connect', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('monitor_router')
        .addColumn('member_id', 'integer', (c) => c.primaryKey().references('member.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_router_tenant').on('monitor_router').columns(['tenant_id']).execute();

      await idColumn(db.schema.createTable('monitor_contact'), dialect)
        .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('email', 'varchar(128)', (c) => c.notNull())
        /** email lower-cased: unique in the tenant. */
        .addColumn('email_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('email_verify', 'integer', (c) => c.notNull().defaultTo(0))
        /** When the last validation mail went out (the resend cooldown). */
        .addColumn('verify_sent_at', 'bigint')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_contact_email').unique().on('monitor_contact').columns(['tenant_id', 'email_key']).execute();

      await db.schema
        .createTable('monitor_webhook')
        .addColumn('tenant_id', 'integer', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
        /** dingtalk | feishu | wecom | other */
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('url', 'varchar(1024)', (c) => c.notNull())
        /** The signing secret sealed by the secret box (core/secretBox.ts); null when none. */
        .addColumn('secret', 'text')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();

      // A monitored member's state as the engine knows it: the newest online/offline change it took,
      // the offline period it is waiting on (the debounce), and whether that period raised an alert.
      await db.schema
        .createTable('monitor_state')
        .addColumn('member_id', 'integer', (c) => c.primaryKey().references('member.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('last_change_at', 'bigint', (c) => c.notNull())
        .addColumn('offline_at', 'bigint')
        .addColumn('alerted', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('monitor_state_tenant').on('monitor_state').columns(['tenant_id']).execute();

      // Alerts outlive their member (no foreign key on member_id): they are the tenant's record.
      await idColumn(db.schema.createTable('monitor_alert'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** What makes the alert one of a kind ('offline:<member>:<since>', 'service:<id>:<expiry>', …). */
        .addColumn('dedupe_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('member_id', 'integer')
        .addColumn('router_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('title', 'varchar(255)', (c) => c.notNull())
        /** Plain text; the message centre gets it as HTML. */
        .addColumn('text', 'text', (c) => c.notNull())
        /** When what the alert says happened. */
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('monitor_alert_dedupe').unique().on('monitor_alert').columns(['tenant_id', 'dedupe_key']).execute();
      await db.schema.createIndex('monitor_alert_time').on('monitor_alert').columns(['create_time']).execute();

      await idColumn(db.schema.createTable('monitor_delivery'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('alert_id', 'integer', (c) => c.notNull().references('monitor_alert.id').onDelete('cascade'))
        /** portal | email | webhook */
        .addColumn('channel', 'varchar(16)', (c) => c.notNull())
        /** The address of an email, the type of a webhook, 'portal'. */
        .addColumn('target', 'varchar(255)', (c) => c.notNull())
        /** The contact an email goes to; null for the account's own address and the other channels. */
        .addColumn('contact_id', 'integer')
        /** pending | sending | sent | logged | failed | cancelled */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'varchar(1000)')
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .addColumn('done_at', 'bigint')
        .execute();
      await db.schema.createIndex('monitor_delivery_alert').on('monitor_delivery').columns(['alert_id']).execute();
      await db.schema.createIndex('monitor_delivery_due').on('monitor_delivery').columns(['status', 'next_at']).execute();

      await db.schema.alterTable('message').addColumn('dedupe_key', 'varchar(64)').execute();
      await db.schema.createIndex('message_dedupe').unique().on('message').columns(['tenant_id', 'dedupe_key']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('message_dedupe').ifExists().execute();
      await db.schema.alterTable('message').dropColumn('dedupe_key').execute();
      for (const t of ['monitor_delivery', 'monitor_alert', 'monitor_state', 'monitor_webhook', 'monitor_contact', 'monitor_router', 'monitor_config']) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
