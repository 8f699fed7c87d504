import { LDAP_PASSWORD_MASK, LDAP_SYNC_MODE, M, ROUTER_TYPE, type LdapConfig, type LdapConfigInput } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { routerVia } from '../../domain/directoryRelay';
import { DirectoryError, withDirectory, type DirectorySession, type DirectoryServer } from '../../domain/ldap';
import { checkSelection } from '../../domain/ldapSelection';
import { uploadedCa } from '../../domain/ldapSignIn';
import { memberKey } from '../../domain/members';
import { judgeTarget } from '../../core/outbound';
import { formatTime } from '../../core/time';
import { ensureDomainVerified } from './domain';
import { caExists, deleteSpareUploads, pruneUploads } from './files';
import { CONNECTIONS_PER_TENANT, configOf, directoryLimits, enabledConfig, freshConfig, inTurn, openPassword, sealPassword, type ConfigRow } from './state';
import { syncNow, type SyncOutcome } from './sync';
import { removeAllMembers } from './users';
import { previewOf, selectionColumns, selectionOf } from './selection';
import { networkOfTenant } from '../../domain/networks';

/*
 * The tenant's directory connection (spec 3 §2, §4, §5, §7): read, checked, saved (after the domain's
 * ownership and a real connection), closed; the sync mode and the sync service's state.
 */

const MINUTE_MS = 60_000;
const sslOf = (input: Pick<LdapConfigInput, 'use_ssl' | 'use_tls'>) => ({ use_ssl: input.use_ssl, use_tls: input.use_ssl === 1 ? 0 : input.use_tls });

/** GET /ldap/status. */
export async function status(ctx: Ctx, actor: Actor): Promise<{ enable: number; sync_mode: number }> {
  const row = await configOf(ctx.db, actor.tenantId);
  return { enable: row?.status === 1 ? 1 : 0, sync_mode: row?.sync_mode ?? LDAP_SYNC_MODE.manual };
}

/** What the saved configuration names and no longer exists ('' when nothing). */
async function noticeOf(ctx: Ctx, row: ConfigRow, networkName: string | undefined): Promise<string> {
  if (row.network_number && networkName === undefined) return M.ldapNoticeNetworkGone;
  if (row.mode === 'private' && !(await hardwareMember(ctx, row.tenant_id, row.router_name))) return M.ldapNoticeRouterGone;
  return '';
}

/** GET /ldap/config: the password only ever as the mask. */
export async function config(ctx: Ctx, actor: Actor): Promise<{ enable: number; data: LdapConfig | null; notice: string }> {
  const row = await configOf(ctx.db, actor.tenantId);
  if (!row) return { enable: 0, data: null, notice: '' };
  const file = row.ca_id === null ? undefined : await ctx.db.selectFrom('ldap_file').select('file_name').where('id', '=', row.ca_id).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
  const network = row.network_number
    ? await networkOfTenant(ctx.db, actor.tenantId, row.network_number, ['network_name'])
    : undefined;
  const tz = ctx.config.timezone;
  return {
    enable: row.status === 1 ? 1 : 0,
    data: {
      mode: row.mode === 'private' ? 'private' : 'public',
      router_name: row.router_name,
      domain: row.domain,
      host: row.host,
      port: row.port,
      base_dn: row.base_dn,
      use_ssl: row.use_ssl,
      use_tls: row.use_tls,
      ca_id: row.ca_id,
      file_name: file?.file_name ?? '',
      username: row.username,
      password: LDAP_PASSWORD_MASK,
      type: row.type,
      ...selectionOf(row),
      network_number: row.network_number,
      network_name: network?.network_name ?? '',
      sync_mode: row.sync_mode,
      auto_import: row.auto_import,
      sync_cycle: row.sync_cycle,
      update_time: formatTime(row.update_time, tz),
      create_time: formatTime(row.create_time, tz),
      status: row.status,
    },
    notice: await noticeOf(ctx, row, network?.network_name),
  };
}

const hardwareMember = (ctx: Ctx, tenantId: number, name: string) =>
  ctx.db.selectFrom('member').select('router_name').where('tenant_id', '=', tenantId).where('router_key', '=', memberKey(name)).where('router_type', '=', ROUTER_TYPE.hardware).executeTakeFirst();

