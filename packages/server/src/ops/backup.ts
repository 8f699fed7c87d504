import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { SECRET_KEY_FILE } from '../core/secretBox';
import { connect } from '../db/connect';
import { appliedMigrations } from '../db/migrate';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  DATA_PREFIX,
  MANIFEST_ENTRY,
  SQLITE_FILE,
  hublinkVersion,
  isSafeRelativePath,
  sizeText,
  notesOf,
  type Manifest,
  type ManifestFile,
} from './backupFormat';
import { cliPath } from './files';
import { TarGzWriter } from './tarWriter';

/*
 * `hublink backup FILE`: one archive (ops/backupFormat.ts) of the data dir, with a consistent copy of
 * the SQLite database made by SQLite's online backup API on a read-only connection of its own, while
 * the server keeps running and writing. The archive is written beside FILE and renamed to it at the
 * end, so FILE is either the previous archive or the whole new one.
 */

export const BACKUP_USAGE = 'usage: hublink backup FILE   (writes a .tar.gz of the data dir, with a consistent copy of the SQLite database)';

export interface BackupIo {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 's3Url' | 'secretKey'>;
  out(line: string): void;
  err(line: string): void;
}

/** One step of the online backup copies every page: one read transaction, one snapshot (writers go on in WAL). */
const ALL_PAGES = 0x7fffffff;
/** A file that changes between its checksum and its copy makes the file pass start again, at most this often. */
const ATTEMPTS = 3;

class FileChanged extends Error {}

interface Skipped {
  path: string;
  why: string;
}

interface Source {
  /** Its path in the data dir (and, under data/, in the archive). */
  path: string;
  /** Where it is read from (the database: the copy made for this backup). */
  from: string;
}

/** Files of the data dir that are not copied: the live database (copied through SQLite instead), temporary files. */
function skipReason(rel: string, kind: 'sqlite' | 'postgres'): string | undefined {
  if (rel === SQLITE_FILE) return kind === 'postgres' ? 'this install keeps its database in PostgreSQL' : 'copied through the online backup';
  if (/^hublink\.sqlite-(wal|shm|journal)$/.test(rel)) return 'part of the live database; the copy is one consistent file';
  if (rel.startsWith('storage/tmp/')) return 'temporary';
  if (/^\.secret\.key\..*\.tmp$/.test(rel)) return 'temporary';
  return undefined;
}

/** The data dir's regular files (sorted), and what was left out and why; `exclude` are absolute paths left out silently. */
function dataFiles(dataDir: string, kind: 'sqlite' | 'postgres', exclude: string[]): { files: string[]; skipped: Skipped[] } {
  const files: string[] = [];
  const skipped: Skipped[] = [];
  const walk = (rel: string) => {
    const entries = fs.readdirSync(path.join(dataDir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      const abs = path.join(dataDir, child);
      if (exclude.some((x) => abs === x || abs.startsWith(`${x}${path.sep}`))) continue;
      if (entry.isDirectory()) {
        if (child === 'storage/tmp') skipped.push({ path: `${child}/`, why: 'temporary' });
        else walk(child);
        continue;
      }
      const reason = skipReason(child, kind);
      if (reason) {
        if (!(child === SQLITE_FILE && kind === 'sqlite') && !/^hublink\.sqlite-/.test(child)) skipped.push({ path: child, why: reason });
      } else if (!entry.isFile()) skipped.push({ path: child, why: entry.isSymbolicLink() ? 'a symbolic link' : 'not a regular file' });
      else if (!isSafeRelativePath(child)) skipped.push({ path: JSON.stringify(child), why: 'a name the archive cannot hold' });
      else files.push(child);
    }
  };
  walk('');
  return { files, skipped };
}

async function checksum(file: string): Promise<{ size: number; sha256: string } | undefined> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // removed meanwhile (a deleted upload)
    throw e;
  }
  return { size, sha256: hash.digest('hex') };
}

/** The database file copied by the online backup API into `dest`; answers the migrations it holds. */
async function copySqlite(source: string, dest: string): Promise<string[]> {
  const live = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(dest, { progress: () => ALL_PAGES });
  } finally {
    live.close();
  }
  const copy = new SQLite(dest, { fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy of the database fails SQLite's quick_check: ${String(check)}`);
    const hasTable = copy.prepare(`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`).get();
    return hasTable ? (copy.prepare('select name from kysely_migration order by name').pluck().all() as string[]) : [];
  } finally {
    copy.close();
  }
}

/** The migrations of the PostgreSQL database (in the connection's current schema). */
async function postgresMigrations(databaseUrl: string, dataDir: string): Promise<string[]> {
  const handle = connect({ databaseUrl, dataDir, poolSize: 1 });
  try {
    return await appliedMigrations(handle.db as unknown as Kysely<unknown>).catch(() => []);
  } finally {
    await handle.close();
  }
}

