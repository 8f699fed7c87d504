import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * The network detail's segment and link settings (issue 12, spec 2 §3, §4).
 * - network_prefix: a network's route prefixes in their order (position); name is the member whose LAN
 *   the prefix is ('' for none), ge and le null where not set;
 * - network.center_link_network: the twin-center link (JSON { gateway, mask, public_ip, public_port,
 *   static_port, center_router_name }, '{}' unset; network.center_link says whether it is on);
 * - network.interconnect and interconnect_network: center interconnect on/off and its segment (JSON
 *   { gateway, mask }, '{}' unset);
 * - network_member.link_centers: the centers (member ids, JSON) a point links to; null for every center.
 */
export function networkSegments(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('network_prefix'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('ip', 'varchar(15)', (c) => c.notNull())
        .addColumn('mask', 'integer', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('permission', 'varchar(8)', (c) => c.notNull().defaultTo('permit'))
        .addColumn('ge', 'integer')
        .addColumn('le', 'integer')
        .execute();
      await db.schema.createIndex('network_prefix_network').on('network_prefix').columns(['network_id', 'position']).execute();
      await db.schema.alterTable('network').addColumn('center_link_network', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      await db.schema.alterTable('network').addColumn('interconnect', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('network').addColumn('interconnect_network', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      await db.schema.alterTable('network_member').addColumn('link_centers', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('network_member').dropColumn('link_centers').execute();
      for (const column of ['interconnect_network', 'interconnect', 'center_link_network']) await db.schema.alterTable('network').dropColumn(column).execute();
      await db.schema.dropTable('network_prefix').ifExists().execute();
    },
  };
}
