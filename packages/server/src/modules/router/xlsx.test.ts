import { IMPORT_COLUMNS, LIMITS, M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { workbook } from './fixtures';
import { inflatedSize, readSheet } from './xlsx';

/** The workbook with its first central-directory entry claiming `size` bytes once inflated. */
function claiming(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  const at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  out.writeUInt32LE(size, at + 24);
  return out;
}

describe('xlsx uploads', () => {
  it('reads the inflated size of a real workbook from its central directory', async () => {
    const body = await workbook(IMPORT_COLUMNS, [['user01', 'pass1234', '86', '13800000000', '']]);
    const size = inflatedSize(body);
    expect(size).toBeGreaterThan(body.length);
    expect(size).toBeLessThan(LIMITS.uploadMaxBytes);
    expect(inflatedSize(Buffer.from('PK\x03\x04 not a zip at all'))).toBe(Infinity);
  });

  it('refuses a small file that claims to inflate to a huge one, before opening it', async () => {
    const body = await workbook(IMPORT_COLUMNS, [['user01', 'pass1234', '', '', '']]);
    await expect(readSheet({ filename: 'a.xlsx', body: claiming(body, 0x7fff_ffff) }, IMPORT_COLUMNS)).rejects.toMatchObject({ code: 422, message: M.fileUnreadable });
    await expect(readSheet({ filename: 'a.xlsx', body: claiming(body, 0xffff_ffff) }, IMPORT_COLUMNS)).rejects.toMatchObject({ code: 422, message: M.fileUnreadable });
    expect(await readSheet({ filename: 'A.XLSX', body }, IMPORT_COLUMNS)).toEqual([{ row: 2, cells: ['user01', 'pass1234', '', '', ''] }]);
  });
});
