import type { Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { idColumn } from './helpers';

/**
 * POP relays (issue 30), additive only:
 * - pop_relay: a relay the operator registered for a POP area (`hublink ops pops relay-add`): the hash
 *   of its token, and what it last reported (when, from where, its flows and bytes);
 * - pop_relay_port: the relay's forwarding table, kept by the compiler: in each area, one port per
 *   (network, center, service) its networks' points dial through the area, and the center's address
 *   that port forwards to. Unique per area and port, so two centers never share one;
 * - member_link.path / path_area: whether a point's tunnel runs straight to its center ('center') or
 *   through a POP area's relay ('pop', with the area's name), as its device reports; '' unknown.
 */
export function popRelay(dialect: Dialect): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('pop_relay'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('area_id', 'integer', (c) => c.notNull().references('network_fr_area.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('seen_time', 'bigint')
        .addColumn('address', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes_in', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes_out', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('pop_relay_area').on('pop_relay').columns(['area_id', 'id']).execute();
      await idColumn(db.schema.createTable('pop_relay_port'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('area_id', 'integer', (c) => c.notNull().references('network_fr_area.id').onDelete('cascade'))
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('center_member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        .addColumn('service', 'varchar(8)', (c) => c.notNull())
        .addColumn('port', 'integer', (c) => c.notNull())
        .addColumn('target_host', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('target_port', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('pop_relay_port_port').unique().on('pop_relay_port').columns(['area_id', 'port']).execute();
      await db.schema.createIndex('pop_relay_port_center').unique().on('pop_relay_port').columns(['area_id', 'network_id', 'center_member_id', 'service']).execute();
      await db.schema.createIndex('pop_relay_port_network').on('pop_relay_port').columns(['network_id']).execute();
      await db.schema.alterTable('member_link').addColumn('path', 'varchar(8)', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('member_link').addColumn('path_area', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('member_link').dropColumn('path_area').execute();
      await db.schema.alterTable('member_link').dropColumn('path').execute();
      await db.schema.dropTable('pop_relay_port').ifExists().execute();
      await db.schema.dropTable('pop_relay').ifExists().execute();
    },
  };
}
