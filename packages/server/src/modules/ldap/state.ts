import { createHash } from 'node:crypto';
import { LIMITS, M } from '@hublink/contract';
import type { Selectable } from 'kysely';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import type { Limit } from '../../core/ratelimit';
import { exclusive } from '../../core/turns';
import type { Db } from '../../db/connect';
import type { LdapConfigTable } from '../../db/types';

/*
 * What every part of the module shares: the tenant's configuration row, its sealed password, the
 * listing's hash, the one turn per tenant that every change of the directory's state takes, and the
 * limit on connections to a tenant's directory.
 */

export type ConfigRow = Selectable<LdapConfigTable>;

export const configOf = (db: Db, tenantId: number): Promise<ConfigRow | undefined> =>
  db.selectFrom('ldap_config').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();

/** The tenant's configuration when LDAP is on; 422 otherwise (spec 3 §6: the features depend on it). */
export async function enabledConfig(db: Db, tenantId: number): Promise<ConfigRow> {
  const row = await configOf(db, tenantId);
  if (!row || row.status !== 1) throw invalid(M.ldapNotEnabled);
  return row;
}

/** The password is bound to its tenant's row: a sealed value copied to another tenant does not open. */
const passwordContext = (tenantId: number) => `ldap_config:${tenantId}`;
export const sealPassword = (ctx: Ctx, tenantId: number, password: string) => ctx.secretBox.seal(password, passwordContext(tenantId));
export const openPassword = (ctx: Ctx, row: Pick<ConfigRow, 'tenant_id' | 'password'>) => ctx.secretBox.openText(row.password, passwordContext(row.tenant_id));

/** The hash of /ldap/user: the listing's generation, not guessable across tenants. */
export const hashOf = (row: Pick<ConfigRow, 'tenant_id' | 'generation'>) => createHash('sha256').update(`ldap:${row.tenant_id}:${row.generation}`).digest('hex').slice(0, 16);

/** The configuration, when the caller looked at the listing as it is now; 422 '目录数据已更新…' otherwise. */
export async function freshConfig(db: Db, tenantId: number, hash: string): Promise<ConfigRow> {
  const row = await enabledConfig(db, tenantId);
  if (hashOf(row) !== hash) throw invalid(M.ldapStale);
  return row;
}

/**
 * One change of a tenant's directory state at a time, on every instance: a sync, an import, a
 * removal, a save or closing LDAP. Another one meanwhile gets 429 '正在同步目录，请稍后再试'.
 */
export const inTurn = <T>(ctx: Ctx, tenantId: number, work: () => Promise<T>): Promise<T> =>
  exclusive(ctx.store, `ldap-turn:${tenantId}`, LIMITS.ldapSyncTurnSeconds, M.ldapSyncBusy, work);

/** Connections a tenant's calls open to its directory or domain (check, save, domain verification): the server is no port scanner. */
export const CONNECTIONS_PER_TENANT: Limit = { name: 'ldap-connect', max: 30, windowSeconds: 600, message: M.ldapTooManyChecks };

/** A member's note from a directory description (a member note is at most 24 characters). */
export const noteOf = (description: string) => description.slice(0, LIMITS.memberNoteMax);

export const directoryLimits = (ctx: Ctx, wholeSession: boolean) => ({ allowPrivateTargets: ctx.config.allowPrivateTargets, timeoutMs: LIMITS.directoryTimeoutMs, wholeSession });
