import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * LDAP directory sync (issue 14): the CA certificates a tenant uploads, the domains it proved it owns,
 * its one directory connection with the state of its sync, and the directory's users as the last sync
 * read them (the listing of /ldap/user), each linked to the software member imported for it.
 */
export function ldap(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('ldap_file'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
        /** The object's key in ctx.storage, under the tenant. */
        .addColumn('storage_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ldap_file_tenant').on('ldap_file').columns(['tenant_id', 'id']).execute();

      await idColumn(db.schema.createTable('ldap_domain'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('domain', 'varchar(253)', (c) => c.notNull())
        /** What the verification file holds (random, per tenant and domain). */
        .addColumn('token', 'varchar(64)', (c) => c.notNull())
        /** When the file was found on the domain; null until then. */
        .addColumn('verify_time', 'bigint')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ldap_domain_tenant').unique().on('ldap_domain').columns(['tenant_id', 'domain']).execute();

      await db.schema
        .createTable('ldap_config')
        .addColumn('tenant_id', 'integer', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
        .addColumn('mode', 'varchar(8)', (c) => c.notNull())
        .addColumn('router_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('domain', 'varchar(253)', (c) => c.notNull())
        .addColumn('host', 'varchar(128)', (c) => c.notNull())
        .addColumn('port', 'integer', (c) => c.notNull())
        .addColumn('base_dn', 'varchar(255)', (c) => c.notNull())
        .addColumn('use_ssl', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('use_tls', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ca_id', 'integer', (c) => c.references('ldap_file.id').onDelete('set null'))
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('username', 'varchar(128)', (c) => c.notNull())
        /** The bind password sealed with ctx.secretBox (core/secretBox.ts), bound to the tenant. */
        .addColumn('password', 'text', (c) => c.notNull())
        .addColumn('network_number', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('sync_mode', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        /** The sync service: 1 running, 0 abnormal (sync_message says why). */
        .addColumn('sync_status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sync_message', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        /** When the last sync ended (null before the first) and how many seconds it took. */
        .addColumn('sync_time', 'bigint')
        .addColumn('sync_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        /** Minutes between automatic syncs, and when the next one is due. */
        .addColumn('sync_cycle', 'integer', (c) => c.notNull())
        .addColumn('sync_due', 'bigint', (c) => c.notNull())
        /** The listing's version (the hash of /ldap/user): raised whenever a sync changes the stored users. */
        .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('ldap_config_due').on('ldap_config').columns(['sync_mode', 'sync_due']).execute();

      await idColumn(db.schema.createTable('ldap_user'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        /** entryUUID (OpenLDAP) or objectGUID (Active Directory) as text. */
        .addColumn('uuid', 'varchar(64)', (c) => c.notNull())
        .addColumn('dn', 'text', (c) => c.notNull())
        .addColumn('username', 'varchar(256)', (c) => c.notNull())
        .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        /** The software member imported for the user; null when not imported (or the member was deleted). */
        .addColumn('member_id', 'integer', (c) => c.references('member.id').onDelete('set null'))
        /** Why the last import-all could not import the user ('' when nothing went wrong). */
        .addColumn('verify', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        /** The start of the last sync that saw the user in the directory. */
        .addColumn('seen', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ldap_user_uuid').unique().on('ldap_user').columns(['tenant_id', 'uuid']).execute();
      await db.schema.createIndex('ldap_user_name').on('ldap_user').columns(['tenant_id', 'username']).execute();
      await db.schema.createIndex('ldap_user_member').on('ldap_user').columns(['member_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['ldap_user', 'ldap_config', 'ldap_domain', 'ldap_file']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
