import type { Kysely } from 'kysely';
import type { HubMigration } from '../migrationTypes';

/**
 * The directory sync of issue 33: a tenant's choice that the automatic sync imports new users, and per
 * directory user the mark of its last password change as the directory gives it (pwdChangedTime,
 * pwdLastSet, or the entry's change stamp), which the sync compares to end a member's sessions when it
 * moves. The sync cycle already has its column (sync_cycle); it becomes the tenant's. New columns with
 * defaults: additive, and an earlier release ignores them.
 */
export function ldapSync(): HubMigration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('ldap_config').addColumn('auto_import', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('ldap_user').addColumn('password_mark', 'varchar(128)', (c) => c.notNull().defaultTo('')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('ldap_user').dropColumn('password_mark').execute();
      await db.schema.alterTable('ldap_config').dropColumn('auto_import').execute();
    },
  };
}
