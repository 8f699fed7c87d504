import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * The compiled configuration of each member of a network (compiler/versions.ts): its structured JSON
 * and OpenVPN files, the sha256 of both in canonical form, and a version that grows by one only when
 * that hash changes. Rows go with their network; a member's rows are removed by the next recompile.
 */
export function memberConfig(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('member_config'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('hash', 'varchar(64)', (c) => c.notNull())
        /** JSON text of the member's structured configuration. */
        .addColumn('config', 'text', (c) => c.notNull())
        /** JSON text of the OpenVPN files by relative path. */
        .addColumn('openvpn', 'text', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('member_config_member').unique().on('member_config').columns(['network_id', 'member_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('member_config').ifExists().execute();
    },
  };
}
