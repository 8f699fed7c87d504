import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect';
import type { HubMigration } from '../migrationTypes';
import { TRIGRAM_INDEXES } from './0025_search_trgm';

/*
 * The search indexes of PostgreSQL take their entries at once (issue 34). A GIN index's "fast update"
 * queues new entries in a pending list that every search reads whole until a vacuum merges it; the
 * member table is updated all day (notes, online flags: each such update adds the row to every index),
 * so searches read up to 4 MB of pending entries. Measured at 100,000 members: a one-row search took
 * 46 ms with 18,438 pending entries, 1.4 ms without; a note's edit costs 0.19 ms instead of 0.06 ms.
 * Indexes missing (pg_trgm not installed, migration 0025) are passed over. No table changes: additive.
 */
export function searchGinDirect(dialect: Dialect): HubMigration {
  const existing = async (db: Kysely<unknown>) => {
    const found: string[] = [];
    for (const i of TRIGRAM_INDEXES) {
      const { rows } = await sql<{ oid: string | null }>`select to_regclass(${i.name})::text as oid`.execute(db);
      if (rows[0]?.oid) found.push(i.name);
    }
    return found;
  };
  return {
    async up(db) {
      if (dialect !== 'postgres') return;
      for (const name of await existing(db)) {
        await sql`alter index ${sql.id(name)} set (fastupdate = off)`.execute(db);
        await sql`select gin_clean_pending_list(${name}::regclass)`.execute(db);
      }
    },
    async down(db) {
      if (dialect !== 'postgres') return;
      for (const name of await existing(db)) await sql`alter index ${sql.id(name)} reset (fastupdate)`.execute(db);
    },
  };
}
