import { sql, type Kysely, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATABASES } from '../../test/helpers';
import { emptyDatabase } from '../../test/upgradeDatabase';
import { appliedNames, readRows, readSchema, seedEveryTable } from '../../test/upgradeSeed';
import { MigrationError, migrateToLatest, migrations, type MigrationLogger } from './migrate';

/** A migration that changes schema and rows and then fails, as a bug or a refused constraint would. */
const failsHalfWay: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('upgrade_scratch').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('note', 'text').execute();
    await sql`insert into upgrade_scratch (id, note) values (1, 'half way')`.execute(db);
    await db.schema.alterTable('member').addColumn('upgrade_flag', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('member_upgrade_flag').on('member').column('upgrade_flag').execute();
    await sql`update account set nickname = 'changed'`.execute(db);
    await sql`delete from network_member`.execute(db);
    throw new Error('the data does not fit the new rule');
  },
};

const succeeds: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('upgrade_kept').addColumn('id', 'integer', (c) => c.primaryKey()).execute();
  },
};

function recorder() {
  const lines: { level: string; fields: object; msg: string }[] = [];
  const at = (level: string) => (fields: object, msg: string) => void lines.push({ level, fields, msg });
  const log: MigrationLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, log };
}

const shape = async (h: Parameters<typeof readSchema>[0]) =>
  Object.fromEntries((await readSchema(h)).map((t) => [t.name, t.columns.map((c) => `${c.name} ${c.type} ${c.notNull ? 'not null' : ''}`)]));

for (const dialect of DATABASES) {
  describe(`a migration that fails half way [${dialect}]`, () => {
    it('is rolled back whole, the ones before it stay applied, and the log names it', async () => {
      const { handle, drop } = await emptyDatabase(dialect);
      try {
        await migrateToLatest(handle);
        await seedEveryTable(handle, 'not-a-real-hash');
        const tables = await shape(handle);
        const rows = await readRows(handle);
        const applied = await appliedNames(handle);
        const indexes = async () =>
          dialect === 'sqlite'
            ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' order by name`.execute(handle.db)).rows
            : (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() order by indexname`.execute(handle.db)).rows;
        const indexesBefore = await indexes();

        const { lines, log } = recorder();
        const list = { ...migrations(handle), '0900_kept': succeeds, '0901_fails_half_way': failsHalfWay };
        const err: unknown = await migrateToLatest(handle, log, { list }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(MigrationError);
        expect((err as MigrationError).migration).toBe('0901_fails_half_way');

        expect(await appliedNames(handle)).toEqual([...applied, '0900_kept']);
        expect(await shape(handle)).toEqual({ ...tables, upgrade_kept: ['id integer not null'] });
        const now = await readRows(handle);
        for (const [table, before] of rows) expect(now.get(table), table).toEqual(before);
        expect(await indexes()).toEqual(expect.arrayContaining(indexesBefore));
        expect((await indexes()).map((i) => i.name)).not.toContain('member_upgrade_flag');

        expect(lines.find((l) => l.level === 'info' && l.msg.startsWith('migration 0900_kept applied in'))).toBeDefined();
        const failed = lines.find((l) => l.level === 'error');
        expect(failed?.msg).toMatch(/^migration 0901_fails_half_way failed and was rolled back: the database is as it was before it \(the data does not fit the new rule\)$/);
        expect(failed?.fields).toMatchObject({ migration: '0901_fails_half_way' });

        // Fixed and started again, it goes on from the failed one.
        const fixed: Migration = { up: (db) => db.schema.createTable('upgrade_scratch').addColumn('id', 'integer', (c) => c.primaryKey()).execute() };
        const again = recorder();
        await migrateToLatest(handle, again.log, { list: { ...list, '0901_fails_half_way': fixed } });
        expect(await appliedNames(handle)).toEqual([...applied, '0900_kept', '0901_fails_half_way']);
        expect(again.lines.map((l) => l.msg)).toEqual([
          'applying 1 migration(s), each in a transaction of its own',
          expect.stringMatching(/^migration 0901_fails_half_way applied in \d+ ms$/),
          expect.stringMatching(/^database is at 0901_fails_half_way \(1 migration\(s\) in \d+ ms\)$/),
        ]);
      } finally {
        await drop();
      }
    });
  });
}