/**
 * The rules of check and save beyond the form's: the router, the network and the CA are the tenant's
 * (base_dn may change since issue 33: members follow their users by stable id, see sync.ts), the host is a public one (core/outbound.ts judgeTarget: an address in any
 * spelling, a local name). In private mode the router connects to the directory (core/directoryRelay.ts),
 * so the host is judged as inside the router's branch: a private address is allowed, a malformed one not.
 * All before the domain's ownership is asked and any connection is made. Answers the router's name as
 * the member list spells it ('' in public mode).
 */
export async function validate(ctx: Ctx, actor: Actor, input: LdapConfigInput): Promise<string> {
  const router = input.mode === 'private' ? await hardwareMember(ctx, actor.tenantId, input.router_name) : undefined;
  if (input.mode === 'private' && !router) throw invalid(M.ldapRouterMissing);
  const refusal = judgeTarget(input.host, input.mode === 'private' ? { allowPrivateTargets: true } : ctx.config);
  if (refusal) throw invalid(refusal === 'private_address' ? M.ldapHostPrivate : M.ldapHostInvalid);
  if (input.network_number) {
    const net = await networkOfTenant(ctx.db, actor.tenantId, input.network_number, ['id']);
    if (!net) throw invalid(M.ldapNetworkMissing);
  }
  if (input.ca_id !== null && !(await caExists(ctx.db, actor.tenantId, input.ca_id))) throw invalid(M.ldapCaMissing);
  return router?.router_name ?? '';
}

/** The password to bind with: the typed one, or the saved one when the form sent the mask back. */
export function passwordOf(ctx: Ctx, input: LdapConfigInput, saved: ConfigRow | undefined): string {
  if (input.password !== LDAP_PASSWORD_MASK) return input.password;
  if (!saved) throw invalid(M.ldapPasswordRequired);
  try {
    return openPassword(ctx, saved);
  } catch (err) {
    ctx.log.error({ err, tenantId: saved.tenant_id }, 'ldap: the saved password does not open');
    throw invalid(M.ldapErrPassword);
  }
}

/**
 * Binds as the configuration says, reads its base DN and checks its user selection (core/ldapSelection.ts),
 * then runs `more` in the same session, all within the directory limit; a failure is the directory's message (422).
 */
export async function connectAs(ctx: Ctx, actor: Actor, input: LdapConfigInput, password: string, more?: (d: DirectorySession) => Promise<void>): Promise<void> {
  await ctx.limiter.hit(CONNECTIONS_PER_TENANT, `t${actor.tenantId}`);
  const { use_ssl, use_tls } = sslOf(input);
  const ca = use_ssl || use_tls ? await uploadedCa(ctx, actor.tenantId, input.ca_id) : undefined;
  // Private mode: through the router validate() found the tenant's.
  const via = input.mode === 'private' ? routerVia(ctx, { tenantId: actor.tenantId, routerName: input.router_name }) : undefined;
  const server: DirectoryServer = { host: input.host, port: input.port, security: use_ssl ? 'ldaps' : use_tls ? 'starttls' : 'plain', ...(ca ? { ca } : {}), ...(via ? { via } : {}) };
  try {
    await withDirectory(directoryLimits(ctx, true), server, async (d) => {
      await d.bind(input.username, password);
      await d.search(input.base_dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] });
      await checkSelection(d, input);
      await more?.(d);
    });
  } catch (err) {
    if (err instanceof DirectoryError) {
      ctx.log.info({ tenantId: actor.tenantId, host: input.host, reason: err.detail }, 'ldap: check failed');
      throw invalid(err.message);
    }
    throw err;
  }
}

/** POST /ldap/check. */
export async function check(ctx: Ctx, actor: Actor, input: LdapConfigInput): Promise<void> {
  const saved = await configOf(ctx.db, actor.tenantId);
  await validate(ctx, actor, input);
  await connectAs(ctx, actor, input, passwordOf(ctx, input, saved));
}

/** POST /ldap/preview (issue 33): the form's selection and mapping run against the directory, as check connects. */
export async function preview(ctx: Ctx, actor: Actor, input: LdapConfigInput): Promise<Awaited<ReturnType<typeof previewOf>>> {
  const saved = await configOf(ctx.db, actor.tenantId);
  await validate(ctx, actor, input);
  let answer: Awaited<ReturnType<typeof previewOf>> | undefined;
  await connectAs(ctx, actor, input, passwordOf(ctx, input, saved), async (d) => {
    answer = await previewOf(d, input);
  });
  return answer!;
}

