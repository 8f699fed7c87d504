import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { SECRET_KEY_FILE } from '../core/secretBox';
import { ARCHIVE_VERSION, DATA_PREFIX, MANIFEST_ENTRY, MANIFEST_MAX_BYTES, SQLITE_FILE, sizeText, manifestSchema, notesOf, type Manifest, type ManifestFile } from './backupFormat';
import { cliPath } from './files';

/*
 * `hublink restore FILE --data-dir DIR`: the archive of `hublink backup` into an empty or new DIR. The
 * archive is read twice: first only to check it (the manifest, every entry's name, type, size and
 * sha256; nothing is written), then to write it into a folder of its own, checked again, which takes
 * DIR's place at the end. A refused or failed restore leaves DIR as it was.
 */

export const RESTORE_USAGE = 'usage: hublink restore FILE --data-dir DIR   (DIR must be empty or not exist)';

export interface RestoreIo {
  out(line: string): void;
  err(line: string): void;
}

/** The archive is not one this HubLink restores; the message says why. */
export class ArchiveRefused extends Error {}

/** Per entry: tar's header (and a pax header of up to ~2 KB) and the padding of the last block. */
const ENTRY_OVERHEAD = 8 * 512;
/** The end-of-archive blocks and the padding some tar writers add to a 10 KB record, with room to spare. */
const TRAILER = 64 * 1024;
const TAR_START = Buffer.from(`${MANIFEST_ENTRY}\0`);

interface Writing {
  fd: number;
}

/**
 * Reads the archive once; with `into`, writes each file under it (folders 0700, files 0600). Bounded
 * by the bytes that really come out of gunzip: at most the manifest's sizes plus tar's overhead, never
 * what a header claims.
 */
async function readArchive(file: string, into?: string): Promise<Manifest> {
  const parser = new Parser({ strict: true });
  let failure: Error | undefined;
  const fail = (e: Error) => {
    failure ??= e;
  };
  // tar's own complaints (strict: every warning is one) are about the archive.
  parser.on('error', (e: Error) => fail(new ArchiveRefused(e.message)));

  let manifest: Manifest | undefined;
  let manifestBytes = 0;
  const expected = new Map<string, ManifestFile>();
  const seen = new Set<string>();
  let first = true;

  const onManifest = (entry: ReadEntry) => {
    if (entry.size > MANIFEST_MAX_BYTES) return fail(new ArchiveRefused('its manifest is too large'));
    const chunks: Buffer[] = [];
    entry.on('data', (c: Buffer) => {
      manifestBytes += c.length;
      if (manifestBytes <= MANIFEST_MAX_BYTES) chunks.push(c);
    });
    entry.on('end', () => {
      try {
        const parsed = manifestSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        if (!parsed.success) return fail(new ArchiveRefused(`its manifest is not a HubLink backup's: ${parsed.error.issues[0]?.message ?? ''}`));
        if (parsed.data.version > ARCHIVE_VERSION) return fail(new ArchiveRefused(`it is format ${parsed.data.version}, written by a newer HubLink (${parsed.data.hublink})`));
        for (const f of parsed.data.files) {
          if (expected.has(f.path)) return fail(new ArchiveRefused(`its manifest lists ${f.path} twice`));
          expected.set(f.path, f);
        }
        if (parsed.data.database.kind === 'sqlite' && !expected.has(SQLITE_FILE)) return fail(new ArchiveRefused('it has no database'));
        manifest = parsed.data;
      } catch {
        fail(new ArchiveRefused('its manifest is not JSON'));
      }
    });
  };

  const onFile = (entry: ReadEntry) => {
    const name = entry.path.startsWith(DATA_PREFIX) ? entry.path.slice(DATA_PREFIX.length) : undefined;
    const want = name === undefined ? undefined : expected.get(name);
    if (!want || name === undefined) return fail(new ArchiveRefused(`${JSON.stringify(entry.path)} is not in its manifest`));
    if (seen.has(name)) return fail(new ArchiveRefused(`${name} is in it twice`));
    seen.add(name);
    if (entry.size !== want.size) return fail(new ArchiveRefused(`${name} has ${entry.size} bytes, its manifest says ${want.size}`));
    const hash: Hash = createHash('sha256');
    let size = 0;
    let out: Writing | undefined;
    if (into) {
      const dest = path.join(into, ...name.split('/'));
      fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
      out = { fd: fs.openSync(dest, 'wx', 0o600) };
    }
    entry.on('data', (c: Buffer) => {
      size += c.length;
      hash.update(c);
      if (out && !failure) fs.writeSync(out.fd, c);
    });
    entry.on('end', () => {
      if (out) {
        fs.fsyncSync(out.fd);
        fs.closeSync(out.fd);
      }
      if (size !== want.size) fail(new ArchiveRefused(`${name} is cut short`));
      else if (hash.digest('hex') !== want.sha256) fail(new ArchiveRefused(`${name} does not match its checksum`));
    });
  };

  parser.on('entry', (entry: ReadEntry) => {
    const isFirst = first;
    first = false;
    if (failure) return entry.resume();
    if (entry.type !== 'File') fail(new ArchiveRefused(`${JSON.stringify(entry.path)} is a ${entry.type}, not a file`));
    else if (isFirst) {
      if (entry.path === MANIFEST_ENTRY) onManifest(entry);
      else fail(new ArchiveRefused(`it does not start with ${MANIFEST_ENTRY}`));
    } else if (!manifest) fail(new ArchiveRefused('its manifest is missing'));
    else {
      try {
        onFile(entry);
      } catch (e) {
        fail(e as Error);
      }
    }
    if (failure) entry.resume();
  });

  let total = 0;
  try {
    await pipeline(fs.createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        if (total === 0 && !chunk.subarray(0, TAR_START.length).equals(TAR_START)) fail(new ArchiveRefused(`it does not start with ${MANIFEST_ENTRY}`));
        total += chunk.length;
        const m = manifest as Manifest | undefined;
        const bound = m
          ? manifestBytes + m.files.reduce((sum, f) => sum + f.size, 0) + ENTRY_OVERHEAD * (m.files.length + 1) + TRAILER
          : MANIFEST_MAX_BYTES + ENTRY_OVERHEAD + TRAILER;
        if (total > bound) fail(new ArchiveRefused('it holds more than its manifest lists'));
        try {
          if (!failure) parser.write(chunk);
        } catch (e) {
          fail(e as Error);
        }
        if (failure) throw failure;
      }
      try {
        parser.end();
      } catch (e) {
        fail(e as Error);
      }
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new ArchiveRefused(`it is damaged (${(e as Error).message})`);
    // What stopped the loop is in `failure`; the stream may report only the abort that followed.
    if (failure) throw failure;
    throw e;
  }
  if (failure) throw failure;
  if (!manifest) throw new ArchiveRefused('it is empty');
  const missing = [...expected.keys()].filter((p) => !seen.has(p));
  if (missing.length) throw new ArchiveRefused(`it lacks ${missing.length} of its manifest's files (${missing.slice(0, 3).join(', ')})`);
  return manifest;
}

