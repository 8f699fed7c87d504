import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DbHandle } from './connect';
import { foundation } from './migrations/0001_foundation';

/** The ordered list of migrations; names sort in the order they run. */
function migrations(handle: DbHandle): Record<string, Migration> {
  return {
    '0001_foundation': foundation(handle.dialect),
  };
}

export async function migrateToLatest(handle: DbHandle): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle) };
  const migrator = new Migrator({ db: handle.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
