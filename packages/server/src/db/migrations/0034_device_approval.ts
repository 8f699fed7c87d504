import type { Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { idColumn } from './helpers';

/**
 * Devices join by approval (issue 30): the tenant's setting (no row: off) and the devices each member
 * signed in from, with their state. New tables only (additive, so the previous release runs beside it).
 */
export function deviceApproval(dialect: Dialect): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('device_approval_setting'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().unique().references('account.id').onDelete('cascade'))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        /** When approval was last turned on: members that signed in before it and have no device recorded get their next device approved. */
        .addColumn('enabled_time', 'bigint')
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('device_approval'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        /** The device: 'id:' + the hello's device_id, else 'mac:' + a router's MAC, 'name:' + its name, or 'fp:' + a hash of an app's OS, brand and model. */
        .addColumn('device_key', 'varchar(96)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('os', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('brand', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        /** 'waiting' | 'approved' | 'refused'. */
        .addColumn('state', 'varchar(8)', (c) => c.notNull())
        .addColumn('first_time', 'bigint', (c) => c.notNull())
        .addColumn('last_time', 'bigint', (c) => c.notNull())
        /** The username that decided; '' when approved automatically. */
        .addColumn('decided_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('decided_time', 'bigint')
        .addUniqueConstraint('device_approval_member_device', ['member_id', 'device_key'])
        .execute();
      await db.schema.createIndex('device_approval_tenant').on('device_approval').columns(['tenant_id', 'state', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('device_approval').ifExists().execute();
      await db.schema.dropTable('device_approval_setting').ifExists().execute();
    },
  };
}
