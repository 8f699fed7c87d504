import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../connect';

/**
 * Member and network search on PostgreSQL (issue 16): trigram GIN indexes (pg_trgm) of the columns the
 * search boxes look in, so ILIKE '%text%' of three characters or more reads the index instead of every
 * row. SQLite has its own trigram index of members (migration 0008) and nothing here.
 *
 * The extension is the database's, not the schema's: an installed one is used wherever it is; a new one
 * goes into public when we may create there (a schema that is dropped, like a test's, would take it and
 * every other schema's indexes with it), else into our schema. Where it cannot be created (pg_trgm not
 * installed on the server, or no right to create it) the migration logs one warning and succeeds: the
 * search then scans, as before (docs/performance.md, "Search on PostgreSQL").
 */

export const TRIGRAM_INDEXES = [
  { name: 'member_router_key_trgm', table: 'member', column: 'router_key' },
  { name: 'member_note_trgm', table: 'member', column: 'note' },
  { name: 'member_phone_trgm', table: 'member', column: 'phone' },
  { name: 'network_name_trgm', table: 'network', column: 'network_name' },
  { name: 'network_number_trgm', table: 'network', column: 'network_number' },
] as const;

export type Warn = (line: string) => void;

const warnOnStderr: Warn = (line) => console.warn(line);

/**
 * The schema holding pg_trgm, creating the extension when it is missing; null (and one warning) when it
 * cannot be. Runs in the migration's transaction: a failed CREATE is rolled back to a savepoint, so
 * the migration goes on.
 */
export async function trigramSchema(db: Kysely<unknown>, warn: Warn = warnOnStderr, extension = 'pg_trgm'): Promise<string | null> {
  const installed = async () =>
    (await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = ${extension}`.execute(db)).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  const { rows } = await sql<{ schema: string }>`
    select coalesce((select nspname::text from pg_namespace where nspname = 'public' and has_schema_privilege(oid, 'create')), current_schema()) as schema`.execute(db);
  const target = rows[0]!.schema;
  await sql`savepoint search_trgm`.execute(db);
  try {
    await sql`create extension if not exists ${sql.id(extension)} with schema ${sql.id(target)}`.execute(db);
    await sql`release savepoint search_trgm`.execute(db);
    return target;
  } catch (err) {
    await sql`rollback to savepoint search_trgm`.execute(db);
    // Another database session may have created it meanwhile.
    const meanwhile = await installed();
    if (meanwhile) return meanwhile;
    warn(
      `hublink: PostgreSQL extension ${extension} could not be created (${err instanceof Error ? err.message : String(err)}): ` +
        'member and network search will scan their tables; see docs/performance.md, "Search on PostgreSQL", to add the indexes later',
    );
    return null;
  }
}

export function searchTrgm(dialect: Dialect, warn: Warn = warnOnStderr): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      const schema = await trigramSchema(db, warn);
      if (schema === null) return;
      for (const i of TRIGRAM_INDEXES) {
        await sql`create index if not exists ${sql.id(i.name)} on ${sql.id(i.table)} using gin (${sql.id(i.column)} ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      // The extension stays: other schemas of the database may use it.
      for (const i of TRIGRAM_INDEXES) await sql`drop index if exists ${sql.id(i.name)}`.execute(db);
    },
  };
}
