import type { Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { idColumn } from './helpers';

/**
 * Personal API tokens (issue 18): a new table, nothing else changes (additive, so the previous release
 * runs on beside it). role_id has no foreign key: deleting a role stays possible and leaves its tokens
 * unusable, which authentication checks.
 */
export function apiToken(dialect: Dialect): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('api_token'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('scope', 'varchar(8)', (c) => c.notNull())
        .addColumn('role_id', 'integer')
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addColumn('last_used_ip', 'varchar(64)')
        .execute();
      await db.schema.createIndex('api_token_tenant').on('api_token').columns(['tenant_id', 'revoked_at', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('api_token').ifExists().execute();
    },
  };
}
