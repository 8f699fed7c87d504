import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteForKysely } from './sqliteForKysely';

interface Db {
  t: { id: Generated<number>; name: string; note: string | null; extra?: number };
}

describe('sqliteForKysely', () => {
  let raw: SQLite.Database;
  let db: Kysely<Db>;
  const open = () => {
    raw = new SQLite(':memory:');
    db = new Kysely<Db>({ dialect: new SqliteDialect({ database: sqliteForKysely(raw) }) });
    raw.exec("create table t (id integer primary key, name text, note text); insert into t (name, note) values ('a', 'x'), ('b', null)");
  };
  afterEach(async () => {
    await db.destroy();
  });

  it('returns the rows better-sqlite3 itself returns, a later column of the same name winning', async () => {
    open();
    const text = 'select t.id, t.name, t.note, u.name from t join t as u on u.id = t.id order by t.id';
    expect((await sql.raw(text).execute(db)).rows).toEqual(raw.prepare(text).all());
    expect((await sql.raw(text).execute(db)).rows).toEqual([
      { id: 1, name: 'a', note: 'x' },
      { id: 2, name: 'b', note: null },
    ]);
  });

  it('reuses a statement with other parameters, and reports what a write changed', async () => {
    open();
    const byId = (id: number) => db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ name: 'a' });
    expect(await byId(2)).toEqual({ name: 'b' });
    const inserted = await db.insertInto('t').values({ name: 'c' }).executeTakeFirstOrThrow();
    expect(inserted.insertId).toBe(3n);
    const updated = await db.updateTable('t').set({ note: 'y' }).where('id', '>', 1).executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(2n);
    expect(await db.insertInto('t').values({ name: 'd' }).returning(['id', 'name']).executeTakeFirstOrThrow()).toEqual({ id: 4, name: 'd' });
  });

  it('sees a schema change made through it: a cached select * gets the new column', async () => {
    open();
    const all = () => db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(await all()).toEqual({ id: 1, name: 'a', note: 'x' });
    await db.schema.alterTable('t').addColumn('extra', 'integer', (c) => c.defaultTo(7)).execute();
    expect(await all()).toEqual({ id: 1, name: 'a', note: 'x', extra: 7 });
  });

  it('streams rows as objects', async () => {
    open();
    const names: unknown[] = [];
    for await (const row of db.selectFrom('t').select(['id', 'name']).orderBy('id').stream()) names.push(row);
    expect(names).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
  });
});
