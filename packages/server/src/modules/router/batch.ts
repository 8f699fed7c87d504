import { DELETE_COLUMNS, EXPORT_COLUMNS, IMPORT_COLUMNS, LIMITS, M, ROUTER_TYPE, type BatchResult, type BatchResultRow } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import type { Upload } from '../../core/http';
import { lockTenant } from '../../core/tenantLock';
import { chunks } from '../../core/chunks';
import { deleteMembers } from '../../domain/members';
import { keyOf } from './service';
import { oneUploadAtATime } from './uploadTurn';
import { readSheet } from './xlsx';

/** A delete file may be an import file or an exported list: their other columns are read past. */
const DELETE_READS_PAST = [...new Set<string>([...IMPORT_COLUMNS, ...EXPORT_COLUMNS])].filter((c) => !(DELETE_COLUMNS as readonly string[]).includes(c));

const resultOf = (rows: BatchResultRow[]): BatchResult => ({
  success: rows.filter((r) => r.ok).length,
  fail: rows.filter((r) => !r.ok).length,
  rows,
});

/**
 * Deletes software members by name, each name its own result row: unknown names and hardware
 * members are refused, a name given twice is refused the second time. One transaction, under the
 * tenant's lock.
 */
async function deleteNames(ctx: Ctx, actor: Actor, names: { row: number; name: string }[]): Promise<BatchResult> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const found = new Map<string, { id: number; router_type: number }>();
    for (const part of chunks([...new Set(names.map((n) => keyOf(n.name)))])) {
      const rows = await trx.selectFrom('member').select(['id', 'router_key', 'router_type']).where('tenant_id', '=', actor.tenantId).where('router_key', 'in', part).execute();
      for (const r of rows) found.set(r.router_key, r);
    }
    const seen = new Set<string>();
    const ids: number[] = [];
    const rows = names.map(({ row, name }): BatchResultRow => {
      const key = keyOf(name);
      const m = found.get(key);
      const refuse = (msg: string) => ({ row, router_name: name, ok: false, msg });
      if (seen.has(key)) return refuse(M.importAccountRepeated);
      seen.add(key);
      if (!m) return refuse(M.memberNotFound);
      if (m.router_type !== ROUTER_TYPE.software) return refuse(M.memberSoftwareOnly);
      ids.push(m.id);
      return { row, router_name: name, ok: true, msg: M.importRemoved };
    });
    await deleteMembers(ctx, trx, actor.tenantId, ids);
    return resultOf(rows);
  });
}

/** Bulk delete, list mode: the names chosen in the table (row 0). */
export const batchDelete = (ctx: Ctx, actor: Actor, names: string[]) =>
  deleteNames(
    ctx,
    actor,
    names.map((name) => ({ row: 0, name })),
  );

/** Bulk delete, file mode: the names of the delete template, with the same file-level refusals as the import (at most LIMITS.batchDeleteMax rows). */
export const batchDeleteFile = (ctx: Ctx, actor: Actor, upload: Upload): Promise<BatchResult> =>
  oneUploadAtATime(ctx, actor, async () => {
    const sheet = await readSheet(upload, DELETE_COLUMNS, LIMITS.batchDeleteMax, DELETE_READS_PAST);
    return deleteNames(
      ctx,
      actor,
      sheet.map((r) => ({ row: r.row, name: r.cells[0]! })),
    );
  });
