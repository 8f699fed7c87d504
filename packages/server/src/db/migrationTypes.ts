import type { Migration } from 'kysely';

/**
 * What a migration says about removals (docs/operations.md, "Upgrades"): the old release keeps running
 * beside the new one, so a table or column goes away in two releases. `deprecates` ships with the
 * code that stops using it (the migration may change nothing else); `removes` ships a release later
 * and drops it. Names are 'table' or 'table.column'. db/migrationRules.test.ts holds every migration
 * after ROLLING_BASELINE (db/migrate.ts) to this.
 *
 * A file of its own so that a migration can name its type without importing migrate.ts, which imports
 * every migration.
 */
export interface Removals {
  deprecates?: string[];
  removes?: string[];
}

export type HubMigration = Migration & Removals;
