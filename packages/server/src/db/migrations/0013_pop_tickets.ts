import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * POP resources and network work orders (issue 12, spec 2 §3).
 * - network_fr: a POP (franchise) resource of a tenant, with its validity; network_fr_area: its areas
 *   (a region with a bandwidth, and the address its POP answers at); network.network_fr_id is the
 *   resource a network uses (no foreign key: SQLite cannot drop a column that has one; readers join
 *   on the tenant's own resources), network.ip_pool its address pools (JSON);
 * - network_member.ov_main / ov_backup / ov_priority: the POP areas a member dials (0 for none);
 *   network_member.gateway and fixed_port: a center's VPN segments and fixed ports (JSON), read by the
 *   pool overlap check as well as written by the segment dialogs;
 * - network_ticket: a work order; the operator moves it 1 → 2 → 3 or to 4. It keeps the network's
 *   number rather than a foreign key, so the order outlives a deleted network as a record.
 */
export function popTickets(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('network_fr'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        /** 1 valid, otherwise processing. */
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expire_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('network_fr_tenant').on('network_fr').columns(['tenant_id', 'id']).execute();

      await idColumn(db.schema.createTable('network_fr_area'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_fr_id', 'integer', (c) => c.notNull().references('network_fr.id').onDelete('cascade'))
        /** A region value of POP_REGIONS (contract/popRegions.ts). */
        .addColumn('region', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        /** Mbps */
        .addColumn('bandwidth', 'integer', (c) => c.notNull())
        /** Where the area's POP answers; '' until the operator sets it. */
        .addColumn('host', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('port', 'integer', (c) => c.notNull().defaultTo(1194))
        .execute();
      await db.schema.createIndex('network_fr_area_fr').on('network_fr_area').columns(['network_fr_id', 'id']).execute();

      await db.schema.alterTable('network').addColumn('network_fr_id', 'integer').execute();
      /** JSON { pop, center_link_network, center_network, pop_software, other } of CIDR strings ('' unset). */
      await db.schema.alterTable('network').addColumn('ip_pool', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      for (const column of ['ov_main', 'ov_backup']) {
        await db.schema.alterTable('network_member').addColumn(column, 'integer', (c) => c.notNull().defaultTo(0)).execute();
      }
      await db.schema.alterTable('network_member').addColumn('ov_priority', 'integer', (c) => c.notNull().defaultTo(3)).execute();
      /** JSON { router: { gateway, mask } | null, software: … } */
      await db.schema.alterTable('network_member').addColumn('gateway', 'text', (c) => c.notNull().defaultTo('{}')).execute();
      /** JSON { router: { public_ip, public_port, static_port } | null, software: … } */
      await db.schema.alterTable('network_member').addColumn('fixed_port', 'text', (c) => c.notNull().defaultTo('{}')).execute();

      await idColumn(db.schema.createTable('network_ticket'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_ticket_number', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('network_number', 'varchar(32)', (c) => c.notNull())
        /** 1001 access POP, otherwise other. */
        .addColumn('network_ticket_type', 'integer', (c) => c.notNull())
        /** 1 pending, 2 in progress, 3 completed, 4 cancelled. */
        .addColumn('network_ticket_status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('service_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        /** JSON { bandwidth, pop, expired_time, pop_conf } */
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('complete_time', 'bigint')
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('network_ticket_tenant').on('network_ticket').columns(['tenant_id', 'id']).execute();
      await db.schema.createIndex('network_ticket_network').on('network_ticket').columns(['tenant_id', 'network_number']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('network_ticket').ifExists().execute();
      for (const column of ['fixed_port', 'gateway', 'ov_priority', 'ov_backup', 'ov_main']) await db.schema.alterTable('network_member').dropColumn(column).execute();
      await db.schema.alterTable('network').dropColumn('ip_pool').execute();
      await db.schema.alterTable('network').dropColumn('network_fr_id').execute();
      await db.schema.dropTable('network_fr_area').ifExists().execute();
      await db.schema.dropTable('network_fr').ifExists().execute();
    },
  };
}