/**
 * POST /ldap/save: the rules, the domain's ownership (423), a real connection, then the row (the
 * password sealed) and a first read of the directory's users. The read's failure does not undo the
 * save: it shows as the sync service's abnormal state.
 */
export async function save(ctx: Ctx, actor: Actor, input: LdapConfigInput): Promise<void> {
  await inTurn(ctx, actor.tenantId, async () => {
    const saved = await configOf(ctx.db, actor.tenantId);
    const routerName = await validate(ctx, actor, input);
    const password = passwordOf(ctx, input, saved);
    await ensureDomainVerified(ctx, actor.tenantId, input.domain);
    await connectAs(ctx, actor, input, password);
    const now = Date.now();
    const { use_ssl, use_tls } = sslOf(input);
    const fields = {
      mode: input.mode,
      router_name: routerName,
      domain: input.domain,
      host: input.host,
      port: input.port,
      base_dn: input.base_dn,
      use_ssl,
      use_tls,
      ca_id: use_ssl || use_tls ? input.ca_id : null,
      type: input.type,
      ...selectionColumns(input),
      username: input.username,
      password: sealPassword(ctx, actor.tenantId, password),
      network_number: input.network_number,
      sync_mode: input.sync_mode,
      auto_import: input.auto_import,
      sync_cycle: input.sync_cycle,
      status: 1,
      update_time: now,
    };
    if (saved) await ctx.db.updateTable('ldap_config').set(fields).where('tenant_id', '=', actor.tenantId).execute();
    else await ctx.db.insertInto('ldap_config').values({ ...fields, tenant_id: actor.tenantId, create_time: now, sync_due: now + input.sync_cycle * MINUTE_MS, sync_time: null }).execute();
    await pruneUploads(ctx, actor.tenantId);
    await syncNow(ctx, actor.tenantId);
  });
}

/** POST /ldap/delete: the imported members go, then the configuration, the listing and the uploaded files. */
export async function close(ctx: Ctx, actor: Actor): Promise<void> {
  await inTurn(ctx, actor.tenantId, async () => {
    await enabledConfig(ctx.db, actor.tenantId);
    await removeAllMembers(ctx, actor.tenantId);
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ldap_user').where('tenant_id', '=', actor.tenantId).execute();
      await trx.deleteFrom('ldap_config').where('tenant_id', '=', actor.tenantId).execute();
    });
    await deleteSpareUploads(ctx, actor.tenantId);
  });
}

/** POST /ldap/sync_mode: automatic mode syncs at the next pass of the job, then every cycle. */
export async function setSyncMode(ctx: Ctx, actor: Actor, syncMode: number): Promise<void> {
  await enabledConfig(ctx.db, actor.tenantId);
  await ctx.db.updateTable('ldap_config').set({ sync_mode: syncMode, sync_due: Date.now(), update_time: Date.now() }).where('tenant_id', '=', actor.tenantId).execute();
}

/** GET /ldap/sync_status. */
export async function syncStatus(ctx: Ctx, actor: Actor) {
  const row = await enabledConfig(ctx.db, actor.tenantId);
  return {
    count: row.user_count,
    service: {
      status: row.sync_status,
      update_time: row.sync_time === null ? '' : formatTime(row.sync_time, ctx.config.timezone),
      cycle: row.sync_cycle,
      operation_hours: row.sync_seconds,
      message: row.sync_message,
    },
  };
}

/** A failed sync answers the directory's words (422); its state is recorded either way. */
const answered = (outcome: SyncOutcome) => {
  if (!outcome.ok) throw invalid(outcome.message);
};

/** POST /ldap/sync: for the listing the caller saw. */
export async function syncOnce(ctx: Ctx, actor: Actor, hash: string): Promise<void> {
  answered(
    await inTurn(ctx, actor.tenantId, async () => {
      await freshConfig(ctx.db, actor.tenantId, hash);
      return syncNow(ctx, actor.tenantId);
    }),
  );
}

/** POST /ldap/restart_sync: the abnormal state is cleared, and the sync runs now. */
export async function restart(ctx: Ctx, actor: Actor): Promise<void> {
  answered(
    await inTurn(ctx, actor.tenantId, async () => {
      await enabledConfig(ctx.db, actor.tenantId);
      await ctx.db.updateTable('ldap_config').set({ sync_status: 1, sync_message: '' }).where('tenant_id', '=', actor.tenantId).execute();
      return syncNow(ctx, actor.tenantId);
    }),
  );
}
