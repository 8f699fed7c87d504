import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { LIMITS } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { deflated, deflatedRepeat, inlineRow, SHEET_HEAD, SHEET_TAIL, workbookWithSheet, zipOf } from '../../test/craftedZip';
import { readFirstSheet, SheetTooLong, SheetUnreadable } from './xlsxSheet';
import { inflateEntry, zipEntries, ZipTooLarge } from './zip';

const LIMITS_5 = { columns: 5, maxRows: LIMITS.importRowsMax + 1, maxInflatedBytes: LIMITS.uploadMaxInflatedBytes };

/** A sheet of inline-string rows, deflated. */
const sheetOf = (rows: string[]) => deflated(SHEET_HEAD + rows.join('') + SHEET_TAIL);

/** 400 MB of spaces inside a sheet, in about 400 KB, claiming to inflate to 1 KB. */
const BOMB_CHUNK = ' '.repeat(1 << 20);
const bomb = () => workbookWithSheet(deflatedRepeat(SHEET_HEAD + inlineRow(1, ['账号']), BOMB_CHUNK, 400, SHEET_TAIL), 1024);

describe('readFirstSheet: what it reads', () => {
  it('reads a workbook written by exceljs: shared strings, numbers, rich text, formulas and booleans as the cells show them', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('成员');
    ws.addRow(['账号', '密码', '区号', '手机号码', '备注']);
    ws.addRow(['zhangsan01', 123456, 86, 13800000000, { richText: [{ text: '研发' }, { text: '部', font: { bold: true } }] }]);
    ws.addRow([null, null, null, null, null]);
    ws.addRow(['  lisi02 ', 'abc&<>"', { formula: 'A2', result: 'zhangsan01' }, true, 1.5]);
    ws.addRow(['wide', '', '', '', '', 'beyond']);
    wb.addWorksheet('second').addRow(['not read']);
    const body = Buffer.from(await wb.xlsx.writeBuffer());
    const { rows, wideRows } = await readFirstSheet(body, LIMITS_5);
    expect(rows).toEqual([
      { row: 1, cells: ['账号', '密码', '区号', '手机号码', '备注'] },
      { row: 2, cells: ['zhangsan01', '123456', '86', '13800000000', '研发部'] },
      { row: 4, cells: ['lisi02', 'abc&<>"', 'zhangsan01', 'true', '1.5'] },
      { row: 5, cells: ['wide', '', '', '', ''] },
    ]);
    expect([...wideRows]).toEqual([5]);
  });

  it('reads inline strings, prefixed element names, cells without references and absolute relation targets', async () => {
    const sheet =
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
      '<x:row><x:c t="inlineStr"><x:is><x:t>a1</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:r><x:t>b</x:t></x:r><x:r><x:t>1</x:t></x:r></x:is></x:c></x:row>' +
      '<x:row><x:c><x:v>7</x:v></x:c></x:row></x:sheetData></x:worksheet>';
    const zip = zipOf([
      { name: 'xl/workbook.xml', data: deflated('<workbook xmlns:r="r"><sheets><sheet r:id="s"/></sheets></workbook>') },
      { name: 'xl/_rels/workbook.xml.rels', data: deflated('<Relationships><Relationship Id="s" Target="/xl/sheets/one.xml"/></Relationships>') },
      { name: 'xl/sheets/one.xml', data: Buffer.from(sheet), method: 0 },
    ]);
    const { rows } = await readFirstSheet(zip, { ...LIMITS_5, columns: 2 });
    expect(rows).toEqual([
      { row: 1, cells: ['a1', 'b1'] },
      { row: 2, cells: ['7', ''] },
    ]);
  });

  it('refuses what is not a readable workbook', async () => {
    const cases: [string, Buffer][] = [
      ['not a zip', Buffer.from('PK\x03\x04 not a zip at all')],
      ['no workbook part', zipOf([{ name: 'a.txt', data: deflated('x') }])],
      ['a sheet that is not XML', workbookWithSheet(deflated('<worksheet><sheetData><row>'))],
      ['a sheet cut short', workbookWithSheet(deflated(SHEET_HEAD + inlineRow(1, ['a'])).subarray(0, 40))],
      ['an unknown compression method', zipOf([{ name: 'xl/workbook.xml', data: deflated('<workbook/>'), method: 12 }])],
      ['entity declarations', workbookWithSheet(deflated(`<!DOCTYPE w [<!ENTITY a "${'x'.repeat(100)}"><!ENTITY b "&a;&a;&a;&a;">]>${SHEET_HEAD}<row><c t="inlineStr"><is><t>&b;</t></is></c></row>${SHEET_TAIL}`))],
    ];
    for (const [name, zip] of cases) {
      await expect(readFirstSheet(zip, LIMITS_5), name).rejects.toBeInstanceOf(SheetUnreadable);
    }
    // The directory points past the end of the file.
    const zip = workbookWithSheet(sheetOf([inlineRow(1, ['a'])]));
    const at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(zip.length + 10, at + 42);
    await expect(readFirstSheet(zip, LIMITS_5)).rejects.toBeInstanceOf(SheetUnreadable);
  });
});

