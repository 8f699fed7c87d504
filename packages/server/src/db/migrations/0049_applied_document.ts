import type { Kysely } from 'kysely';
import type { HubMigration } from '../migrationTypes';

/*
 * Networks as code (issue 36): the version an applied document left the network at is marked, so the
 * network's drift is what changed after the latest marked version. A nullable column: additive, an
 * earlier release ignores it.
 */
export function appliedDocument(): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('network_version').addColumn('applied', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('network_version').dropColumn('applied').execute();
    },
  };
}
