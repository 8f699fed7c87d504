import {
  DELETE_COLUMNS,
  fmt,
  IMPORT_COLUMNS,
  IMPORT_NOTE_PATTERN,
  IMPORT_PASSWORD_PATTERN,
  importAccountField,
  LIMITS,
  M,
  memberPhoneError,
  phoneValue,
  ROUTER_TYPE,
  type BatchResult,
  type BatchResultRow,
} from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import type { Upload } from '../../core/http';
import { hashPassword } from '../../core/passwords';
import type { Db } from '../../db/connect';
import { lockTenant } from '../../core/tenantLock';
import { chunks } from '../../core/chunks';
import { deleteMembers, membersCreated, placesLeft } from '../../core/members';
import { exclusive } from '../../core/turns';
import type { SheetRow } from '../../core/xlsxSheet';
import { keyOf } from './service';
import { readSheet } from './xlsx';

const resultOf = (rows: BatchResultRow[]): BatchResult => ({
  success: rows.filter((r) => r.ok).length,
  fail: rows.filter((r) => !r.ok).length,
  rows,
});

/** A row of the import that passed the rules that need no database. */
interface Candidate {
  row: number;
  name: string;
  key: string;
  password: string;
  area: string | null;
  phone: string | null;
  note: string;
}

/** The import rules of spec 3 §5 that a row breaks on its own or against the rows above it. */
function checkRows(rows: SheetRow[]): { results: BatchResultRow[]; candidates: Candidate[] } {
  const results: BatchResultRow[] = [];
  const candidates: Candidate[] = [];
  const names = new Set<string>();
  const phones = new Set<string>();
  for (const { row, cells } of rows) {
    const [name = '', password = '', areaCell = '', mobile = '', note = ''] = cells;
    const refuse = (msg: string) => results.push({ row, router_name: name, ok: false, msg });
    const account = importAccountField.safeParse(name);
    if (!account.success) {
      refuse(account.error.issues[0]!.message);
      continue;
    }
    const key = keyOf(name);
    if (names.has(key)) {
      refuse(M.importAccountRepeated);
      continue;
    }
    names.add(key);
    if (!IMPORT_PASSWORD_PATTERN.test(password)) {
      refuse(M.importPasswordRule);
      continue;
    }
    if (note.length > LIMITS.importNoteMax || !IMPORT_NOTE_PATTERN.test(note)) {
      refuse(M.importNoteRule);
      continue;
    }
    let area: string | null = null;
    let phone: string | null = null;
    if (mobile) {
      area = areaCell.replace(/^\+/, '') || LIMITS.defaultAreaCode;
      if (memberPhoneError(area, mobile)) {
        refuse(M.importPhoneRule);
        continue;
      }
      phone = phoneValue(area, mobile);
      if (phones.has(phone)) {
        refuse(M.importPhoneRepeated);
        continue;
      }
      phones.add(phone);
    }
    results.push({ row, router_name: name, ok: true, msg: M.importAdded });
    candidates.push({ row, name, key, password, area, phone, note });
  }
  return { results, candidates };
}

/**
 * The rules that need the tenant's members: the name taken, the phone bound to a member already,
 * the quota (rows beyond it refused). Answers the refusals by spreadsheet row and the rows to add.
 */
