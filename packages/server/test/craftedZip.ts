import { constants, deflateRawSync } from 'node:zlib';

// Zip archives built byte by byte, for tests of what an upload can hold: entries whose declared sizes
// lie, compression that inflates far beyond the file's size, broken headers.

export interface CraftedEntry {
  name: string;
  /** The stored bytes (deflated unless method is 0). */
  data: Buffer;
  method?: number;
  /** What the headers claim the entry inflates to (default: data's length). */
  declaredSize?: number;
}

/** A zip of the entries, CRCs zero (nothing here checks them). */
export function zipOf(entries: CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const method = e.method ?? 8;
    const declared = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, e.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    directory.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const dir = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** Deflated bytes of a text. */
export const deflated = (text: string | Buffer) => deflateRawSync(text);

/**
 * Deflated bytes that inflate to `head`, then `repeat` copies of `chunk`, then `tail`, built without
 * ever holding the inflated text: each part is compressed on its own up to a full flush (which
 * resets the compressor), so one compressed copy of `chunk` can be repeated as it is.
 */
export function deflatedRepeat(head: string, chunk: string, repeat: number, tail: string): Buffer {
  const part = (text: string) => deflateRawSync(text, { finishFlush: constants.Z_FULL_FLUSH });
  const one = part(chunk);
  return Buffer.concat([part(head), ...Array.from({ length: repeat }, () => one), deflateRawSync(tail)]);
}

const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

/** An .xlsx whose first sheet is the given deflated XML, claiming `declaredSize` bytes. */
export const workbookWithSheet = (sheet: Buffer, declaredSize?: number) =>
  zipOf([
    { name: 'xl/workbook.xml', data: deflated(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: deflated(RELS) },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, ...(declaredSize === undefined ? {} : { declaredSize }) },
  ]);

/** The opening and closing of a sheet's XML around its rows. */
export const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = '</sheetData></worksheet>';

/** A row of inline-string cells. */
export const inlineRow = (n: number, cells: string[]) =>
  `<row r="${n}">${cells.map((c, i) => `<c r="${String.fromCharCode(65 + i)}${n}" t="inlineStr"><is><t>${c}</t></is></c>`).join('')}</row>`;
