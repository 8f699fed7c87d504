import { createInflateRaw } from 'node:zlib';

/** One file of a zip archive, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; nothing else is read. */
  method: number;
  compressedSize: number;
  /** What the archive claims the file inflates to: a claim, never trusted as a bound. */
  declaredSize: number;
  /** Where the entry's local header starts. */
  headerOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end-of-directory record is the last 22 bytes, before a comment of at most 65535. */
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;

/** The archive cannot be read as a zip (or uses Zip64, which a 2 MB upload never needs). */
export class ZipUnreadable extends Error {}

/** Inflating went past the budget: the archive holds more than its caller accepts. */
export class ZipTooLarge extends Error {}

/** The entries of a zip's central directory, by name. Throws ZipUnreadable. */
export function zipEntries(zip: Buffer): Map<string, ZipEntry> {
  let end = -1;
  for (let i = zip.length - END_RECORD_SIZE; i >= Math.max(0, zip.length - END_RECORD_SIZE - MAX_COMMENT); i--) {
    if (zip.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipUnreadable('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new ZipUnreadable('broken central directory');
    const nameLength = zip.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (next > zip.length) throw new ZipUnreadable('broken central directory');
    const entry: ZipEntry = {
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      declaredSize: zip.readUInt32LE(at + 24),
      headerOffset: zip.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === 0xffffffff || entry.declaredSize === 0xffffffff || entry.headerOffset === 0xffffffff) {
      throw new ZipUnreadable('zip64');
    }
    entries.set(entry.name, entry);
    at = next;
  }
  return entries;
}

/** The bytes of an entry as stored (compressed), located through its local header. */
function storedBytes(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.headerOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER) throw new ZipUnreadable(`no local header for ${entry.name}`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > zip.length) throw new ZipUnreadable(`${entry.name} runs past the archive`);
  return zip.subarray(start, end);
}

/** Bytes that may still be inflated, shared by every entry read for one upload. */
export interface InflateBudget {
  left: number;
}

/**
 * An entry's content, chunk by chunk, as it inflates. Every chunk is counted against the budget
 * before it is handed on, and inflating stops (ZipTooLarge) the moment the count passes it: the
 * work done is bounded by the budget, whatever the archive claims. Chunks come as they are read,
 * so a caller that stops reading stops the inflating too.
 */
export async function* inflateEntry(zip: Buffer, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<Buffer> {
  const stored = storedBytes(zip, entry);
  const take = (chunk: Buffer) => {
    budget.left -= chunk.length;
    if (budget.left < 0) throw new ZipTooLarge(`${entry.name} inflates past the budget`);
    return chunk;
  };
  if (entry.method === 0) {
    yield take(stored);
    return;
  }
  if (entry.method !== 8) throw new ZipUnreadable(`${entry.name}: compression method ${entry.method}`);
  const inflate = createInflateRaw();
  inflate.end(stored);
  try {
    for await (const chunk of inflate) yield take(chunk as Buffer);
  } catch (e) {
    if (e instanceof ZipTooLarge) throw e;
    throw new ZipUnreadable(`${entry.name}: ${(e as Error).message}`);
  } finally {
    inflate.destroy();
  }
}
