import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, sharedDatabase } from '../../test/helpers';
import type { DbHandle } from './connect';
import { compareSchema, databaseTables, declaredTables, TYPES_FILE, UNTYPED_TABLES, type TableColumns } from './typesDrift';

/*
 * db/types.ts is written by hand; the migrations make the schema. An empty database of each kind,
 * migrated to the latest, has exactly the tables and columns `Database` declares, but for the tables
 * UNTYPED_TABLES names.
 */

const MEMBERS_FILE = path.join(path.dirname(TYPES_FILE), 'types/members.ts');
const declared = declaredTables();
const sorted = (lines: string[]) => [...lines].sort();

describe('declaredTables: Database read with the TypeScript compiler', () => {
  it('lists every table of every area with its interface and columns', () => {
    const byName = new Map(declared.map((t) => [t.name, t]));
    expect(byName.size).toBe(declared.length);
    expect(byName.get('member')).toMatchObject({ interface: 'MemberTable' });
    expect(byName.get('member')!.columns).toEqual(expect.arrayContaining(['id', 'tenant_id', 'router_name', 'network_count']));
    expect(byName.get('monitor_webhook_lane')!.columns).toEqual(['tenant_id', 'target', 'window_until', 'lease_until', 'recent', 'update_time']);
    expect(byName.get('network_fr')!.columns).toContain('ticket_id');
  });

  it('follows extends and type aliases, of Database and of a row', () => {
    const file = path.join(path.dirname(TYPES_FILE), 'planted/types.ts');
    const text = [
      'interface Stamped { create_time: number }',
      'interface WidgetTable extends Stamped { id: number; name: string | null }',
      'type GadgetRow = WidgetTable & { gadget: string };',
      'interface AreaSchema { widget: WidgetTable }',
      'export interface Database extends AreaSchema { gadget: GadgetRow; part: { id: number; widget_id: number } }',
    ].join('\n');
    const tables = declaredTables(file, { [file]: text });
    expect(tables.map((t) => ({ ...t, columns: [...t.columns].sort() }))).toEqual([
      { name: 'gadget', interface: 'GadgetRow', columns: ['create_time', 'gadget', 'id', 'name'], nullable: ['name'] },
      { name: 'part', interface: '{ id: number; widget_id: number; }', columns: ['id', 'widget_id'], nullable: [] },
      { name: 'widget', interface: 'WidgetTable', columns: ['create_time', 'id', 'name'], nullable: ['name'] },
    ]);
  });
});

describe('compareSchema names each difference', () => {
  it('a column the database lets be null but the type does not (the other way round is only stricter)', () => {
    const types = [{ name: 'widget', columns: ['id', 'name', 'note'], nullable: ['note'], interface: 'WidgetTable' }];
    const database = [{ name: 'widget', columns: ['id', 'name', 'note'], nullable: ['name'] }];
    expect(compareSchema(types, database)).toEqual(['column widget.name may be null in the database but WidgetTable types it without null']);
  });

  const actual: TableColumns[] = [
    { name: 'widget', columns: ['id', 'name'] },
    { name: 'gadget', columns: ['id'] },
    { name: 'kysely_migration', columns: ['name', 'timestamp'] },
  ];

  it('nothing when they match, the untyped tables aside', () => {
    const same = [
      { name: 'widget', columns: ['name', 'id'], interface: 'WidgetTable' },
      { name: 'gadget', columns: ['id'], interface: 'GadgetTable' },
    ];
    expect(compareSchema(same, actual)).toEqual([]);
  });

  it('a table or column on either side only, and an untyped table declared', () => {
    const off = [
      { name: 'widget', columns: ['id', 'colour'], interface: 'WidgetTable' },
      { name: 'sprocket', columns: ['id'], interface: 'SprocketTable' },
      { name: 'kysely_migration', columns: ['name', 'timestamp'], interface: 'MigrationTable' },
    ];
    expect(sorted(compareSchema(off, actual))).toEqual([
      'column widget.colour is declared in WidgetTable but the database has no such column',
      'column widget.name is in the database but not in WidgetTable',
      'table gadget is in the database but not in Database',
      'table kysely_migration is declared in Database (MigrationTable) but listed as untyped',
      'table sprocket is declared in Database (SprocketTable) but the database has no such table',
    ]);
  });
});

for (const dialect of DATABASES) {
  describe(`db/types.ts against a migrated empty database [${dialect}]`, () => {
    let database: Awaited<ReturnType<typeof sharedDatabase>>;
    let handle: DbHandle;
    let actual: TableColumns[];
    beforeAll(async () => {
      database = await sharedDatabase(dialect);
      handle = database.open();
      actual = await databaseTables(handle);
    });
    afterAll(async () => {
      await handle?.close();
      await database?.drop();
    });

    it('every table and column of the database is in Database, and every one of Database in the database', () => {
      expect(compareSchema(declared, actual)).toEqual([]);
    });

    it('the tables left out are the ones UNTYPED_TABLES names for this kind of database, and they are there', () => {
      const names = new Set(actual.map((t) => t.name));
      const named = Object.entries(UNTYPED_TABLES).filter(([, u]) => u.dialects.includes(dialect));
      expect(named.map(([n]) => n).filter((n) => !names.has(n))).toEqual([]);
      expect(declared.filter((t) => t.name in UNTYPED_TABLES)).toEqual([]);
    });

    it('fails on a column planted in the interface text of a table, naming it', () => {
      const text = fs.readFileSync(MEMBERS_FILE, 'utf8');
      const planted = text.replace('export interface MemberTable {\n', 'export interface MemberTable {\n  planted_column: string;\n');
      expect(planted).not.toBe(text);
      expect(compareSchema(declaredTables(TYPES_FILE, { [MEMBERS_FILE]: planted }), actual)).toEqual([
        'column member.planted_column is declared in MemberTable but the database has no such column',
      ]);
    });

    it('fails on a nullable column typed without null, naming it', () => {
      const text = fs.readFileSync(MEMBERS_FILE, 'utf8');
      const planted = text.replace(/(export interface MemberTable \{[^}]*?\bphone: string) \| null;/, '$1;');
      expect(planted).not.toBe(text);
      expect(compareSchema(declaredTables(TYPES_FILE, { [MEMBERS_FILE]: planted }), actual)).toEqual([
        'column member.phone may be null in the database but MemberTable types it without null',
      ]);
    });

    it('fails on a column and a table only the database has, naming them', async () => {
      await sql`alter table member add column planted_column integer`.execute(handle.db);
      await sql`create table planted_table (id integer primary key)`.execute(handle.db);
      expect(sorted(compareSchema(declared, await databaseTables(handle)))).toEqual([
        'column member.planted_column is in the database but not in MemberTable',
        'table planted_table is in the database but not in Database',
      ]);
    });
  });
}
