import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATABASES } from '../../test/helpers';
import { rollingViolations } from '../../test/rollingRule';
import { emptyDatabase } from '../../test/upgradeDatabase';
import { readSchema, seedEveryTable } from '../../test/upgradeSeed';
import { MigrationError, migrateToLatest, migrations, ROLLING_BASELINE, type HubMigration, type MigrationLogger } from './migrate';

const raw = (...statements: string[]) => async (db: Kysely<unknown>) => {
  for (const s of statements) await sql.raw(s).execute(db);
};

for (const dialect of DATABASES) {
  describe(`migrations during a rolling upgrade [${dialect}]`, () => {
    it(`are additive after ${ROLLING_BASELINE}: removals only a release after their deprecation`, async () => {
      const { handle, drop } = await emptyDatabase(dialect);
      try {
        expect(await rollingViolations(handle, migrations(handle), ROLLING_BASELINE)).toEqual([]);
      } finally {
        await drop();
      }
    });

    it('are refused when they drop, rename or retype what the running release uses', async () => {
      const { handle, drop } = await emptyDatabase(dialect);
      try {
        const list: Record<string, HubMigration> = {
          ...migrations(handle),
          '0901_drop_column': { up: raw('alter table account drop column occupation') },
          '0902_rename_table': { up: raw('alter table announcement rename to notice') },
          '0903_deprecate': { deprecates: ['account.birthday'], up: async () => {} },
          '0904_remove_deprecated': { removes: ['account.birthday'], up: raw('alter table account drop column birthday') },
          '0905_remove_undeprecated': { removes: ['account.industry'], up: raw('alter table account drop column industry') },
          '0906_additive': {
            up: raw('alter table member add column region varchar(32)', "alter table network add column tier integer not null default 1", 'create index member_region on member (region)'),
          },
          ...(dialect === 'postgres'
            ? {
                '0907_retype': { up: raw('alter table message alter column title type varchar(64)') },
                '0908_required_column': { up: raw('alter table member add column owner integer not null') },
                '0909_not_null': { up: raw('alter table account alter column email set not null') },
              }
            : {}),
        };
        expect(await rollingViolations(handle, list, ROLLING_BASELINE)).toEqual([
          '0901_drop_column drops or renames column account.occupation',
          '0902_rename_table drops or renames table announcement',
          '0905_remove_undeprecated removes column account.industry, which no earlier migration deprecates',
          ...(dialect === 'postgres'
            ? [
                '0907_retype changes the type of message.title (character varying(255) to character varying(64))',
                '0908_required_column adds member.owner not null without a default',
                '0909_not_null makes account.email not null',
              ]
            : []),
        ]);
      } finally {
        await drop();
      }
    });
  });
}

/** The next release's migration as the rule allows it: new nullable or defaulted columns and an index on the busiest tables. */
const nextRelease: HubMigration = {
  up: raw(
    'alter table member add column region varchar(32)',
    'alter table network add column tier integer not null default 1',
    'create index member_region on member (tenant_id, region)',
    'create table member_tag (id serial primary key, member_id integer not null references member (id) on delete cascade, tag varchar(32) not null)',
  ),
};

function recorder() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_fields: object, msg: string) => void lines.push({ level, msg });
  const log: MigrationLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, log };
}

