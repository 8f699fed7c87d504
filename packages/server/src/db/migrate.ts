import { sql, type Kysely, type Migration } from 'kysely';
import type { DbHandle, Dialect } from './connect';
import type { HubMigration } from './migrationTypes';
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
import { networkVersion } from './migrations/0029_network_version';
import { overview } from './migrations/0031_overview';
import { apiToken } from './migrations/0028_api_token';
import { audit } from './migrations/0027_audit';
import { memberDiagnosis } from './migrations/0030_member_diagnosis';
import { networkTlsCrypt } from './migrations/0032_network_tls_crypt';
import { clientSessions } from './migrations/0033_client_sessions';
import { deviceApproval } from './migrations/0034_device_approval';
import { popRelay } from './migrations/0035_pop_relay';
import { sessionBytes } from './migrations/0036_session_bytes';
import { sessionFamily } from './migrations/0037_session_family';
import { auditPending } from './migrations/0038_audit_pending';
import { tenantIdCodes } from './migrations/0039_tenant_id_codes';
import { ldapSelection } from './migrations/0040_ldap_selection';
import { webhookQueue } from './migrations/0044_webhook_queue';
import { searchGinDirect } from './migrations/0045_search_gin_direct';
import { eventDeliveryPending } from './migrations/0046_event_delivery_pending';
import { memberConfigDelivery } from './migrations/0047_member_config_delivery';
import { changeEffect } from './migrations/0048_change_effect';
import { appliedDocument } from './migrations/0049_applied_document';
import { ldapSync } from './migrations/0041_ldap_sync';
import { webhooks } from './migrations/0043_webhooks';

export type { HubMigration, Removals } from './migrationTypes';

/** The migrations written before the rolling-upgrade rule was checked; the rule holds for every later one. */
export const ROLLING_BASELINE = '0026_member_import';

/** The ordered list of migrations; names sort in the order they run. */
export function migrations(handle: Pick<DbHandle, 'dialect'>): Record<string, HubMigration> {
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
    '0029_network_version': networkVersion(handle.dialect),
    '0031_overview': overview(),
    '0028_api_token': apiToken(handle.dialect),
    '0027_audit': audit(handle.dialect),
    '0030_member_diagnosis': memberDiagnosis(),
    '0032_network_tls_crypt': networkTlsCrypt(),
    '0033_client_sessions': clientSessions(),
    '0034_device_approval': deviceApproval(handle.dialect),
    '0035_pop_relay': popRelay(handle.dialect),
    '0036_session_bytes': sessionBytes(),
    '0037_session_family': sessionFamily(),
    '0038_audit_pending': auditPending(handle.dialect),
    '0039_tenant_id_codes': tenantIdCodes(),
    '0040_ldap_selection': ldapSelection(),
    '0044_webhook_queue': webhookQueue(handle.dialect),
    '0045_search_gin_direct': searchGinDirect(handle.dialect),
    '0046_event_delivery_pending': eventDeliveryPending(),
    '0047_member_config_delivery': memberConfigDelivery(),
    '0048_change_effect': changeEffect(),
    '0049_applied_document': appliedDocument(),
    '0041_ldap_sync': ldapSync(),
    '0043_webhooks': webhooks(handle.dialect),
  };
}

/** The names of every migration this code knows, in order (readiness compares them with the database's). */
export const migrationNames = (dialect: Dialect): string[] => Object.keys(migrations({ dialect }));

/** Where the applied migrations are written: Kysely's table, so databases migrated by earlier releases carry on. */
export const MIGRATION_TABLE = 'kysely_migration';

/**
 * How long one migration's statement may wait for a table lock on PostgreSQL. While an ALTER TABLE
 * waits, every query of that table queues behind it; past this the migration is rolled back (and tried
 * again, see LOCK_ATTEMPTS) instead of stalling the running version's traffic.
 */
export const LOCK_TIMEOUT_MS = 3000;
/** Tries of a migration that ran into LOCK_TIMEOUT_MS before the start gives up. */
export const LOCK_ATTEMPTS = 5;

/** pino's shape (app.log fits); the CLI passes one that prints lines. */
export interface MigrationLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

const silent: MigrationLogger = { info: () => {}, warn: () => {}, error: () => {} };

export interface MigrateOptions {
  log?: MigrationLogger;
  /** Stop after this migration (tests build a database as an earlier release left it). */
  to?: string;
  /** A list other than migrations(handle) (tests). */
  list?: Record<string, Migration>;
  lockTimeoutMs?: number;
  lockAttempts?: number;
  /** Between tries after a lock timeout (attempt 1, 2, …); a pause of the start, not of any request. */
  backoffMs?: (attempt: number) => number;
}

export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

const isLockTimeout = (e: unknown) => (e as { code?: unknown } | null)?.code === '55P03';
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The migrations this database has applied, oldest first. */
export async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(db);
  return rows.map((r) => r.name);
}

async function ensureMigrationTable(db: Kysely<unknown>): Promise<void> {
  // Kysely's shape: the timestamp is an ISO text.
  await sql`create table if not exists ${sql.table(MIGRATION_TABLE)} (name varchar(255) not null primary key, timestamp varchar(255) not null)`.execute(db);
}