describe('readFirstSheet: the work is bounded by what is read, not by what the archive claims', () => {
  it('stops inflating at the budget, whatever the entry declares', async () => {
    const zip = bomb();
    expect(zip.length).toBeLessThan(LIMITS.uploadMaxBytes);
    const sheet = zipEntries(zip).get('xl/worksheets/sheet1.xml')!;
    expect(sheet.declaredSize).toBe(1024);
    const budget = { left: 4 << 20 };
    let inflated = 0;
    await expect(
      (async () => {
        for await (const chunk of inflateEntry(zip, sheet, budget)) inflated += chunk.length;
      })(),
    ).rejects.toBeInstanceOf(ZipTooLarge);
    // What was handed on stayed within the budget; one chunk past it was inflated and refused.
    expect(inflated).toBeLessThanOrEqual(4 << 20);
    expect(inflated).toBeGreaterThan((4 << 20) - (64 << 10));
    await expect(readFirstSheet(zip, LIMITS_5)).rejects.toBeInstanceOf(ZipTooLarge);
  });

  it('stops reading at the row past the limit', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => inlineRow(i + 1, [`user${i}`, 'pass1234']));
    await expect(readFirstSheet(workbookWithSheet(sheetOf(rows)), LIMITS_5)).rejects.toBeInstanceOf(SheetTooLong);
    const { rows: read } = await readFirstSheet(workbookWithSheet(sheetOf(rows.slice(0, LIMITS.importRowsMax + 1))), LIMITS_5);
    expect(read).toHaveLength(LIMITS.importRowsMax + 1);
  });

  it('refuses a lying archive and huge honest sheets within 1 s of CPU and 100 MB of memory (measured in a process of its own)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-upload-'));
    const row = inlineRow(0, ['zhangsan01', 'pass1234', '86', '13800000000', '研发部']).replace(/ r="[A-Z]*0"/g, '');
    const cell = `<c t="inlineStr"><is><t>${'长'.repeat(20)}</t></is></c>`;
    const honest = (chunk: string, repeat: number) =>
      workbookWithSheet(deflatedRepeat(SHEET_HEAD + '<row>', chunk, repeat, '</row>' + SHEET_TAIL), Buffer.byteLength(SHEET_HEAD + SHEET_TAIL) + 11 + Buffer.byteLength(chunk) * repeat);
    const files = {
      // 400 MB declared as 1 KB.
      bomb: bomb(),
      // Every byte declared: 60,000 rows, and one row of 2,000,000 cells (cells like these cost exceljs seconds and gigabytes).
      rows: workbookWithSheet(deflatedRepeat(SHEET_HEAD, row.repeat(100), 600, SHEET_TAIL)),
      cells: honest(cell.repeat(1000), 2000),
    };
    const expected: Record<string, string> = { bomb: 'ZipTooLarge', rows: 'SheetTooLong', cells: 'ZipTooLarge' };
    for (const body of Object.values(files)) expect(body.length).toBeLessThan(LIMITS.uploadMaxBytes);
    const script = path.resolve(import.meta.dirname, '../../test/parseUpload.ts');
    for (const [name, body] of Object.entries(files)) {
      const file = path.join(dir, `${name}.xlsx`);
      fs.writeFileSync(file, body);
      const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', script, file], { cwd: path.resolve(import.meta.dirname, '../..') });
      const cost = JSON.parse(stdout) as { outcome: string; cpuMs: number; rssBeforeKb: number; maxRssKb: number };
      expect({ name, outcome: cost.outcome }).toEqual({ name, outcome: expected[name] });
      // CPU time, not the clock: the machine may be busy with other tests.
      expect(cost.cpuMs, name).toBeLessThan(1000);
      expect(cost.maxRssKb - cost.rssBeforeKb, name).toBeLessThan(100 * 1024);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
