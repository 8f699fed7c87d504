import type { Kysely } from 'kysely';
import type { HubMigration } from '../migrationTypes';

/*
 * A network settings change's effect, kept where its save is recorded (issue 36): the network's version
 * and the call's audit entry get a JSON column (contract ChangeEffect), null where none was worked out
 * (rows from before, changes by the system, calls that are not network settings). Nullable columns:
 * additive, an earlier release ignores them.
 */
export function changeEffect(): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('network_version').addColumn('effect', 'text').execute();
      await db.schema.alterTable('audit_entry').addColumn('effect', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('network_version').dropColumn('effect').execute();
      await db.schema.alterTable('audit_entry').dropColumn('effect').execute();
    },
  };
}
