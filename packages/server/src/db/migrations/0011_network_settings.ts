import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * The network detail's settings (issue 12): a network's routing type (1 dual primary, 2 main-backup)
 * and, in main-backup mode, its backup line's center (network_member.routing marks main and backup
 * per center; with more than two centers every center but the main one is a backup, so the named
 * one is kept here); and member_command, the commands queued for a member's device (kick offline,
 * restart, resend config) until the device gateway delivers them.
 */
export function networkSettings(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('network').addColumn('routing_type', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      // No foreign key: SQLite cannot drop a column that has one, and readers check it names a current center.
      await db.schema.alterTable('network').addColumn('routing_secondary_id', 'integer').execute();

      await idColumn(db.schema.createTable('member_command'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        /** kill | restart | resend_config */
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        /** JSON object of the command's arguments. */
        .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
        /** queued until the gateway delivers it (later states belong to the gateway). */
        .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('queued'))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      // "The queued commands of a member", oldest first.
      await db.schema.createIndex('member_command_member_state').on('member_command').columns(['member_id', 'state', 'id']).execute();
      await db.schema.createIndex('member_command_network').on('member_command').columns(['network_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('member_command').ifExists().execute();
      await db.schema.alterTable('network').dropColumn('routing_secondary_id').execute();
      await db.schema.alterTable('network').dropColumn('routing_type').execute();
    },
  };
}
