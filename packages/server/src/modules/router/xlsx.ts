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

/** Header cells read beyond the known columns, so that unknown ones can be named in the refusal. */
const HEADER_SLACK = 8;

/** '“密码”、“区号”' */
const quoted = (cols: readonly string[]) => cols.map((name) => fmt(M.fileHeaderColumn, { name })).join(M.fileHeaderColumnSep);

/**
 * Where each of `columns` sits in the header row, or the refusal naming what is wrong: columns
 * missing, columns not understood (neither `columns` nor `extra`), columns given twice.
 */
function columnPositions(header: readonly string[], columns: readonly string[], extra: readonly string[]): number[] {
  const known = new Set([...columns, ...extra]);
  const named = header.map((c, i) => ({ c, i })).filter(({ c }) => c !== '');
  const missing = columns.filter((c) => !header.includes(c));
  const unknown = named.filter(({ c }) => !known.has(c)).map(({ c }) => c);
  const repeated = [...new Set(named.filter(({ c, i }) => header.indexOf(c) !== i).map(({ c }) => c))];
  const parts = [
    ...(missing.length ? [fmt(M.fileHeaderMissing, { cols: quoted(missing) })] : []),
    ...(unknown.length ? [fmt(M.fileHeaderUnknown, { cols: quoted(unknown) })] : []),
    ...(repeated.length ? [fmt(M.fileHeaderRepeated, { cols: quoted(repeated) })] : []),
  ];
  if (parts.length) throw invalid(fmt(M.fileHeaderDetail, { detail: parts.join(M.fileHeaderPartSep) }));
  return columns.map((c) => header.indexOf(c));
}

/**
 * The file-level checks of an upload, each refusing the whole file: .xlsx by name and by content
 * (a renamed text file is not a workbook), at most LIMITS.uploadMaxBytes, a workbook that inflates
 * to at most LIMITS.uploadMaxInflatedBytes as it is read (whatever it claims), whose first sheet has
 * a header in its first row naming every one of `columns` (in any order) and otherwise only columns
 * of `extra` (read past: the export's columns), and at least one and at most `maxRows` data rows.
 * A wrong header is refused naming the columns missing, not understood or repeated.
 * Blank rows are skipped; the rows answered hold the text of the cells under `columns`, in that order.
 */
export async function readSheet(upload: Upload, columns: readonly string[], maxRows: number, extra: readonly string[] = []): Promise<SheetRow[]> {
  if (!/\.xlsx$/i.test(upload.filename) || !upload.body.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) throw invalid(M.fileFormatWrong);
  if (upload.body.length > LIMITS.uploadMaxBytes) throw invalid(M.fileTooLarge);
  const width = columns.length + extra.length + HEADER_SLACK;
  let sheet: Awaited<ReturnType<typeof readFirstSheet>>;
  try {
    sheet = await parses.run(() => readFirstSheet(upload.body, { columns: width, maxRows: maxRows + 1, maxInflatedBytes: LIMITS.uploadMaxInflatedBytes }));
  } catch (e) {
    if (e instanceof SheetTooLong) throw invalid(fmt(M.fileTooManyRows, { n: maxRows }));
    if (e instanceof SheetUnreadable || e instanceof ZipTooLarge) throw invalid(M.fileUnreadable);
    throw e;
  }
  const [header, ...rows] = sheet.rows;
  if (!header || header.row !== 1) throw invalid(fmt(M.fileHeaderDetail, { detail: M.fileHeaderNotFirst }));
  const positions = columnPositions(header.cells, columns, extra);
  // Text in the header past the cells read: more columns than any file of ours has.
  if (sheet.wideRows.has(1)) throw invalid(fmt(M.fileHeaderDetail, { detail: fmt(M.fileHeaderUnknown, { cols: '…' }) }));
  // A row with text only under the columns read past is blank here.
  const read = rows.map((r) => ({ row: r.row, cells: positions.map((i) => r.cells[i]!) })).filter((r) => r.cells.some((c) => c !== ''));
  if (read.length === 0) throw invalid(M.fileEmpty);
  return read;
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
