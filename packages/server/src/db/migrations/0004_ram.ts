import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Sub-accounts and roles: the tenant's sub-account quota, an index for "which sub-accounts have this
 * role", and the operation log of sub-accounts (one row per successful mutating call).
 * ram_log.ram_id has no foreign key on purpose: the log outlives a deleted sub-account.
 */
export function ram(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('account')
        .addColumn('ram_quantity', 'integer', (c) => c.notNull().defaultTo(10))
        .execute();

      await db.schema.createIndex('ram_account_role').on('ram_account').columns(['role_id']).execute();

      await idColumn(db.schema.createTable('ram_log'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('ram_id', 'integer', (c) => c.notNull())
        .addColumn('mode', 'varchar(32)', (c) => c.notNull())
        .addColumn('action', 'varchar(64)', (c) => c.notNull())
        .addColumn('message', 'varchar(255)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ram_log_ram_time').on('ram_log').columns(['tenant_id', 'ram_id', 'create_time']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('ram_log').ifExists().execute();
      await db.schema.dropIndex('ram_account_role').ifExists().execute();
      await db.schema.alterTable('account').dropColumn('ram_quantity').execute();
    },
  };
}
