import ExcelJS from 'exceljs';

/**
 * The export's workbook: one sheet, a bold header row, columns sized to their text (bounded), and
 * the last column (the changes, one line per field) wrapped so each change reads on its own line.
 */
export async function auditSheet(columns: readonly string[], rows: readonly (readonly (string | number)[])[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.created = new Date();
  const ws = wb.addWorksheet('Sheet1');
  const widthOf = (v: string | number) => Math.min(60, Math.max(...String(v).split('\n').map((l) => l.length)) * 2 + 2);
  ws.columns = columns.map((header, i) => {
    let width = Math.max(12, widthOf(header));
    for (const r of rows) width = Math.max(width, widthOf(r[i] ?? ''));
    return { header, width };
  });
  ws.getRow(1).font = { bold: true };
  ws.getColumn(columns.length).alignment = { wrapText: true, vertical: 'top' };
  for (const r of rows) ws.addRow([...r]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
