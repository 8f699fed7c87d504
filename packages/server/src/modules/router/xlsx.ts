import ExcelJS from 'exceljs';
import { fmt, LIMITS, M } from '@hublink/contract';
import { invalid } from '../../core/errors';
import type { Upload } from '../../core/http';
import { Slots } from '../../core/turns';
import { readFirstSheet, SheetTooLong, SheetUnreadable, type SheetRow } from '../../core/xlsxSheet';
import { ZipTooLarge } from '../../core/zip';

/** Every .xlsx is a zip archive, and every zip starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Workbooks being parsed by this server at once (each parse holds its XML budget in memory at most). */
const parses = new Slots(LIMITS.uploadParsesPerInstance, LIMITS.uploadParsesWaiting, M.uploadBusy);

/**
 * The file-level checks of an upload, each refusing the whole file: .xlsx by name and by content
 * (a renamed text file is not a workbook), at most LIMITS.uploadMaxBytes, a workbook that inflates
 * to at most LIMITS.uploadMaxInflatedBytes as it is read (whatever it claims), whose first sheet has
 * exactly `columns` as its header and at least one and at most `maxRows` data rows.
 * Blank rows are skipped; the rows answered hold the text of the first `columns.length` cells.
 */
export async function readSheet(upload: Upload, columns: readonly string[], maxRows: number): Promise<SheetRow[]> {
  if (!/\.xlsx$/i.test(upload.filename) || !upload.body.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) throw invalid(M.fileFormatWrong);
  if (upload.body.length > LIMITS.uploadMaxBytes) throw invalid(M.fileTooLarge);
  let sheet: Awaited<ReturnType<typeof readFirstSheet>>;
  try {
    sheet = await parses.run(() =>
      readFirstSheet(upload.body, { columns: columns.length, maxRows: maxRows + 1, maxInflatedBytes: LIMITS.uploadMaxInflatedBytes }),
    );
  } catch (e) {
    if (e instanceof SheetTooLong) throw invalid(fmt(M.fileTooManyRows, { n: maxRows }));
    if (e instanceof SheetUnreadable || e instanceof ZipTooLarge) throw invalid(M.fileUnreadable);
    throw e;
  }
  const [header, ...rows] = sheet.rows;
  if (!header || header.row !== 1 || sheet.wideRows.has(1) || header.cells.some((c, i) => c !== columns[i])) throw invalid(M.fileHeaderWrong);
  if (rows.length === 0) throw invalid(M.fileEmpty);
  return rows;
}

/**
 * A workbook of one sheet: a bold header row and the rows under it. Columns listed in `textColumns`
 * (0-based) are formatted as text, so what a user types there (phones, passwords) stays as typed.
 */
export async function buildSheet(
  columns: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  opts: { sheetName?: string; textColumns?: number[] } = {},
): Promise<Buffer> {
  return buildSheets([{ name: opts.sheetName ?? 'Sheet1', columns, rows, textColumns: opts.textColumns }]);
}

export interface SheetSpec {
  name: string;
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
  textColumns?: number[] | undefined;
}

/** A workbook of several sheets in this order, each built as buildSheet builds its one. */
export async function buildSheets(sheets: readonly SheetSpec[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.created = new Date();
  // Wide enough for the longest value (a CJK character takes about two widths), within bounds.
  const widthOf = (v: string | number) => Math.min(40, String(v).length * 2 + 2);
  for (const { name, columns, rows, textColumns } of sheets) {
    const ws = wb.addWorksheet(name);
    ws.columns = columns.map((header, i) => {
      let width = Math.max(12, widthOf(header));
      for (const r of rows) width = Math.max(width, widthOf(r[i] ?? ''));
      return { header, width, ...(textColumns?.includes(i) ? { style: { numFmt: '@' } } : {}) };
    });
    ws.getRow(1).font = { bold: true };
    for (const r of rows) ws.addRow([...r]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
