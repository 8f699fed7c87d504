import {
  DELETE_COLUMNS,
  DELETE_EXAMPLE,
  EXPORT_COLUMNS,
  IMPORT_COLUMNS,
  IMPORT_EXAMPLE,
  IMPORT_SHEETS,
  M,
  MEMBER_FILES,
  XLSX_TYPE,
  type exportRouters,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { FileAnswer } from '../../core/http';
import { formatTime } from '../../core/time';
import { filtered } from './service';
import { buildSheet, buildSheets } from './xlsx';

type ExportQuery = z.output<typeof exportRouters.query>;

/** The phone and password columns of the import template are text: '0123456' and phones stay as typed. */
const IMPORT_TEXT_COLUMNS = [1, 2, 3];

/** '+86 13800000000' → ['86', '13800000000'] as the import template's 区号 and 手机号码. */
function phoneCells(phone: string | null): [string, string] {
  if (!phone) return ['', ''];
  const [area = '', mobile = ''] = phone.split(' ');
  return [area.replace(/^\+/, ''), mobile];
}

/**
 * The members of one tab matching the search, newest first, as .xlsx; 422 with M.exportEmpty when none
 * match. The sheet is an import file (issue 31): the template's sheet name and columns, 密码 empty (no
 * password leaves the server), then the export's own columns, which the import reads past.
 */
export async function exportMembers(ctx: Ctx, actor: Actor, q: ExportQuery): Promise<FileAnswer> {
  const tz = ctx.config.timezone;
  const rows = await filtered(ctx, actor, q.type, q.search)
    .select(['router_name', 'note', 'phone', 'status', 'online_status', 'os', 'version', 'create_time'])
    .orderBy('id', 'desc')
    .execute();
  if (rows.length === 0) throw invalid(M.exportEmpty);
  const body = await buildSheet(
    EXPORT_COLUMNS,
    rows.map((r) => [
      r.router_name,
      '',
      ...phoneCells(r.phone),
      r.note,
      r.status === 1 ? M.memberStatusNormal : M.memberStatusOff,
      r.online_status === 1 ? M.memberOnline : M.memberOffline,
      r.os,
      r.version,
      formatTime(Number(r.create_time), tz),
    ]),
    { sheetName: IMPORT_SHEETS.data, textColumns: IMPORT_TEXT_COLUMNS },
  );
  const day = formatTime(Date.now(), tz).slice(0, 10).replaceAll('-', '');
  return new FileAnswer(`${MEMBER_FILES.export}-${day}.xlsx`, XLSX_TYPE, body);
}

export async function importTemplate(): Promise<FileAnswer> {
  const body = await buildSheets([
    { name: IMPORT_SHEETS.data, columns: IMPORT_COLUMNS, rows: [], textColumns: IMPORT_TEXT_COLUMNS },
    { name: IMPORT_SHEETS.example, columns: IMPORT_COLUMNS, rows: [IMPORT_EXAMPLE], textColumns: IMPORT_TEXT_COLUMNS },
  ]);
  return new FileAnswer(`${MEMBER_FILES.importTemplate}.xlsx`, XLSX_TYPE, body);
}

export async function deleteTemplate(): Promise<FileAnswer> {
  const body = await buildSheets([
    { name: IMPORT_SHEETS.data, columns: DELETE_COLUMNS, rows: [], textColumns: [0] },
    { name: IMPORT_SHEETS.example, columns: DELETE_COLUMNS, rows: [DELETE_EXAMPLE], textColumns: [0] },
  ]);
  return new FileAnswer(`${MEMBER_FILES.deleteTemplate}.xlsx`, XLSX_TYPE, body);
}