/** Nothing in it (a missing folder is empty too); a file where the folder should be is refused. */
function isEmptyFolder(dir: string): boolean | 'not a folder' {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (!stat) return true;
  if (!stat.isDirectory()) return 'not a folder';
  return fs.readdirSync(dir).length === 0;
}

/** The staged folder takes DIR's place: renamed to it when DIR does not exist, else its contents moved into the empty DIR. */
function putInPlace(stage: string, target: string) {
  if (!fs.existsSync(target)) {
    fs.renameSync(stage, target);
    return;
  }
  // DIR exists and was empty: it may be a mount point (a volume), which a rename cannot replace.
  const others = fs.readdirSync(target).filter((n) => n !== path.basename(stage));
  if (others.length) throw new Error(`${target} is no longer empty`);
  for (const name of fs.readdirSync(stage)) fs.renameSync(path.join(stage, name), path.join(target, name));
  fs.rmdirSync(stage);
}

export async function runRestore(args: string[], io: RestoreIo): Promise<number> {
  let archive: string;
  let target: string;
  try {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' } } });
    if (positionals.length !== 1 || !values['data-dir']) throw new Error('FILE and --data-dir DIR, please');
    archive = cliPath(positionals[0]!);
    target = cliPath(values['data-dir']);
  } catch {
    io.err(RESTORE_USAGE);
    return 2;
  }
  const empty = isEmptyFolder(target);
  if (empty !== true) {
    io.err(`restore refused: ${target} is ${empty === false ? 'not empty' : 'not a folder'}; restore into an empty or new folder`);
    return 1;
  }
  if (!fs.statSync(archive, { throwIfNoEntry: false })?.isFile()) {
    io.err(`restore refused: no archive file at ${archive}`);
    return 1;
  }

  let manifest: Manifest;
  try {
    manifest = await readArchive(archive);
  } catch (e) {
    io.err(e instanceof ArchiveRefused ? `restore refused: ${archive}: ${e.message}` : `restore failed: ${(e as Error).message}`);
    return 1;
  }

  const exists = fs.existsSync(target);
  const parent = path.dirname(target);
  let stage: string | undefined;
  try {
    if (!exists) fs.mkdirSync(parent, { recursive: true });
    stage = exists ? fs.mkdtempSync(path.join(target, '.hublink-restore-')) : fs.mkdtempSync(path.join(parent, `.${path.basename(target)}.restore-`));
    // Read and checked again as it is written: the file may have changed since the first pass.
    const written = await readArchive(archive, stage);
    if (JSON.stringify(written) !== JSON.stringify(manifest)) throw new ArchiveRefused('it changed while it was restored');
    const key = path.join(stage, SECRET_KEY_FILE);
    if (fs.existsSync(key)) fs.chmodSync(key, 0o600);
    putInPlace(stage, target);
    stage = undefined;
  } catch (e) {
    io.err(e instanceof ArchiveRefused ? `restore refused: ${archive}: ${e.message}` : `restore failed: ${(e as Error).message}`);
    return 1;
  } finally {
    if (stage) fs.rmSync(stage, { recursive: true, force: true });
  }

  const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0);
  io.out(
    `restored ${manifest.files.length} files, ${sizeText(bytes)} into ${target} (backup of ${manifest.created}, HubLink ${manifest.hublink}, database: ${manifest.database.kind}, ${manifest.database.migrations.length} migrations)`,
  );
  for (const note of notesOf(manifest, 'restore')) io.out(`note: ${note}`);
  io.out(`start HubLink on it with HUBLINK_DATA_DIR=${target}, as the user the server runs as (it owns the files)`);
  return 0;
}
