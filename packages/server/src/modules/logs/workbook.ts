import ExcelJS from 'exceljs';

/** A workbook of one sheet: a bold header row and the rows under it, columns wide enough for their text. */
export async function buildSheet(columns: readonly string[], rows: readonly (readonly (string | number)[])[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.created = new Date();
  const ws = wb.addWorksheet('Sheet1');
  // A CJK character takes about two widths; bounded so one long value does not make a column huge.
  const widthOf = (v: string | number) => Math.min(40, String(v).length * 2 + 2);
  ws.columns = columns.map((header, i) => {
    let width = Math.max(12, widthOf(header));
    for (const r of rows) width = Math.max(width, widthOf(r[i] ?? ''));
    return { header, width };
  });
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow([...r]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
