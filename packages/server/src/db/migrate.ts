import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { DbHandle, Dialect } from './connect';
import { foundation } from './migrations/0001_foundation';
import { account } from './migrations/0002_account';
import { messages } from './migrations/0003_messages';
import { ram } from './migrations/0004_ram';
import { membersNetworks } from './migrations/0005_members_networks';
import { memberCount } from './migrations/0006_member_count';
import { networkUse } from './migrations/0007_network_use';
import { memberSearch } from './migrations/0008_member_search';
import { backbone } from './migrations/0009_backbone';
import { roleNameUnique } from './migrations/0010_role_name_unique';
import { networkSettings } from './migrations/0011_network_settings';
import { networkPki } from './migrations/0012_network_pki';
import { popTickets } from './migrations/0013_pop_tickets';
import { networkSegments } from './migrations/0014_network_segments';
import { pop } from './migrations/0015_pop';
import { memberConfig } from './migrations/0017_member_config';
import { gateway } from './migrations/0018_gateway';
import { saas } from './migrations/0019_saas';
import { ldap } from './migrations/0020_ldap';
import { authSource } from './migrations/0021_auth_source';
import { monitor } from './migrations/0022_monitor';
import { ticket } from './migrations/0023_ticket';
import { documents } from './migrations/0024_documents';
import { searchTrgm } from './migrations/0025_search_trgm';
import { memberImport } from './migrations/0026_member_import';

/** The ordered list of migrations; names sort in the order they run. */
function migrations(handle: Pick<DbHandle, 'dialect'>): Record<string, Migration> {
  return {
    '0001_foundation': foundation(handle.dialect),
    '0002_account': account(handle.dialect),
    '0003_messages': messages(handle.dialect),
    '0004_ram': ram(handle.dialect),
    '0005_members_networks': membersNetworks(handle.dialect),
    '0006_member_count': memberCount(handle.dialect),
    '0007_network_use': networkUse(handle.dialect),
    '0008_member_search': memberSearch(handle.dialect),
    '0009_backbone': backbone(handle.dialect),
    '0010_role_name_unique': roleNameUnique(),
    '0011_network_settings': networkSettings(handle.dialect),
    '0012_network_pki': networkPki(handle.dialect),
    '0013_pop_tickets': popTickets(handle.dialect),
    '0014_network_segments': networkSegments(handle.dialect),
    '0015_pop': pop(),
    '0017_member_config': memberConfig(handle.dialect),
    '0018_gateway': gateway(handle.dialect),
    '0019_saas': saas(),
    '0020_ldap': ldap(handle.dialect),
    '0021_auth_source': authSource(handle.dialect),
    '0022_monitor': monitor(handle.dialect),
    '0023_ticket': ticket(handle.dialect),
    '0024_documents': documents(handle.dialect),
    '0025_search_trgm': searchTrgm(handle.dialect),
    '0026_member_import': memberImport(handle.dialect),
  };
}

/** The names of every migration this code knows, in order (readiness compares them with the database's). */
export const migrationNames = (dialect: Dialect): string[] => Object.keys(migrations({ dialect }));

export async function migrateToLatest(handle: DbHandle): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle) };
  // Kysely looks for its bookkeeping tables in every schema unless told which one; on a PostgreSQL
  // database with several schemas (instances or test runs side by side) it would find another
  // schema's tables and skip creating its own. Name the schema the connection actually uses.
  const schema =
    handle.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db: handle.db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
