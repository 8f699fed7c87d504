import type { Kysely, Migration } from 'kysely';

/**
 * Standard OpenVPN clients (issue 30): a connect-log row also records a refused connection of a
 * software member's client at a center, with the reason it was refused ('' for the rows of sessions).
 */
export function clientSessions(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('connect_log').addColumn('reason', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('connect_log').dropColumn('reason').execute();
    },
  };
}
