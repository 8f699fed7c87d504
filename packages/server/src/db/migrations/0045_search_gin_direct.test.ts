import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers';
import { TRIGRAM_INDEXES } from './0025_search_trgm';
import { searchGinDirect } from './0045_search_gin_direct';

describeEachDatabase('migration 0045: search indexes without a pending list', (t) => {
  it('turns fast update off on every trigram index of PostgreSQL, and back on when undone', async () => {
    const raw = t().db as unknown as Kysely<unknown>;
    const options = async () => {
      const { rows } = await sql<{ name: string; options: string[] | null }>`
        select c.relname as name, c.reloptions as options from pg_class c where c.oid = any(${TRIGRAM_INDEXES.map((i) => i.name)}::regclass[])`.execute(raw);
      return Object.fromEntries(rows.map((r) => [r.name, r.options ?? []]));
    };
    if (t().dialect !== 'postgres') {
      // Nothing to do on SQLite: its search index (FTS5) has no pending list.
      await searchGinDirect('sqlite').up(raw);
      await searchGinDirect('sqlite').down!(raw);
      return;
    }
    const off = Object.fromEntries(TRIGRAM_INDEXES.map((i) => [i.name, ['fastupdate=off']]));
    expect(await options()).toEqual(off);
    await searchGinDirect('postgres').down!(raw);
    expect(await options()).toEqual(Object.fromEntries(TRIGRAM_INDEXES.map((i) => [i.name, []])));
    await searchGinDirect('postgres').up(raw);
    expect(await options()).toEqual(off);
  });
});
