import os from 'node:os';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { connect, connectOptionsOf } from './connect';
import { statementName } from './pgNamedStatements';

const databaseUrl = process.env.TEST_DATABASE_URL;

describe('the names of PostgreSQL statements', () => {
  it('gives one text one name, and none to what a schema change could break', () => {
    const text = 'select "id", "router_name" from "member" where "tenant_id" = $1 and "id" in ($2, $3)';
    const name = statementName(text, 3);
    expect(name).toMatch(/^hl\d+$/);
    expect(statementName(text, 3)).toBe(name);
    expect(statementName(`${text} limit $4`, 4)).not.toBe(name);
    expect(statementName('select count(*) as "n" from "member" where "tenant_id" = $1', 1)).toBeDefined();
    // A batch's text changes with its length: named, every length would keep a plan in every connection.
    const batch = `select "id" from "member" where "id" in (${Array.from({ length: 40 }, (_, i) => `$${i + 1}`).join(', ')})`;
    expect(statementName(batch, 40)).toBeUndefined();
    for (const unnamed of [
      'select * from "member" where "id" = $1',
      'select "member".* from "member" where "id" = $1',
      'select "id", "network".* from "network" where "id" = $1',
      'insert into "member" ("router_name") values ($1) returning *',
      'alter table "member" add column "x" text default $1',
      'create index "x" on "member" ("router_name")',
    ])
      expect(statementName(unnamed, 1), unnamed).toBeUndefined();
  });
});

describe.skipIf(!databaseUrl)('named statements on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  it('prepares a statement once on a connection and runs it by name after that', async () => {
    const handle = connect({ databaseUrl, dataDir: os.tmpdir(), poolSize: 1 });
    try {
      const query = (n: number) => sql<{ v: number }>`select ${n}::int + 1 as v`.execute(handle.db);
      expect((await query(1)).rows).toEqual([{ v: 2 }]);
      expect((await query(41)).rows).toEqual([{ v: 42 }]);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(handle.db);
      expect(prepared.rows.map((r) => r.statement)).toEqual(['select $1::int + 1 as v']);
    } finally {
      await handle.close();
    }
  });

  it('keeps none with DATABASE_NAMED_STATEMENTS=off', async () => {
    const config = loadConfig({ HUBLINK_DATA_DIR: os.tmpdir(), DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '1', DATABASE_NAMED_STATEMENTS: 'off' });
    const handle = connect(connectOptionsOf(config));
    try {
      expect((await sql<{ v: number }>`select ${2}::int + 1 as v`.execute(handle.db)).rows).toEqual([{ v: 3 }]);
      expect((await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(handle.db)).rows).toEqual([{ n: 0 }]);
    } finally {
      await handle.close();
    }
  });
});
