import { LDAP_SYNC_MODE, M } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ApiError } from '../../core/errors';
import { DirectoryError, withDirectory } from '../../domain/ldap';
import { storedServer } from '../../domain/ldapSignIn';
import { selectedUsers } from '../../domain/ldapSelection';
import type { DirectoryUser } from '../../domain/ldapUsers';
import { deleteMembers, memberChanged, memberKey } from '../../domain/members';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import { markingSession, passwordMoved } from './passwordMark';
import { configOf, directoryLimits, inTurn, noteOf, openPassword, type ConfigRow } from './state';
import { importNew } from './users';

/*
 * A sync reads the directory's users page by page (LIMITS.ldapPageSize) and writes each page to
 * ldap_user as it comes, so a directory of any size never sits in memory whole. What changed reaches
 * the imported members in the same transaction: a new description becomes the note, a user disabled
 * or enabled again the member's status. Users the directory no longer has go after the last page,
 * with their members. Only a complete read removes anything: a sync that fails halfway has updated
 * the users it saw and removes none. Any change to the stored users raises the listing's generation.
 *
 * Users are matched by their stable id (entryUUID, objectGUID: ldap_user.uuid), never by DN or name,
 * so a user moved or renamed in the directory, or a new Base DN or selection that still finds it,
 * keeps its member (issue 33). A password change the directory records (passwordMark.ts) ends the
 * member's sessions and credentials ('credentials' in member.changed: the gateway closes its app
 * sessions, revokes its device credentials and disconnects its clients at the centers). With
 * auto_import in automatic mode, the users a sync lists for the first time are imported as the
 * import-all does (into the configured network); users listed before are left to the console.
 */

const MINUTE_MS = 60_000;
const CHUNK = 500;

export type SyncOutcome = { ok: true } | { ok: false; message: string };


/** The mapped fields of a user as ldap_user keeps them (issue 33: member name and its key, phone, e-mail). */
const mapped = (u: DirectoryUser) => ({ member_name: u.member_name, member_key: memberKey(u.member_name), phone: u.phone, email: u.email });

/** A user as a sync reads it: with the mark of its last password change. */
type SeenUser = DirectoryUser & { passwordMark: string };

/** Writes one page; answers whether anything the listing shows changed, and the ids of the users listed for the first time. */
async function storePage(ctx: Ctx, tenantId: number, users: SeenUser[], mark: number): Promise<{ changed: boolean; added: number[] }> {
  if (users.length === 0) return { changed: false, added: [] };
  return ctx.db.transaction().execute(async (trx) => {
    const stored = await trx
      .selectFrom('ldap_user')
      .select(['id', 'uuid', 'dn', 'username', 'member_name', 'phone', 'email', 'description', 'disabled', 'member_id', 'password_mark'])
      .where('tenant_id', '=', tenantId)
      .where(
        'uuid',
        'in',
        users.map((u) => u.uuid),
      )
      .execute();
    const byUuid = new Map(stored.map((r) => [r.uuid, r]));
    const now = Date.now();
    const unchanged: number[] = [];
    const added = new Map<string, SeenUser>();
    let changed = false;
    for (const u of users) {
      const row = byUuid.get(u.uuid);
      const disabled = u.disabled ? 1 : 0;
      if (!row) {
        added.set(u.uuid, u);
        continue;
      }
      const listed =
        row.dn === u.dn && row.username === u.username && row.member_name === u.member_name && row.phone === u.phone && row.email === u.email && row.description === u.description && row.disabled === disabled;
      if (listed && row.password_mark === u.passwordMark) {
        unchanged.push(row.id);
        continue;
      }
      // A new mark alone is no change the listing shows: its hash stays.
      if (!listed) changed = true;
      await trx
        .updateTable('ldap_user')
        .set({ dn: u.dn, username: u.username, ...mapped(u), description: u.description, disabled, password_mark: u.passwordMark, seen: mark, update_time: now })
        .where('id', '=', row.id)
        .execute();
      if (row.member_id === null) continue;
      const fields = { ...(row.description !== u.description ? { note: noteOf(u.description) } : {}), ...(row.disabled !== disabled ? { status: 1 - disabled } : {}) };
      const revoked = passwordMoved(row.password_mark, u.passwordMark);
      if (Object.keys(fields).length > 0) {
        await trx.updateTable('member').set({ ...fields, update_time: now }).where('id', '=', row.member_id).where('tenant_id', '=', tenantId).execute();
        await memberChanged(ctx, trx, tenantId, row.member_id, ...Object.keys(fields));
      }
      // A second event, after the status's (a tenant's events arrive in order): a member disabled by this
      // sync is closed as disabled first, then its credentials go.
      if (revoked) await memberChanged(ctx, trx, tenantId, row.member_id, 'credentials');
    }
    if (unchanged.length > 0) await trx.updateTable('ldap_user').set({ seen: mark }).where('id', 'in', unchanged).execute();
    let addedIds: number[] = [];
    if (added.size > 0) {
      changed = true;
      const inserted = await trx
        .insertInto('ldap_user')
        .values(
          [...added.values()].map((u) => ({
            tenant_id: tenantId,
            uuid: u.uuid,
            dn: u.dn,
            username: u.username,
            ...mapped(u),
            description: u.description,
            disabled: u.disabled ? 1 : 0,
            member_id: null,
            password_mark: u.passwordMark,
            seen: mark,
            create_time: now,
            update_time: now,
          })),
        )
        .returning('id')
        .execute();
      addedIds = inserted.map((r) => Number(r.id));
    }
    return { changed, added: addedIds };
  });
}

