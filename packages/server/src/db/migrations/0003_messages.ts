import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/** The tenant's services (GET /account/service) and the message centre's list order. */
export function messages(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('service'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('service_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('start_time', 'bigint', (c) => c.notNull())
        .addColumn('expired_time', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('service_tenant').on('service').columns(['tenant_id', 'start_time']).execute();
      await db.schema.createIndex('message_tenant_time').on('message').columns(['tenant_id', 'create_time']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('message_tenant_time').ifExists().execute();
      await db.schema.dropTable('service').ifExists().execute();
    },
  };
}
