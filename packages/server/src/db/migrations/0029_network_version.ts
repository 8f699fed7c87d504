import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/**
 * Network configuration history (issue 18): one row per change of a network's settings or
 * membership, numbered 1, 2, … per network, with who made it, a summary and the full snapshot that
 * a rollback restores. The rows go with their network and tenant.
 */
export function networkVersion(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('network_version'), dialect)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('network_id', 'integer', (c) => c.notNull().references('network.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        /** main | ram | token | system (contract HISTORY_WHO). */
        .addColumn('who_kind', 'varchar(16)', (c) => c.notNull())
        /** The account's or sub-account's username, the token's name; '' for the system. */
        .addColumn('who_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ram_id', 'integer')
        .addColumn('api_token_id', 'integer')
        .addColumn('summary', 'text', (c) => c.notNull())
        /** JSON NetworkSnapshot (contract networkHistory.ts). */
        .addColumn('snapshot', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('network_version_number').unique().on('network_version').columns(['network_id', 'version']).execute();
      await db.schema.createIndex('network_version_tenant').on('network_version').columns(['tenant_id', 'network_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('network_version').ifExists().execute();
    },
  };
}
