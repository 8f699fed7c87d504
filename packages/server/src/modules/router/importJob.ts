import { randomBytes } from 'node:crypto';
import { EXPORT_EXTRA_COLUMNS, IMPORT_COLUMNS, IMPORT_STATE, LIMITS, M, ROUTER_TYPE, type BatchResultRow } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import { chunks } from '../../core/chunks';
import type { Ctx } from '../../core/context';
import { tooMany } from '../../core/errors';
import type { Upload } from '../../core/http';
import { JobStopped, type JobDef } from '../../core/jobs';
import { createMembers } from '../../domain/members';
import { hashPasswords } from '../../core/passwords';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import { checkRows, checkTenant, type Candidate } from './importRules';
import { oneUploadAtATime } from './uploadTurn';
import { readSheet } from './xlsx';

export const IMPORT_JOB = 'router.import';

/**
 * The secret_hash of a member imported without a password (an exported list carries none): no
 * password opens it (verifyPassword refuses what is not a scrypt hash) until one is set.
 */
export const NO_IMPORTED_PASSWORD = '!import';

/** Spreadsheet rows per step of the job: each step hashes its passwords, then adds its members and its progress in one transaction. */
const STEP_ROWS = 50;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A running import not heard from within the lease is lost (its instance died, or no instance runs jobs). */
export const leaseCutoff = (now = Date.now()) => now - LIMITS.importLeaseSeconds * 1000;

/** Fails running imports whose job has gone quiet past the lease and removes their files; answers how many. */
export async function failLostImports(ctx: Ctx, db: Db, tenantId?: number): Promise<number> {
  const lost = await db
    .selectFrom('member_import')
    .select(['id', 'tenant_id', 'file_key'])
    .where('state', '=', IMPORT_STATE.running)
    .where('heartbeat_at', '<', leaseCutoff())
    .$if(tenantId !== undefined, (qb) => qb.where('tenant_id', '=', tenantId!))
    .execute();
  for (const l of lost) {
    const failed = await db
      .updateTable('member_import')
      .set({ state: IMPORT_STATE.failed, finish_time: Date.now() })
      .where('id', '=', l.id)
      .where('state', '=', IMPORT_STATE.running)
      .where('heartbeat_at', '<', leaseCutoff())
      .executeTakeFirst();
    if (Number(failed.numUpdatedRows) === 0) continue;
    ctx.log.warn({ importId: l.id, tenantId: l.tenant_id }, 'router: a bulk import was lost (no progress within the lease); it is failed');
    await ctx.storage.delete(l.tenant_id, l.file_key).catch((err: unknown) => ctx.log.error({ err, importId: l.id }, 'router: could not remove an import file'));
  }
  return lost.length;
}

/** Whether the tenant has an import running that is still within its lease. */
const runningImport = (db: Db, tenantId: number) =>
  db.selectFrom('member_import').select('id').where('tenant_id', '=', tenantId).where('state', '=', IMPORT_STATE.running).where('heartbeat_at', '>=', leaseCutoff()).executeTakeFirst();

/**
 * Bulk add of software members from the import template, as a job. What refuses the whole file is
 * checked here and answered at once (format, size, header, no rows, too many rows; another import of
 * the tenant still running: 429); then the file goes to storage and the job adds its rows (runImport).
 * Answers the import's id, which /router/batch_status follows.
 */
