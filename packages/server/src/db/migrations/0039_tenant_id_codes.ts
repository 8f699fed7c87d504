import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';

/** The ID code's alphabet and length as core/accounts.ts draws them (a migration keeps its own copy: it must not change). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 8;

/**
 * Every tenant gets its ID code now (issue 32): it used to be drawn on the first GET of the sign-in
 * sources' page, a read that wrote. Accounts are given one when made; this gives the earlier ones
 * theirs. Rows only: additive, and an earlier release reads them as its own.
 */
export function tenantIdCodes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<{ id: number }>`select a.id from account a where not exists (select 1 from auth_source_code c where c.tenant_id = a.id)`.execute(db);
      for (const { id } of rows) {
        for (let attempt = 0; ; attempt++) {
          const code = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
          const taken = await sql`select 1 from auth_source_code where code = ${code}`.execute(db);
          if (taken.rows.length === 0) {
            await sql`insert into auth_source_code (tenant_id, code, create_time) values (${id}, ${code}, ${Date.now()})`.execute(db);
            break;
          }
          if (attempt > 20) throw new Error(`no free ID code for tenant ${id}`);
        }
      }
    },
    async down() {
      // The codes stay: an earlier release reads them as its own.
    },
  };
}
