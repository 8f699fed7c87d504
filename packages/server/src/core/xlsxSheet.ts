import path from 'node:path/posix';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { inflateEntry, ZipTooLarge, ZipUnreadable, zipEntries, type InflateBudget, type ZipEntry } from './zip';

/** One row of a sheet: its spreadsheet row number and the text of its first cells. */
export interface SheetRow {
  row: number;
  cells: string[];
}

export interface SheetLimits {
  /** Cells kept of each row, from column A; text beyond them is only noted (wideRows). */
  columns: number;
  /** Rows with text in the kept cells, the header included, past which reading stops (SheetTooLong). */
  maxRows: number;
  /** Bytes of XML that may be inflated in all (the workbook, its relations, shared strings, the sheet). */
  maxInflatedBytes: number;
}

/** The upload is not a workbook this reader can read. */
export class SheetUnreadable extends Error {}

/** The first sheet has more rows with text than SheetLimits.maxRows. */
export class SheetTooLong extends Error {}

/** 'x:row' → 'row': some writers prefix the spreadsheet namespace. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** 'AB12' → 28 (column A is 1); 0 when the reference has no column. */
function columnOf(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n;
}

/**
 * Feeds one entry's XML through a SAX parser, chunk by chunk as it inflates (never the whole text at
 * once); `stop` ends reading after the chunk at hand (whose events still arrive).
 */
async function parseEntry(
  zip: Buffer,
  entry: ZipEntry,
  budget: InflateBudget,
  on: (parser: SaxesParser, stop: () => void) => void,
): Promise<void> {
  const parser = new SaxesParser();
  let stopped = false;
  on(parser, () => {
    stopped = true;
  });
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of inflateEntry(zip, entry, budget)) {
      parser.write(decoder.write(chunk));
      if (stopped) return;
    }
    parser.write(decoder.end());
    parser.close();
  } catch (e) {
    if (e instanceof SheetTooLong || e instanceof ZipTooLarge) throw e;
    throw new SheetUnreadable(`${entry.name}: ${(e as Error).message}`);
  }
}

/** The first sheet's entry and the shared strings' entry, found through the workbook's relations. */
async function locateParts(zip: Buffer, entries: Map<string, ZipEntry>, budget: InflateBudget) {
  const entryOf = (name: string) => {
    const e = entries.get(name);
    if (!e) throw new SheetUnreadable(`no ${name}`);
    return e;
  };
  let sheetRelId: string | undefined;
  await parseEntry(zip, entryOf('xl/workbook.xml'), budget, (p, stop) => {
    p.on('opentag', (tag: SaxesTagPlain) => {
      if (localName(tag.name) !== 'sheet' || sheetRelId !== undefined) return;
      sheetRelId = tag.attributes['r:id'] ?? '';
      stop();
    });
  });
  if (!sheetRelId) throw new SheetUnreadable('the workbook has no sheet');

  const targets = new Map<string, string>();
  let sharedStrings: string | undefined;
  await parseEntry(zip, entryOf('xl/_rels/workbook.xml.rels'), budget, (p) => {
    p.on('opentag', (tag: SaxesTagPlain) => {
      if (localName(tag.name) !== 'Relationship') return;
      const { Id: id, Target: target, Type: type } = tag.attributes;
      if (!id || !target) return;
      // Targets are relative to xl/, or absolute within the package.
      const name = target.startsWith('/') ? target.slice(1) : path.normalize(path.join('xl', target));
      targets.set(id, name);
      if (type?.endsWith('/sharedStrings')) sharedStrings = name;
    });
  });
  const sheet = targets.get(sheetRelId);
  if (!sheet) throw new SheetUnreadable('the first sheet has no part');
  return { sheet: entryOf(sheet), sharedStrings: sharedStrings ? entries.get(sharedStrings) : undefined };
}