export const startImport = (ctx: Ctx, actor: Actor, upload: Upload): Promise<{ id: number }> =>
  oneUploadAtATime(ctx, actor, async () => {
    const rows = await readSheet(upload, IMPORT_COLUMNS, LIMITS.importRowsMax, EXPORT_EXTRA_COLUMNS);
    if (await runningImport(ctx.db, actor.tenantId)) throw tooMany(M.importBusy);
    const fileKey = `member-import/${randomBytes(12).toString('hex')}.xlsx`;
    await ctx.storage.put(actor.tenantId, fileKey, upload.body, XLSX_TYPE);
    let id: number;
    try {
      id = await ctx.db.transaction().execute(async (trx) => {
        await lockTenant(ctx, trx, actor.tenantId);
        // Again under the lock: another instance may have started one meanwhile.
        if (await runningImport(trx, actor.tenantId)) throw tooMany(M.importBusy);
        await failLostImports(ctx, trx, actor.tenantId);
        const now = Date.now();
        const row = await trx
          .insertInto('member_import')
          .values({ tenant_id: actor.tenantId, state: IMPORT_STATE.running, file_key: fileKey, total: rows.length, heartbeat_at: now, create_time: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(row.id);
      });
    } catch (e) {
      await ctx.storage.delete(actor.tenantId, fileKey);
      throw e;
    }
    try {
      await ctx.jobs.send(IMPORT_JOB, { import_id: id });
    } catch (e) {
      await finish(ctx, id, actor.tenantId, fileKey, IMPORT_STATE.failed);
      throw e;
    }
    return { id };
  });

/** Ends a running import (done or failed) and removes its file. */
async function finish(ctx: Ctx, id: number, tenantId: number, fileKey: string, state: typeof IMPORT_STATE.done | typeof IMPORT_STATE.failed) {
  await ctx.db.updateTable('member_import').set({ state, finish_time: Date.now() }).where('id', '=', id).where('state', '=', IMPORT_STATE.running).execute();
  await ctx.storage.delete(tenantId, fileKey).catch((err: unknown) => ctx.log.error({ err, importId: id }, 'router: could not remove an import file'));
}

/** The step of a run could not claim the import: another run moved it on, or it was failed as lost. */
class Superseded extends Error {}

/**
 * The job: adds the rows of one import in steps of STEP_ROWS spreadsheet rows, each step in its own
 * transaction under the tenant's lock, with the import's progress and the step's result rows. A step
 * claims the import where the previous one left it (done = where it starts), so a run that resumes
 * after a stop continues at the first row not done, and two runs of one import never add a row twice.
 * Members are added with source 'import'; imported phones need no code (the tenant vouches for them).
 */
export async function runImport(ctx: Ctx, importId: number, signal: AbortSignal): Promise<void> {
  const imp = await ctx.db.selectFrom('member_import').selectAll().where('id', '=', importId).executeTakeFirst();
  if (!imp || imp.state !== IMPORT_STATE.running) return;
  const { tenant_id: tenantId, file_key: fileKey } = imp;
  try {
    const file = await ctx.storage.get(tenantId, fileKey);
    if (!file) throw new Error(`the file of import ${importId} is gone`);
    const sheet = await readSheet({ filename: 'import.xlsx', body: file.body }, IMPORT_COLUMNS, LIMITS.importRowsMax, EXPORT_EXTRA_COLUMNS);
    const { results, candidates } = checkRows(sheet);
    const byRow = new Map(candidates.map((c) => [c.row, c]));
    let fail = imp.fail;
    for (let start = imp.done; start < results.length; start += STEP_ROWS) {
      if (signal.aborted) throw new JobStopped();
      const step = results.slice(start, start + STEP_ROWS);
      fail += await addStep(ctx, importId, tenantId, start, fail, step, byRow);
    }
    await finish(ctx, importId, tenantId, fileKey, IMPORT_STATE.done);
  } catch (e) {
    if (e instanceof Superseded) return;
    // A stop hands the run back to be resumed; anything else ends the import where it is.
    if (!signal.aborted) {
      await finish(ctx, importId, tenantId, fileKey, IMPORT_STATE.failed).catch((err: unknown) => ctx.log.error({ err, importId }, 'router: could not end a failed import'));
    }
    throw e;
  }
}

/** One step: the rows of `step` (starting at index `start` of the sheet's rows) added or refused; answers the refusals. */
async function addStep(ctx: Ctx, importId: number, tenantId: number, start: number, failBefore: number, step: BatchResultRow[], byRow: Map<number, Candidate>): Promise<number> {
  const candidates = step.flatMap((r) => (r.ok ? [byRow.get(r.row)!] : []));
  const first = await checkTenant(ctx.db, tenantId, candidates);
  // Hashed outside the transaction (scrypt is slow), only for the rows that can be added and have a password.
  const withPassword = first.accepted.filter((c) => c.password !== null);
  const hashes = await hashPasswords(withPassword.map((c) => c.password!));
  const hashOf = new Map(withPassword.map((c, i) => [c.row, hashes[i]!]));

  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, tenantId);
    const now = Date.now();
    const claimed = await trx
      .updateTable('member_import')
      .set({ heartbeat_at: now })
      .where('id', '=', importId)
      .where('state', '=', IMPORT_STATE.running)
      .where('done', '=', start)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw new Superseded();
    // Again under the lock: another add may have come in between.
    const { refused, accepted } = await checkTenant(trx, tenantId, first.accepted);
    for (const [row, msg] of first.refused) refused.set(row, msg);
    for (const part of chunks(accepted)) {
      await createMembers(
        ctx,
        trx,
        tenantId,
        part.map((c) => ({
          router_name: c.name,
          router_type: ROUTER_TYPE.software,
          note: c.note,
          secret_hash: hashOf.get(c.row) ?? NO_IMPORTED_PASSWORD,
          area_number: c.area,
          phone: c.phone,
          source: 'import',
        })),
        now,
      );
    }
    const rows = step.map((r) => {
      const msg = refused.get(r.row);
      return msg ? { ...r, ok: false, msg } : r;
    });
    for (const part of chunks(rows)) {
      await trx
        .insertInto('member_import_row')
        .values(part.map((r) => ({ import_id: importId, tenant_id: tenantId, row: r.row, router_name: r.router_name, ok: r.ok ? 1 : 0, msg: r.msg })))
        .execute();
    }
    const failed = rows.filter((r) => !r.ok).length;
    await trx
      .updateTable('member_import')
      .set({ done: start + step.length, fail: failBefore + failed })
      .where('id', '=', importId)
      .execute();
    return failed;
  });
}

export const importJob: JobDef<Ctx> = {
  name: IMPORT_JOB,
  // A failed run ends its import (what it added stays, the result says which rows); a lost one is
  // resumed by the runner where it stopped. 10,000 rows take a few minutes on two cores.
  retryLimit: 0,
  timeoutSeconds: 3600,
  run: ({ ctx, data, signal }) => runImport(ctx, Number(data.import_id), signal),
};