async function checkTenant(db: Db, actor: Actor, candidates: Candidate[]): Promise<{ refused: Map<number, string>; accepted: Candidate[] }> {
  const takenNames = new Set<string>();
  for (const part of chunks(candidates.map((c) => c.key))) {
    const rows = await db.selectFrom('member').select('router_key').where('tenant_id', '=', actor.tenantId).where('router_key', 'in', part).execute();
    for (const r of rows) takenNames.add(r.router_key);
  }
  const takenPhones = new Set<string>();
  for (const part of chunks(candidates.flatMap((c) => (c.phone ? [c.phone] : [])))) {
    const rows = await db.selectFrom('member').select('phone').where('tenant_id', '=', actor.tenantId).where('phone', 'in', part).execute();
    for (const r of rows) if (r.phone) takenPhones.add(r.phone);
  }
  const { left, max } = await placesLeft(db, actor.tenantId);
  const refused = new Map<number, string>();
  const accepted: Candidate[] = [];
  for (const c of candidates) {
    if (takenNames.has(c.key)) refused.set(c.row, M.memberNameTaken);
    else if (c.phone && takenPhones.has(c.phone)) refused.set(c.row, M.importPhoneRepeated);
    else if (accepted.length >= left) refused.set(c.row, fmt(M.memberQuotaFull, { n: max }));
    else accepted.push(c);
  }
  return { refused, accepted };
}

/** Hashes at most this many passwords at once: scrypt runs on libuv's pool, which file I/O shares. */
const HASH_CONCURRENCY = 2;

async function hashAll(candidates: Candidate[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const c = candidates[next++]!;
      out.set(c.row, await hashPassword(c.password));
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, worker));
  return out;
}

/** A tenant's uploads are read and applied one at a time, on every instance: a second one meanwhile gets 429. */
const oneUploadAtATime = <T>(ctx: Ctx, actor: Actor, work: () => Promise<T>) =>
  exclusive(ctx.store, `upload:${actor.tenantId}`, LIMITS.uploadTurnSeconds, M.uploadBusy, work);

/**
 * Bulk add of software members from the import template. File-level refusals (format, size,
 * header, no rows, too many rows) refuse the whole file; then each row is checked by the import
 * rules, and the rows that pass are added together in one transaction (source 'import'). Imported
 * phones need no code: the tenant vouches for its own members' phones.
 */
export const batchAdd = (ctx: Ctx, actor: Actor, upload: Upload): Promise<BatchResult> => oneUploadAtATime(ctx, actor, () => addRows(ctx, actor, upload));

async function addRows(ctx: Ctx, actor: Actor, upload: Upload): Promise<BatchResult> {
  const sheet = await readSheet(upload, IMPORT_COLUMNS);
  const { results, candidates } = checkRows(sheet);
  const first = await checkTenant(ctx.db, actor, candidates);
  // Passwords are hashed outside the transaction (scrypt is slow), only for the rows that can be added.
  const hashes = await hashAll(first.accepted);

  const refused = await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    // Again under the lock: another add may have come in between.
    const { refused, accepted } = await checkTenant(trx, actor, first.accepted);
    const now = Date.now();
    for (const part of chunks(accepted)) {
      const added = await trx
        .insertInto('member')
        .values(
          part.map((c) => ({
            tenant_id: actor.tenantId,
            router_name: c.name,
            router_key: c.key,
            router_type: ROUTER_TYPE.software,
            note: c.note,
            secret_hash: hashes.get(c.row)!,
            area_number: c.area,
            phone: c.phone,
            source: 'import',
            create_time: now,
            update_time: now,
          })),
        )
        .returning(['id', 'router_type'])
        .execute();
      await membersCreated(ctx, trx, actor.tenantId, added.map((m) => ({ id: Number(m.id), router_type: m.router_type })));
    }
    for (const [row, msg] of first.refused) refused.set(row, msg);
    return refused;
  });
  return resultOf(
    results.map((r) => {
      const msg = refused.get(r.row);
      return msg ? { ...r, ok: false, msg } : r;
    }),
  );
}

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

/** Bulk delete, file mode: the names of the delete template, with the same file-level refusals as the import. */
export const batchDeleteFile = (ctx: Ctx, actor: Actor, upload: Upload): Promise<BatchResult> =>
  oneUploadAtATime(ctx, actor, async () => {
    const sheet = await readSheet(upload, DELETE_COLUMNS);
    return deleteNames(
      ctx,
      actor,
      sheet.map((r) => ({ row: r.row, name: r.cells[0]! })),
    );
  });
