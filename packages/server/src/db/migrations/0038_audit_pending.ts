import type { Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { idColumn } from './helpers';

/**
 * The audit trail's outbox (issue 32): each audited row change of a call is written in the transaction
 * that makes it, as one row here, so a change that commits always leaves its record even when the
 * process dies before the call's entry is written. The call's end turns its rows into its entry and
 * deletes them in one transaction; rows a dead process left are turned into entries by the audit
 * module's sweep. A new table: additive.
 */
export function auditPending(dialect: Dialect): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('audit_pending'), dialect)
        /** The call (its audit scope), one id for all its rows. */
        .addColumn('scope_id', 'varchar(36)', (c) => c.notNull())
        /** JSON: who made the call and how (core/audit.ts PendingCall). */
        .addColumn('call', 'text', (c) => c.notNull())
        /** JSON: this statement's row changes (core/audit.ts CapturedChange[]). */
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('more', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_pending_scope').on('audit_pending').column('scope_id').execute();
      await db.schema.createIndex('audit_pending_time').on('audit_pending').column('create_time').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_pending').execute();
    },
  };
}
