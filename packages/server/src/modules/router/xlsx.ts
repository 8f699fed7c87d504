import ExcelJS from 'exceljs';
import { fmt, LIMITS, M } from '@hublink/contract';
import { invalid } from '../../core/errors';
import type { Upload } from '../../core/http';

/** Every .xlsx is a zip archive, and every zip starts with a local file header. */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * What the archive says its files take once inflated, from its central directory; Infinity when the
 * directory cannot be read or uses Zip64. A template filled with LIMITS.importRowsMax rows inflates
 * to well under a megabyte; a small file that claims much more is refused before it is opened.
 */
export function inflatedSize(zip: Buffer): number {
  const EOCD = 0x06054b50;
  const ENTRY = 0x02014b50;
  // The end-of-directory record is the last 22 bytes, before a comment of at most 65535.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) return Infinity;
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== ENTRY) return Infinity;
    const size = zip.readUInt32LE(at + 24);
    if (size === 0xffffffff) return Infinity;
    total += size;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return total;
}

/** The most an uploaded workbook may inflate to. */
const MAX_INFLATED = 16 * LIMITS.uploadMaxBytes;

/** One data row of an uploaded sheet: its spreadsheet row number and its cells as trimmed text. */
export interface SheetRow {
  row: number;
  cells: string[];
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  // Rich text, hyperlinks, formulas: what the cell shows.
  try {
    return String(cell.text ?? '').trim();
  } catch {
    return '';
  }
}

/**
 * The file-level checks of an upload, each refusing the whole file: .xlsx by name and by content
 * (a renamed text file is not a workbook), at most LIMITS.uploadMaxBytes (and not a zip bomb), a readable workbook whose
 * first sheet has exactly `columns` as its header, at least one and at most LIMITS.importRowsMax
 * data rows. Blank rows are skipped.
 */
export async function readSheet(upload: Upload, columns: readonly string[]): Promise<SheetRow[]> {
  if (!/\.xlsx$/i.test(upload.filename) || !upload.body.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) throw invalid(M.fileFormatWrong);
  if (upload.body.length > LIMITS.uploadMaxBytes) throw invalid(M.fileTooLarge);
  if (inflatedSize(upload.body) > MAX_INFLATED) throw invalid(M.fileUnreadable);
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(upload.body as unknown as ArrayBuffer);
  } catch {
    throw invalid(M.fileUnreadable);
  }
  const ws = wb.worksheets[0];
  if (!ws) throw invalid(M.fileUnreadable);

  const header = ws.getRow(1);
  const width = Math.max(columns.length, header.cellCount);
  for (let i = 1; i <= width; i++) {
    if (cellText(header.getCell(i)) !== (columns[i - 1] ?? '')) throw invalid(M.fileHeaderWrong);
  }

  const rows: SheetRow[] = [];
  ws.eachRow({ includeEmpty: false }, (r, n) => {
    if (n === 1) return;
    const cells = columns.map((_, i) => cellText(r.getCell(i + 1)));
    if (cells.some((c) => c !== '')) rows.push({ row: n, cells });
  });
  if (rows.length === 0) throw invalid(M.fileEmpty);
  if (rows.length > LIMITS.importRowsMax) throw invalid(fmt(M.fileTooManyRows, { n: LIMITS.importRowsMax }));
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
  const wb = new ExcelJS.Workbook();
  wb.created = new Date();
  const ws = wb.addWorksheet(opts.sheetName ?? 'Sheet1');
  // Wide enough for the longest value (a CJK character takes about two widths), within bounds.
  const widthOf = (v: string | number) => Math.min(40, String(v).length * 2 + 2);
  ws.columns = columns.map((header, i) => {
    let width = Math.max(12, widthOf(header));
    for (const r of rows) width = Math.max(width, widthOf(r[i] ?? ''));
    return { header, width, ...(opts.textColumns?.includes(i) ? { style: { numFmt: '@' } } : {}) };
  });
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow([...r]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