/**
 * Brings the database to the latest migration (or opts.to), each migration in a transaction of its
 * own together with the row that records it: a migration that fails leaves the database as it was
 * before that migration, on SQLite as on PostgreSQL, and the ones before it stay applied. On
 * PostgreSQL one session at a time migrates a schema (an advisory lock: instances starting together
 * wait for each other) and each statement waits at most LOCK_TIMEOUT_MS for a table lock.
 *
 * A database that a newer release already migrated further (a rolling upgrade: the old version
 * restarts beside the new one) is left as it is: its extra migrations are additive (docs/operations.md).
 */
export async function migrateToLatest(handle: DbHandle, log: MigrationLogger = silent, opts: Omit<MigrateOptions, 'log'> = {}): Promise<void> {
  const list = opts.list ?? migrations(handle);
  const names = Object.keys(list).sort();
  if (opts.to !== undefined && !names.includes(opts.to)) throw new Error(`no migration named ${opts.to}`);
  const target = opts.to === undefined ? names : names.slice(0, names.indexOf(opts.to) + 1);
  const lockTimeoutMs = opts.lockTimeoutMs ?? LOCK_TIMEOUT_MS;
  const lockAttempts = opts.lockAttempts ?? LOCK_ATTEMPTS;
  const backoffMs = opts.backoffMs ?? ((attempt: number) => 1000 * 2 ** (attempt - 1));
  const postgres = handle.dialect === 'postgres';

  await handle.db.connection().execute(async (conn) => {
    const db = conn as unknown as Kysely<unknown>;
    // The lock is the schema's, so instances of other schemas (or test files) do not wait on each other.
    if (postgres) await sql`select pg_advisory_lock(hashtext('hublink.migrate'), hashtext(current_schema()))`.execute(db);
    try {
      await ensureMigrationTable(db);
      const applied = await appliedMigrations(db);
      const known = new Set(names);
      const ahead = applied.filter((n) => !known.has(n));
      const last = names[names.length - 1] ?? '';
      const foreign = ahead.filter((n) => n < last);
      if (foreign.length) throw new Error(`the database has applied migrations this release does not know, between its own: ${foreign.join(', ')}`);
      const pending = target.filter((n) => !applied.includes(n));
      const skipped = pending.find((n) => applied.some((a) => a > n && known.has(a)));
      if (skipped) throw new Error(`migration ${skipped} is not applied but later ones are: the database was migrated by another list`);
      if (ahead.length) log.info({ ahead }, `database is ahead of this release (a newer one applied ${ahead.join(', ')}); using it as it is`);
      if (!pending.length) return;
      log.info({ from: applied.filter((n) => known.has(n)).at(-1) ?? null, pending }, `applying ${pending.length} migration(s), each in a transaction of its own`);
      const started = Date.now();
      for (const name of pending) {
        for (let attempt = 1; ; attempt++) {
          try {
            const t0 = Date.now();
            const ran = await db.transaction().execute(async (trx) => {
              if (postgres) await sql`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, true)`.execute(trx);
              // Another process may have applied it while this one waited (SQLite: several on one file).
              if ((await sql`select 1 from ${sql.table(MIGRATION_TABLE)} where name = ${name}`.execute(trx)).rows.length) return false;
              await list[name]!.up(trx);
              await sql`insert into ${sql.table(MIGRATION_TABLE)} (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(trx);
              return true;
            });
            if (ran) log.info({ migration: name, ms: Date.now() - t0 }, `migration ${name} applied in ${Date.now() - t0} ms`);
            break;
          } catch (e) {
            if (postgres && isLockTimeout(e) && attempt < lockAttempts) {
              const wait = backoffMs(attempt);
              log.warn(
                { migration: name, attempt, lockTimeoutMs },
                `migration ${name} waited ${lockTimeoutMs} ms for a table lock and was rolled back (the database is as before it); trying again in ${wait} ms (attempt ${attempt + 1} of ${lockAttempts})`,
              );
              await new Promise((r) => setTimeout(r, wait));
              continue;
            }
            const why = isLockTimeout(e)
              ? `could not take a table lock within ${lockTimeoutMs} ms in ${attempt} attempt(s) (a long transaction holds the table: see pg_stat_activity)`
              : errorText(e);
            log.error({ migration: name, err: e }, `migration ${name} failed and was rolled back: the database is as it was before it (${why})`);
            throw new MigrationError(name, `migration ${name} failed and was rolled back, the database is as it was before it: ${why}`, { cause: e });
          }
        }
      }
      log.info({ migration: pending.at(-1), ms: Date.now() - started }, `database is at ${pending.at(-1)} (${pending.length} migration(s) in ${Date.now() - started} ms)`);
    } finally {
      if (postgres) await sql`select pg_advisory_unlock(hashtext('hublink.migrate'), hashtext(current_schema()))`.execute(db);
    }
  });
}

/** For the CLI (`hublink migrate`, the primary of several workers): one line per event on stderr. */
export const migrationLines: MigrationLogger = {
  info: (_fields, msg) => console.error(`hublink: ${msg}`),
  warn: (_fields, msg) => console.error(`hublink: ${msg}`),
  error: (_fields, msg) => console.error(`hublink: ${msg}`),
};