/** The shared strings: each <si>'s text, rich-text runs joined, phonetic hints (<rPh>) left out. */
async function readSharedStrings(zip: Buffer, entry: ZipEntry, budget: InflateBudget): Promise<string[]> {
  const strings: string[] = [];
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  await parseEntry(zip, entry, budget, (p) => {
    p.on('opentag', (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) inText = true;
    });
    p.on('closetag', (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === 'si' && current !== null) {
        strings.push(current);
        current = null;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    });
    p.on('text', (text) => {
      if (inText && current !== null) current += text;
    });
  });
  return strings;
}

/** What a cell shows, from its type (t) and raw value, as exceljs's cell text would give it. */
function cellText(type: string | undefined, value: string, inline: string, shared: string[]): string {
  switch (type) {
    case 's':
      return value === '' ? '' : (shared[Number(value)] ?? '');
    case 'inlineStr':
      return inline;
    case 'b':
      return value === '1' ? 'true' : value === '0' ? 'false' : value;
    case 'str':
    case 'e':
    case 'd':
      return value;
    default: {
      // Numbers as Excel keeps them ('13800000000', '86'), written back the way JavaScript prints them.
      const n = Number(value);
      return value !== '' && Number.isFinite(n) ? String(n) : value;
    }
  }
}

/**
 * The rows of an .xlsx's first sheet with text (trimmed) in their first limits.columns cells, in
 * order, and the numbers of the rows with text beyond those cells (wideRows).
 * The work is bounded by what is really read, not by what the archive claims: every byte inflated
 * counts against limits.maxInflatedBytes (ZipTooLarge past it), only the parts needed are
 * inflated, reading stops at the row past limits.maxRows (SheetTooLong), and only the first
 * limits.columns cells of a row are kept. Throws SheetUnreadable for anything that is not such a
 * workbook.
 */
export async function readFirstSheet(zip: Buffer, limits: SheetLimits): Promise<{ rows: SheetRow[]; wideRows: Set<number> }> {
  let entries: Map<string, ZipEntry>;
  try {
    entries = zipEntries(zip);
  } catch (e) {
    if (e instanceof ZipUnreadable) throw new SheetUnreadable(e.message);
    throw e;
  }
  const budget: InflateBudget = { left: limits.maxInflatedBytes };
  const parts = await locateParts(zip, entries, budget);
  const shared = parts.sharedStrings ? await readSharedStrings(zip, parts.sharedStrings, budget) : [];

  const rows: SheetRow[] = [];
  const wideRows = new Set<number>();
  let rowNumber = 0;
  let cells: string[] = [];
  let column = 0;
  let cell: { type?: string; value: string; inline: string } | null = null;
  let into: 'value' | 'inline' | null = null;
  let phonetic = 0;

  await parseEntry(zip, parts.sheet, budget, (p) => {
    p.on('opentag', (tag: SaxesTagPlain) => {
      switch (localName(tag.name)) {
        case 'row': {
          const r = Number(tag.attributes.r);
          rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
          cells = Array.from({ length: limits.columns }, () => '');
          column = 0;
          break;
        }
        case 'c': {
          const ref = tag.attributes.r;
          column = ref ? columnOf(ref) || column + 1 : column + 1;
          cell = { type: tag.attributes.t, value: '', inline: '' };
          break;
        }
        case 'v':
          into = 'value';
          break;
        case 'rPh':
          phonetic++;
          break;
        case 't':
          if (cell && phonetic === 0) into = 'inline';
          break;
      }
    });
    p.on('text', (text) => {
      if (!cell || !into) return;
      if (into === 'value') cell.value += text;
      else cell.inline += text;
    });
    p.on('closetag', (tag: SaxesTagPlain) => {
      switch (localName(tag.name)) {
        case 'v':
        case 't':
          into = null;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c': {
          if (!cell) break;
          const text = cellText(cell.type, cell.value, cell.inline, shared).trim();
          if (column >= 1 && column <= limits.columns) cells[column - 1] = text;
          else if (text !== '') wideRows.add(rowNumber);
          cell = null;
          break;
        }
        case 'row':
          if (cells.some((c) => c !== '')) {
            rows.push({ row: rowNumber, cells });
            if (rows.length > limits.maxRows) throw new SheetTooLong();
          }
          break;
      }
    });
  });
  return { rows, wideRows };
}