/** Removes the users the last complete read did not see, with their members; answers whether there were any. */
async function removeUnseen(ctx: Ctx, tenantId: number, mark: number): Promise<boolean> {
  let removed = false;
  for (;;) {
    const gone = await ctx.db.selectFrom('ldap_user').select(['id', 'member_id']).where('tenant_id', '=', tenantId).where('seen', '<', mark).orderBy('id').limit(CHUNK).execute();
    if (gone.length === 0) return removed;
    removed = true;
    await ctx.db.transaction().execute(async (trx) => {
      await lockTenant(ctx, trx, tenantId);
      await deleteMembers(ctx, trx, tenantId, gone.flatMap((g) => (g.member_id === null ? [] : [g.member_id])));
      await trx
        .deleteFrom('ldap_user')
        .where(
          'id',
          'in',
          gone.map((g) => g.id),
        )
        .execute();
    });
  }
}

/** Records the outcome of a sync on the configuration. */
async function record(db: Db, row: ConfigRow, started: number, mark: number, outcome: SyncOutcome, changed: boolean, count?: number) {
  const now = Date.now();
  await db
    .updateTable('ldap_config')
    .set((eb) => ({
      sync_status: outcome.ok ? 1 : 0,
      sync_message: outcome.ok ? '' : outcome.message.slice(0, 512),
      // Never before the run's mark: the next run's mark comes after it.
      sync_time: Math.max(now, mark),
      sync_seconds: Math.round((now - started) / 1000),
      sync_due: now + row.sync_cycle * MINUTE_MS,
      ...(count !== undefined ? { user_count: count } : {}),
      ...(changed ? { generation: eb('generation', '+', 1) } : {}),
    }))
    .where('tenant_id', '=', row.tenant_id)
    .execute();
}

/** Reads the directory now and brings the listing and the imported members in step; the caller holds the tenant's turn. */
export async function syncNow(ctx: Ctx, tenantId: number): Promise<SyncOutcome> {
  const row = await configOf(ctx.db, tenantId);
  if (!row || row.status !== 1) return { ok: false, message: M.ldapNotEnabled };
  const started = Date.now();
  // The mark of the users this run sees: after every earlier run's, even one on a clock running ahead.
  const mark = Math.max(started, (row.sync_time ?? 0) + 1);
  let changed = false;
  let count = 0;
  let outcome: SyncOutcome = { ok: true };
  try {
    let password: string;
    try {
      password = openPassword(ctx, row);
    } catch (err) {
      ctx.log.error({ err, tenantId }, 'ldap: the saved password does not open');
      throw new DirectoryError('other', M.ldapErrPassword, 'password does not open');
    }
    const autoImport = row.auto_import === 1 && row.sync_mode === LDAP_SYNC_MODE.automatic;
    await withDirectory(directoryLimits(ctx, false), await storedServer(ctx, row), async (connected) => {
      const { session: directory, markOf } = markingSession(connected, row.type);
      await directory.bind(row.username, password);
      // The selection and the mapping of the configuration (core/ldapSelection.ts).
      for await (const read of selectedUsers(directory, row)) {
        const users = read.map((u) => ({ ...u, passwordMark: markOf(u.dn) }));
        count += users.length;
        const page = await storePage(ctx, tenantId, users, mark);
        if (page.changed) changed = true;
        if (autoImport && page.added.length > 0) await importNew(ctx, row, page.added);
      }
    });
    if (await removeUnseen(ctx, tenantId, mark)) changed = true;
  } catch (err) {
    if (!(err instanceof DirectoryError)) ctx.log.error({ err, tenantId }, 'ldap: sync failed');
    else ctx.log.info({ tenantId, reason: err.detail }, 'ldap: the directory could not be read');
    outcome = { ok: false, message: err instanceof DirectoryError ? err.message : M.ldapErrOther };
  }
  await record(ctx.db, row, started, mark, outcome, changed, outcome.ok ? count : undefined);
  return outcome;
}

/** A sync of the automatic mode: skipped when another change of the tenant holds the turn (it will come again next cycle). */
export async function scheduledSync(ctx: Ctx, tenantId: number): Promise<void> {
  try {
    await inTurn(ctx, tenantId, () => syncNow(ctx, tenantId));
  } catch (err) {
    if (err instanceof ApiError) return;
    throw err;
  }
}

/**
 * The recurring job's pass: each tenant in automatic mode whose cycle has passed gets one sync job.
 * Claiming moves its due time a cycle on first, so two passes (or instances) never queue it twice.
 */
export async function queueDueSyncs(ctx: Ctx, now = Date.now()): Promise<number> {
  const due = await ctx.db
    .selectFrom('ldap_config')
    .select(['tenant_id', 'sync_due', 'sync_cycle'])
    .where('status', '=', 1)
    .where('sync_mode', '=', LDAP_SYNC_MODE.automatic)
    .where('sync_due', '<=', now)
    .orderBy('sync_due')
    .limit(1000)
    .execute();
  let queued = 0;
  for (const d of due) {
    const claimed = await ctx.db
      .updateTable('ldap_config')
      .set({ sync_due: now + d.sync_cycle * MINUTE_MS })
      .where('tenant_id', '=', d.tenant_id)
      .where('sync_due', '=', d.sync_due)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    await ctx.jobs.send('ldap.sync', { tenant_id: d.tenant_id });
    queued++;
  }
  return queued;
}
