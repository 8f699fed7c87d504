import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Members (hardware routers and software clients) and networks of centers and points, the live
 * link state the device gateway reports, and the member log tables it fills (software logins,
 * online sessions). Members are addressed by router_name: unique in a tenant case-insensitively
 * (router_key), and for hardware unique across tenants, since a device says only its name.
 */
export function membersNetworks(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('member'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('router_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('router_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('router_type', 'integer', (c) => c.notNull())
        .addColumn('note', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        /** Software: the login password; hardware: the device secret (scrypt either way). */
        .addColumn('secret_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('area_number', 'varchar(8)')
        .addColumn('phone', 'varchar(32)')
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('online_status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('os', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        /** console | import | ldap */
        .addColumn('source', 'varchar(16)', (c) => c.notNull().defaultTo('console'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('router_model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('router_ipv4', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('router_mac', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('online_time', 'bigint')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('member_tenant_key').unique().on('member').columns(['tenant_id', 'router_key']).execute();
      await db.schema
        .createIndex('member_hardware_key')
        .unique()
        .on('member')
        .column('router_key')
        .where(sql.ref('router_type'), '=', 1)
        .execute();
      await db.schema.createIndex('member_tenant_type').on('member').columns(['tenant_id', 'router_type', 'id']).execute();
      await db.schema.createIndex('member_tenant_phone').on('member').columns(['tenant_id', 'phone']).execute();

      await idColumn(db.schema.createTable('network'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_number', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('network_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('network_type', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('ncp_ciphers', 'varchar(16)', (c) => c.notNull().defaultTo('default'))
        .addColumn('mode', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('center_link', 'integer', (c) => c.notNull().defaultTo(0))
        /** JSON list of DNS server addresses. */
        .addColumn('dns', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('network_tenant').on('network').columns(['tenant_id', 'id']).execute();

      await idColumn(db.schema.createTable('network_member'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        /** center | point */
        .addColumn('member_type', 'varchar(8)', (c) => c.notNull())
        /** 1 main line, 2 backup (with two or more centers). */
        .addColumn('routing', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('default_route', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('metric', 'integer', (c) => c.notNull().defaultTo(30))
        .addColumn('quagga', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('mode', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('network_member_unique').unique().on('network_member').columns(['network_id', 'member_id']).execute();
      await db.schema.createIndex('network_member_member').on('network_member').columns(['member_id']).execute();
      await db.schema.createIndex('network_member_tenant').on('network_member').columns(['tenant_id', 'member_id']).execute();

      // The live state of a point's link to a center, as the gateway last reported it.
      await idColumn(db.schema.createTable('member_link'), dialect)
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        .addColumn('center_member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        .addColumn('vpn_online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('vpn_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('vpn_online_time', 'bigint')
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('member_link_unique')
        .unique()
        .on('member_link')
        .columns(['network_id', 'member_id', 'center_member_id'])
        .execute();

      await idColumn(db.schema.createTable('software_login'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('router_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('os', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('sys_brand', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('sys_model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('sys_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('software_login_tenant_time').on('software_login').columns(['tenant_id', 'create_time']).execute();
      await db.schema
        .createIndex('software_login_member_time')
        .on('software_login')
        .columns(['tenant_id', 'router_name', 'create_time'])
        .execute();

      await idColumn(db.schema.createTable('online_log'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('router_name', 'varchar(64)', (c) => c.notNull())
        /** p2p | pop */
        .addColumn('mode', 'varchar(8)', (c) => c.notNull())
        .addColumn('network_number', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('link_router_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('pop_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('area', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('orig', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('vpn_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('start_time', 'bigint', (c) => c.notNull())
        .addColumn('end_time', 'bigint')
        /** Seconds the session lasted (0 while it is up). */
        .addColumn('online_time', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('online_log_tenant_time').on('online_log').columns(['tenant_id', 'mode', 'start_time']).execute();
      await db.schema
        .createIndex('online_log_member_time')
        .on('online_log')
        .columns(['tenant_id', 'router_name', 'mode', 'start_time'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['online_log', 'software_login', 'member_link', 'network_member', 'network', 'member']) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
