import { DELETE_COLUMNS, fmt, IMPORT_COLUMNS, IMPORT_EXAMPLE, LIMITS, M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { deflated, deflatedRepeat, inlineRow, SHEET_HEAD, SHEET_TAIL, workbookWithSheet } from '../../../test/craftedZip';
import { buildSheet, readSheet } from './xlsx';

const sheet = (rows: string[]) => ({ filename: 'a.xlsx', body: workbookWithSheet(deflated(SHEET_HEAD + rows.join('') + SHEET_TAIL)) });

describe('readSheet: the file-level refusals of an upload', () => {
  it('reads what buildSheet writes: the rows under the header, as text', async () => {
    const body = await buildSheet(IMPORT_COLUMNS, [IMPORT_EXAMPLE, ['lisi', '123456', 86, 13800000001, '']]);
    expect(await readSheet({ filename: 'A.XLSX', body }, IMPORT_COLUMNS, LIMITS.importRowsMax)).toEqual([
      { row: 2, cells: [...IMPORT_EXAMPLE] },
      { row: 3, cells: ['lisi', '123456', '86', '13800000001', ''] },
    ]);
  });

  it('refuses a small file that inflates far past what it declares, as unreadable', async () => {
    const bomb = workbookWithSheet(deflatedRepeat(SHEET_HEAD + inlineRow(1, ['账号']), ' '.repeat(1 << 20), 400, SHEET_TAIL), 1024);
    await expect(readSheet({ filename: 'a.xlsx', body: bomb }, DELETE_COLUMNS, LIMITS.batchDeleteMax)).rejects.toMatchObject({ code: 422, message: M.fileUnreadable });
  });

  it(`refuses more rows than its limit without reading the rest`, async () => {
    const rows = [inlineRow(1, ['账号']), ...Array.from({ length: 20_000 }, (_, i) => inlineRow(i + 2, [`user${i}`]))];
    await expect(readSheet(sheet(rows), DELETE_COLUMNS, LIMITS.batchDeleteMax)).rejects.toMatchObject({ code: 422, message: fmt(M.fileTooManyRows, { n: LIMITS.batchDeleteMax }) });
    await expect(readSheet(sheet(rows), DELETE_COLUMNS, LIMITS.importRowsMax)).rejects.toMatchObject({ code: 422, message: fmt(M.fileTooManyRows, { n: LIMITS.importRowsMax }) });
  });

  it('refuses a sheet whose first row is not the header, naming the columns missing or not understood', async () => {
    const header = (detail: string) => fmt(M.fileHeaderDetail, { detail });
    await expect(readSheet(sheet([inlineRow(2, ['账号']), inlineRow(3, ['user1'])]), DELETE_COLUMNS, LIMITS.batchDeleteMax)).rejects.toMatchObject({ message: header(M.fileHeaderNotFirst) });
    await expect(readSheet(sheet([inlineRow(1, ['账号', '', '', '多余']), inlineRow(2, ['user1'])]), DELETE_COLUMNS, LIMITS.batchDeleteMax)).rejects.toMatchObject({
      message: header(fmt(M.fileHeaderUnknown, { cols: '“多余”' })),
    });
    // Text past every cell read is named as such.
    const far = [...Array.from({ length: 30 }, () => ''), '远处'];
    await expect(readSheet(sheet([inlineRow(1, ['账号', ...far]), inlineRow(2, ['user1'])]), DELETE_COLUMNS, LIMITS.batchDeleteMax)).rejects.toMatchObject({
      message: header(fmt(M.fileHeaderUnknown, { cols: '…' })),
    });
    expect(await readSheet(sheet([inlineRow(1, ['账号']), inlineRow(2, ['user1', '', '', 'ignored'])]), DELETE_COLUMNS, LIMITS.batchDeleteMax)).toEqual([{ row: 2, cells: ['user1'] }]);
  });

  it('reads the columns by their names, past the extra columns it is told of; a row with text only there is blank', async () => {
    const rows = [inlineRow(1, ['状态', '备注', '账号', '密码', '手机号码', '区号']), inlineRow(2, ['正常', 'n', 'user1', 'pw', '138', '86']), inlineRow(3, ['禁用'])];
    expect(await readSheet(sheet(rows), IMPORT_COLUMNS, LIMITS.importRowsMax, ['状态'])).toEqual([{ row: 2, cells: ['user1', 'pw', '86', '138', 'n'] }]);
  });
});
