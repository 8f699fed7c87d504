import { IMPORT_STATE, LIMITS, type BatchResultRow, type ImportStatus } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { notFound } from '../../core/errors';
import { failLostImports, leaseCutoff } from './importJob';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Where the tenant's import with this id is, or (no id) its latest one (null when it has none).
 * Another tenant's id is not found. A running import past its lease reads as failed, as the next
 * upload or the sweep will make it. While it runs, the result holds the rows refused so far (a
 * dialog opened again mid-run shows every one of them); once it has ended, every row.
 */
export async function importStatus(ctx: Ctx, actor: Actor, id: number | undefined): Promise<ImportStatus | null> {
  const imp = await ctx.db
    .selectFrom('member_import')
    .select(['id', 'state', 'total', 'done', 'fail', 'heartbeat_at'])
    .where('tenant_id', '=', actor.tenantId)
    .$if(id !== undefined, (qb) => qb.where('id', '=', id!))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!imp) {
    if (id !== undefined) throw notFound();
    return null;
  }
  const lost = imp.state === IMPORT_STATE.running && imp.heartbeat_at < leaseCutoff();
  const state = lost ? IMPORT_STATE.failed : (imp.state as ImportStatus['state']);
  const base = { id: imp.id, state, total: imp.total, done: imp.done, fail: imp.fail };
  const running = state === IMPORT_STATE.running;
  const rows = await ctx.db
    .selectFrom('member_import_row')
    .select(['row', 'router_name', 'ok', 'msg'])
    .where('tenant_id', '=', actor.tenantId)
    .where('import_id', '=', imp.id)
    .$if(running, (qb) => qb.where('ok', '=', 0))
    .orderBy('row')
    .execute();
  const result: BatchResultRow[] = rows.map((r) => ({ row: r.row, router_name: r.router_name, ok: r.ok === 1, msg: r.msg }));
  if (running) return { ...base, result: { success: imp.done - imp.fail, fail: imp.fail, rows: result } };
  const success = result.filter((r) => r.ok).length;
  return { ...base, result: { success, fail: result.length - success, rows: result } };
}

/** The hourly sweep: lost imports are failed, and ended ones older than LIMITS.importKeepDays go with their rows. */
export async function sweepImports(ctx: Ctx, now = Date.now()): Promise<void> {
  await failLostImports(ctx, ctx.db);
  const old = await ctx.db
    .selectFrom('member_import')
    .select('id')
    .where('state', '!=', IMPORT_STATE.running)
    .where('finish_time', '<', now - LIMITS.importKeepDays * DAY_MS)
    .limit(1000)
    .execute();
  const ids = old.map((o) => o.id);
  if (ids.length === 0) return;
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('member_import_row').where('import_id', 'in', ids).execute();
    await trx.deleteFrom('member_import').where('id', 'in', ids).execute();
  });
}
