import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Sessions by sign-in (issue 32): a refresh ends one token and opens the next, so one sign-in is a chain
 * of rows. `family_id` names the chain's first row (its own id for a sign-in), and that row's `ended_at`
 * ends the whole chain: signing out, or a password change, ends every token of it, including one a
 * refresh racing the sign-out has just issued. Rows of earlier releases are each their own chain.
 */
export function sessionFamily(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('session').addColumn('family_id', 'varchar(64)').execute();
      await db.schema.alterTable('session').addColumn('ended_at', 'bigint').execute();
      await sql`update session set family_id = id`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('session').dropColumn('ended_at').execute();
      await db.schema.alterTable('session').dropColumn('family_id').execute();
    },
  };
}