/** One pass over the files: checksums into the manifest, then the archive with every file checked again as it is copied. */
async function writeArchive(archive: string, base: Omit<Manifest, 'files'>, sources: Source[]): Promise<Manifest> {
  const files: ManifestFile[] = [];
  const kept: Source[] = [];
  for (const s of sources) {
    const sum = await checksum(s.from);
    if (sum) {
      files.push({ path: s.path, ...sum });
      kept.push(s);
    }
  }
  const manifest: Manifest = { ...base, files };
  fs.rmSync(archive, { force: true });
  const tar = new TarGzWriter(archive, new Date(manifest.created));
  try {
    await tar.addBuffer(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    for (const [i, s] of kept.entries()) {
      const expected = files[i]!;
      const changed = () => new FileChanged(`${s.path} changed while the backup read it`);
      const hash = createHash('sha256');
      let stream: fs.ReadStream;
      try {
        const fd = fs.openSync(s.from, 'r');
        stream = fs.createReadStream('', { fd });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw changed();
        throw e;
      }
      async function* hashed() {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          hash.update(chunk);
          yield chunk;
        }
      }
      await tar.addStream(`${DATA_PREFIX}${s.path}`, expected.size, hashed(), changed);
      if (hash.digest('hex') !== expected.sha256) throw changed();
    }
    await tar.finish();
  } catch (e) {
    await tar.abort();
    throw e;
  }
  return manifest;
}

function fsyncDir(dir: string) {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export async function runBackup(args: string[], io: BackupIo): Promise<number> {
  let target: string;
  try {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw new Error('one FILE, please');
    target = cliPath(positionals[0]!);
  } catch {
    io.err(BACKUP_USAGE);
    return 2;
  }
  const { dataDir } = io.config;
  const kind = io.config.databaseUrl ? 'postgres' : 'sqlite';
  if (!fs.statSync(dataDir, { throwIfNoEntry: false })?.isDirectory()) {
    io.err(`backup refused: no data dir at ${dataDir} (HUBLINK_DATA_DIR)`);
    return 1;
  }
  const liveDb = path.join(dataDir, SQLITE_FILE);
  if (kind === 'sqlite' && !fs.existsSync(liveDb)) {
    io.err(`backup refused: no database at ${liveDb} (has HubLink run with this data dir?)`);
    return 1;
  }
  const folder = path.dirname(target);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    io.err(`backup refused: no folder ${folder} to write ${path.basename(target)} in`);
    return 1;
  }
  if (fs.statSync(target, { throwIfNoEntry: false })?.isDirectory()) {
    io.err(`backup refused: ${target} is a folder; name the archive file`);
    return 1;
  }

  const work = fs.mkdtempSync(path.join(folder, '.hublink-backup-'));
  try {
    const copy = path.join(work, SQLITE_FILE);
    const migrations = kind === 'sqlite' ? await copySqlite(liveDb, copy) : await postgresMigrations(io.config.databaseUrl!, dataDir);
    const secretKey = io.config.secretKey ? 'environment' : fs.existsSync(path.join(dataDir, SECRET_KEY_FILE)) ? 'file' : 'none';
    const base: Omit<Manifest, 'files'> = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      created: new Date().toISOString(),
      hublink: hublinkVersion(),
      database: { kind, migrations },
      secretKey,
      storage: io.config.s3Url ? 's3' : 'local',
    };
    const archive = path.join(work, 'archive.tar.gz');
    let manifest: Manifest | undefined;
    let skipped: Skipped[] = [];
    for (let attempt = 1; !manifest; attempt++) {
      const listed = dataFiles(dataDir, kind, [work, target]);
      skipped = listed.skipped;
      const sources: Source[] = [
        ...(kind === 'sqlite' ? [{ path: SQLITE_FILE, from: copy }] : []),
        ...listed.files.map((f) => ({ path: f, from: path.join(dataDir, f) })),
      ];
      try {
        manifest = await writeArchive(archive, base, sources);
      } catch (e) {
        if (!(e instanceof FileChanged) || attempt >= ATTEMPTS) throw e;
      }
    }
    fs.renameSync(archive, target);
    fsyncDir(folder);

    const bytes = fs.statSync(target).size;
    io.out(
      `backup written to ${target}: ${manifest.files.length} files, ${sizeText(bytes)} (database: ${kind}, ${migrations.length} migrations; secret key: ${secretKey})`,
    );
    for (const note of notesOf(manifest, 'backup')) io.out(`note: ${note}`);
    if (secretKey === 'none') io.out('note: the data dir has no secret.key yet (the server makes one when it first starts)');
    for (const s of skipped) io.out(`skipped ${s.path}: ${s.why}`);
    return 0;
  } catch (e) {
    io.err(`backup failed: ${(e as Error).message}`);
    return 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
