import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../connect';
import { idColumn } from './helpers';

/** Emailed validation links (/validate/email?s=TOKEN): one row per link, the token stored hashed. */
export function account(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('email_validation'), dialect)
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('account.id').onDelete('cascade'))
        .addColumn('email', 'varchar(128)', (c) => c.notNull())
        .addColumn('subject', 'varchar(32)', (c) => c.notNull())
        .addColumn('subject_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('email_validation_subject')
        .on('email_validation')
        .columns(['tenant_id', 'subject', 'subject_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('email_validation').ifExists().execute();
    },
  };
}