describe.skipIf(!DATABASES.includes('postgres'))('a rolling upgrade on PostgreSQL', () => {
  it("keeps the running release's queries succeeding while the next release migrates", async () => {
    const { handle, open, drop } = await emptyDatabase('postgres');
    const running = open();
    try {
      const list = { ...migrations(handle), '0900_next_release': nextRelease };
      const names = Object.keys(list).sort();
      // The running release is two migrations behind: the latest one and the next release's apply together.
      const previous = names[names.length - 3]!;
      await migrateToLatest(handle, undefined, { list, to: previous });
      await seedEveryTable(handle, 'not-a-real-hash');
      const shape = await readSchema(handle);
      const tenant = await sql<{ id: number }>`select id from account limit 1`.execute(handle.db);
      const tenantId = tenant.rows[0]!.id;

      // The running release's queries name the columns it knows (as Kysely writes them for its code).
      const errors: string[] = [];
      const spans: { start: number; end: number }[] = [];
      let migrated = false;
      let n = 0;
      const worker = async (w: number) => {
        for (let afterwards = 0; afterwards < 2; ) {
          if (migrated) afterwards++;
          const start = performance.now();
          try {
            for (const t of shape) await sql`select ${sql.join(t.columns.map((c) => sql.ref(c.name)))} from ${sql.table(t.name)} limit 5`.execute(running.db);
            const name = `old${w}x${++n}`;
            const now = Date.now();
            await running.db
              .insertInto('member')
              .values({ tenant_id: tenantId, router_name: name, router_key: name, router_type: 1, note: '门店', secret_hash: 'x', area_number: null, phone: null, online_time: null, create_time: now, update_time: now })
              .execute();
            await running.db.updateTable('network').set({ network_name: `总部与门店 ${n}`, update_time: now }).where('tenant_id', '=', tenantId).execute();
            await running.db.insertInto('message').values({ tenant_id: tenantId, title: '设备上线', content: name, type: 'router', status: 0, create_time: now }).execute();
          } catch (e) {
            errors.push(String(e));
          }
          spans.push({ start, end: performance.now() });
        }
      };
      const workers = [1, 2, 3].map(worker);
      const { lines, log } = recorder();
      const t0 = performance.now();
      const migrating = migrateToLatest(handle, log, { list }).finally(() => {
        migrated = true;
      });
      await Promise.all([migrating, ...workers]);
      const t1 = performance.now();

      expect(errors).toEqual([]);
      expect(spans.filter((s) => s.end > t0 && s.start < t1).length).toBeGreaterThan(0);
      expect(lines.filter((l) => l.msg.includes(' applied in ')).length).toBe(2);
      const columns = (await readSchema(handle)).find((t) => t.name === 'member')!.columns.map((c) => c.name);
      expect(columns).toContain('region');
    } finally {
      await running.close();
      await drop();
    }
  });

  it('rolls a migration back when it cannot take its lock in time, instead of queueing traffic behind it', async () => {
    const { handle, open, drop } = await emptyDatabase('postgres');
    const blocker = open();
    try {
      await migrateToLatest(handle);
      const list = { ...migrations(handle), '0900_next_release': nextRelease };
      // A long transaction of the running release that has read member: ALTER TABLE member must wait for it.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const held = new Promise<void>((r) => (holding = r));
      const holder = blocker.db.connection().execute(async (c) => {
        await sql`begin`.execute(c);
        await sql`select count(*) from member`.execute(c);
        holding();
        await released;
        await sql`commit`.execute(c);
      });
      await held;

      const { lines, log } = recorder();
      const err: unknown = await migrateToLatest(handle, log, { list, lockTimeoutMs: 300, lockAttempts: 2, backoffMs: () => 0 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect(lines.map((l) => `${l.level} ${l.msg}`)).toEqual([
        'info applying 1 migration(s), each in a transaction of its own',
        'warn migration 0900_next_release waited 300 ms for a table lock and was rolled back (the database is as before it); trying again in 0 ms (attempt 2 of 2)',
        'error migration 0900_next_release failed and was rolled back: the database is as it was before it (could not take a table lock within 300 ms in 2 attempt(s) (a long transaction holds the table: see pg_stat_activity))',
      ]);
      expect((await readSchema(handle)).find((t) => t.name === 'member')!.columns.map((c) => c.name)).not.toContain('region');

      release();
      await holder;
      await migrateToLatest(handle, undefined, { list });
      expect((await readSchema(handle)).find((t) => t.name === 'member')!.columns.map((c) => c.name)).toContain('region');
    } finally {
      await blocker.close();
      await drop();
    }
  });
});
