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
