import type { Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { idColumn } from './helpers';

/**
 * The audit trail (issue 18): one row per successful authenticated mutating call, written from its
 * operation.performed event (event_id makes a second delivery write nothing), and each tenant's
 * retention. Entries keep the sub-account, token and operator as ids and names, without foreign keys:
 * an entry outlives the sub-account or token that made the call. New tables only: additive.
 */
export function audit(dialect: Dialect): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('audit_entry'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('event_id', 'bigint', (c) => c.notNull().unique())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        /** main | ram | token | operator (contract AUDIT_WHO). */
        .addColumn('who', 'varchar(16)', (c) => c.notNull())
        .addColumn('ram_id', 'integer')
        .addColumn('token_id', 'integer')
        /** The sub-account's username, the token's name, the operator's name when the call was made. */
        .addColumn('actor_name', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        /** console | api | cli (contract AUDIT_SOURCES). */
        .addColumn('source', 'varchar(16)', (c) => c.notNull())
        .addColumn('method', 'varchar(8)', (c) => c.notNull())
        .addColumn('path', 'varchar(128)', (c) => c.notNull())
        .addColumn('msg', 'varchar(255)', (c) => c.notNull())
        .addColumn('area', 'varchar(32)', (c) => c.notNull())
        /** create | update | delete | other (contract AUDIT_KINDS). */
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('object_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('object_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('object_name', 'varchar(255)', (c) => c.notNull())
        /** JSON: the row changes (contract auditRowChange[]). */
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('more', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('audit_entry_tenant_time').on('audit_entry').columns(['tenant_id', 'create_time']).execute();
      await db.schema.createIndex('audit_entry_time').on('audit_entry').column('create_time').execute();

      await db.schema
        .createTable('audit_setting')
        .addColumn('tenant_id', 'integer', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
        .addColumn('retention_days', 'integer', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['audit_setting', 'audit_entry']) await db.schema.dropTable(t).ifExists().execute();
    },
  };
}
