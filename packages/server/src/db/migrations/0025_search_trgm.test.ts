import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers';
import { memberSearch } from '../../modules/router/service';
import { TRIGRAM_INDEXES, trigramSchema } from './0025_search_trgm';

describeEachDatabase('migration 0025: trigram indexes for search', (t) => {
  const indexes = async () =>
    t().dialect === 'postgres'
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and indexname like '%_trgm'`.execute(t().db)).rows.map((r) => r.name).sort()
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name like '%_trgm'`.execute(t().db)).rows.map((r) => r.name);

  it('indexes member and network search on PostgreSQL, and adds nothing to SQLite', async () => {
    expect(await indexes()).toEqual(t().dialect === 'postgres' ? TRIGRAM_INDEXES.map((i) => i.name).sort() : []);
  });

  /** PostgreSQL's plan of the search box's own condition, kept from scanning the table. */
  const planOfSearch = (text: string) => {
    const query = t().db.selectFrom('member').select('id').where((eb) => memberSearch(t().ctx, eb, text)).compile();
    return t().db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return (await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` })).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  };

  it('lets PostgreSQL answer the member search box of three characters or more from the indexes', async (c) => {
    if (t().dialect !== 'postgres') return c.skip();
    // Whether the planner takes the index over the tenant's own rows depends on their number: at the
    // benchmark's 100,000 it does by itself (docs/performance.md).
    expect(await planOfSearch('User 0043')).toMatch(/Bitmap Index Scan on member_note_trgm/);
    expect(await planOfSearch('user0043')).toMatch(/Bitmap Index Scan on member_router_key_trgm/);
    expect(await planOfSearch('+86 1310')).toMatch(/Bitmap Index Scan on member_phone_trgm/);
  });

  it('goes on without the indexes, saying so once, where the extension cannot be created', async (c) => {
    if (t().dialect !== 'postgres') return c.skip();
    const warnings: string[] = [];
    await t().db.transaction().execute(async (trx) => {
      const schema = await trigramSchema(trx as unknown as Kysely<unknown>, (line) => warnings.push(line), 'hublink_no_such_extension');
      expect(schema).toBeNull();
      // The failed CREATE left the transaction usable.
      expect((await sql<{ one: number }>`select 1 as one`.execute(trx)).rows).toEqual([{ one: 1 }]);
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/hublink_no_such_extension could not be created .*search will scan/);
  });
});
