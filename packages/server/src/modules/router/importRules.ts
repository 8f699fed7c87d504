import {
  fmt,
  IMPORT_NOTE_PATTERN,
  IMPORT_PASSWORD_PATTERN,
  importAccountField,
  LIMITS,
  M,
  memberPhoneError,
  phoneValue,
  type BatchResultRow,
} from '@hublink/contract';
import { chunks } from '../../core/chunks';
import { placesLeft } from '../../domain/members';
import type { SheetRow } from '../../core/xlsxSheet';
import type { Db } from '../../db/connect';
import { keyOf } from './service';

/** A row of the import that passed the rules that need no database. */
export interface Candidate {
  row: number;
  name: string;
  key: string;
  /** null: the row gave none (an exported list); the member gets no password. */
  password: string | null;
  area: string | null;
  phone: string | null;
  note: string;
}

/**
 * The import rules of spec 3 §5 that a row breaks on its own or against the rows above it: one result
 * per row, in order (refused, or M.importAdded for now), and the rows that passed.
 */
export function checkRows(rows: SheetRow[]): { results: BatchResultRow[]; candidates: Candidate[] } {
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
    if (password !== '' && !IMPORT_PASSWORD_PATTERN.test(password)) {
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
    results.push({ row, router_name: name, ok: true, msg: password ? M.importAdded : M.importAddedNoPassword });
    candidates.push({ row, name, key, password: password || null, area, phone, note });
  }
  return { results, candidates };
}

/**
 * The rules that need the tenant's members: the name taken, the phone bound to a member already,
 * the quota (rows beyond it refused). Answers the refusals by spreadsheet row and the rows to add.
 */
export async function checkTenant(db: Db, tenantId: number, candidates: Candidate[]): Promise<{ refused: Map<number, string>; accepted: Candidate[] }> {
  const takenNames = new Set<string>();
  for (const part of chunks(candidates.map((c) => c.key))) {
    const rows = await db.selectFrom('member').select('router_key').where('tenant_id', '=', tenantId).where('router_key', 'in', part).execute();
    for (const r of rows) takenNames.add(r.router_key);
  }
  const takenPhones = new Set<string>();
  for (const part of chunks(candidates.flatMap((c) => (c.phone ? [c.phone] : [])))) {
    const rows = await db.selectFrom('member').select('phone').where('tenant_id', '=', tenantId).where('phone', 'in', part).execute();
    for (const r of rows) if (r.phone) takenPhones.add(r.phone);
  }
  const { left, max } = await placesLeft(db, tenantId);
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
