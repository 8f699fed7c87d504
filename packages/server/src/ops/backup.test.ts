import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { create as tarCreate, list as tarList, type ReadEntry } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../core/storage';
import { call, databaseFor, freePort, request, runCli, serverEnv, signIn, startServer as startOn, upload, type ServerProcess } from '../../test/serverProcess';
import { until } from '../../test/until';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type Manifest } from './backupFormat';
import { runBackup } from './backup';
import { runRestore } from './restore';
import { TarGzWriter } from './tarWriter';

/*
 * `hublink backup` and `hublink restore` as an operator runs them: a backup taken while a writer keeps
 * adding members through the API holds every write acknowledged before the backup began, and a server
 * started on the restored copy shows them; broken or hostile archives are refused and write nothing.
 */

const PASSWORD = 'Passw0rd2026';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a backed-up image')]);

/** The manifest of an archive, read with the tar package. */
async function manifestOf(file: string): Promise<{ manifest: Manifest; entries: string[] }> {
  const entries: string[] = [];
  let text = '';
  await tarList({
    file,
    onReadEntry: (e: ReadEntry) => {
      entries.push(e.path);
      if (e.path === 'manifest.json') e.on('data', (c: Buffer) => (text += c.toString('utf8')));
    },
  });
  return { manifest: JSON.parse(text) as Manifest, entries };
}

const lines = (text: string) => text.split('\n').filter(Boolean);

/** `hublink start` with `env`, on its PORT. */
const startServer = (env: NodeJS.ProcessEnv) => startOn(env, Number(env.PORT));

describe('backup while the server writes, restore, start on the copy (SQLite)', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess | undefined;
  let restored: ServerProcess | undefined;
  let imageId: string;
  const archive = () => path.join(root, 'hublink-backup.tar.gz');

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-backup-'));
    env = serverEnv(path.join(root, 'data'), await freePort());
    for (const args of [
      ['ops', 'tenants', 'create', '--username', 'backup01', '--nickname', 'backup', '--password', PASSWORD, '--phone', '13800000079'],
      ['ops', 'tenants', 'plan', 'backup01', '--network-router-count', '100000'],
    ]) {
      const r = await runCli(env, args);
      expect(r.code, r.stderr).toBe(0);
    }
    server = await startServer(env);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await restored?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('holds every write acknowledged before the backup began, and a server on the restored copy shows them', async () => {
    const port = server!.port;
    const token = await signIn(port, 'backup01', PASSWORD);
    const image = await upload<{ file_id: string }>(port, '/api/v1/ticket/upload_file', token, { filename: 'shot.png', body: PNG, contentType: 'image/png' });
    expect(image.code, image.msg).toBe(200);
    imageId = image.data!.file_id;

    const sent: string[] = [];
    const acked: { name: string; at: number }[] = [];
    const refused: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const name = `bk${String(i).padStart(5, '0')}`;
        sent.push(name);
        const a = await call(port, 'POST', '/api/v1/router/add', { token, body: { router_type: 2, username: name, password: PASSWORD, area_code: '86', note: '' } });
        if (a.code === 200) acked.push({ name, at: Date.now() });
        else refused.push(`${name}: ${a.code} ${a.msg}`);
      }
    })();
    await until(() => acked.length >= 10 || refused.length > 0, 'the writer under way', 60_000);

    const began = Date.now();
    const backup = await runCli(env, ['backup', archive()]);
    const ended = Date.now();
    // One more write after the backup's end, so writes ran all through it.
    await until(() => acked.some((a) => a.at > ended) || refused.length > 0, 'a write after the backup', 60_000);
    writing = false;
    await writer;

    expect(refused).toEqual([]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`backup written to ${archive()}`);
    expect(backup.stdout).toContain('secret key: file');
    const during = acked.filter((a) => a.at > began && a.at < ended);
    expect(during.length).toBeGreaterThan(0);
    const before = acked.filter((a) => a.at < began).map((a) => a.name);
    expect(fs.statSync(archive()).mode & 0o777).toBe(0o600);

    const { manifest, entries } = await manifestOf(archive());
    expect(entries[0]).toBe('manifest.json');
    expect(manifest).toMatchObject({ format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, secretKey: 'file', storage: 'local', database: { kind: 'sqlite' } });
    expect(manifest.database.migrations).toContain('0001_foundation');
    const names = manifest.files.map((f) => f.path);
    expect(names).toContain('hublink.sqlite');
    expect(names).toContain('secret.key');
    expect(names.some((n) => n.startsWith('storage/objects/') && n.includes('/ticket/'))).toBe(true);
    expect(names.filter((n) => /-wal$|-shm$|\.tmp$|^storage\/tmp\//.test(n))).toEqual([]);
    expect(entries.slice(1)).toEqual(names.map((n) => `data/${n}`));

    await server!.stop();
    server = undefined;
    const dir = path.join(root, 'restored', 'data');
    const restore = await runCli(env, ['restore', archive(), '--data-dir', dir]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`into ${dir}`);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(dir))).toEqual(['data']);

    restored = await startServer({ ...env, HUBLINK_DATA_DIR: dir, PORT: String(await freePort()) });
    const again = await signIn(restored.port, 'backup01', PASSWORD);
    const found: string[] = [];
    for (let page = 1; ; page++) {
      const list = await call<{ router_name: string }[]>(restored.port, 'GET', `/api/v1/router/lists?type=2&page=${page}&limit=100`, { token: again });
      expect(list.code).toBe(200);
      found.push(...list.data!.map((m) => m.router_name));
      if (list.data!.length < 100) break;
    }
    expect(before.filter((n) => !found.includes(n))).toEqual([]);
    expect(found.filter((n) => !sent.includes(n))).toEqual([]);
    // The upload came back too, through the API, with the same bytes (and the same secret key opened the data).
    const file = await request(restored.port, 'GET', `/api/v1/ticket/file?file_id=${imageId}`, { headers: { authorization: `Bearer ${again}` } });
    expect(file.status).toBe(200);
    expect(file.body.equals(PNG)).toBe(true);
  }, 240_000);

  it('refuses to restore into a folder that is not empty, and leaves it as it was', async () => {
    const dir = path.join(root, 'busy');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'mine');
    const r = await runCli(env, ['restore', archive(), '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([`restore refused: ${dir} is not empty; restore into an empty or new folder`]);
    expect(fs.readdirSync(dir)).toEqual(['keep.txt']);
  }, 60_000);

  it('refuses a damaged archive (one byte flipped) and writes nothing', async () => {
    const bad = path.join(root, 'bad.tar.gz');
    const bytes = fs.readFileSync(archive());
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    fs.writeFileSync(bad, bytes);
    const parent = path.join(root, 'damaged');
    fs.mkdirSync(parent);
    const err: string[] = [];
    expect(await runRestore([bad, '--data-dir', path.join(parent, 'data')], { out: () => {}, err: (l) => err.push(l) })).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^restore refused: .*bad\.tar\.gz: /);
    expect(fs.readdirSync(parent)).toEqual([]);
  }, 60_000);

  it('answers bad usage with exit 2', async () => {
    const io = { config: { dataDir: root }, out: () => {}, err: () => {} };
    expect(await runRestore([archive()], io)).toBe(2);
    expect(await runRestore([archive(), '--data-dir'], io)).toBe(2);
    expect(await runBackup([], io)).toBe(2);
    expect(await runBackup(['a.tgz', 'b.tgz'], io)).toBe(2);
    expect(await runBackup(['--force', 'a.tgz'], io)).toBe(2);
  });
});

describe('restore refuses hostile archives before it writes anything', () => {
  let root: string;
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
  };
  const manifest = (files: Manifest['files']): Manifest => ({
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    created: new Date().toISOString(),
    hublink: 'test',
    database: { kind: 'postgres', migrations: [] },
    secretKey: 'none',
    storage: 'local',
    files,
  });
  /** An archive of `entries` in order, written as `hublink backup` writes one. */
  async function craft(name: string, entries: [string, Buffer][]) {
    const file = path.join(root, name);
    const tar = new TarGzWriter(file, new Date());
    for (const [entry, body] of entries) await tar.addBuffer(entry, body);
    await tar.finish();
    return file;
  }
  const json = (m: unknown) => Buffer.from(JSON.stringify(m));
  async function refused(file: string, why: RegExp) {
    const target = path.join(root, `target-${path.basename(file)}`);
    const r = io();
    expect(await runRestore([file, '--data-dir', target], r.io)).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(why);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(root).filter((n) => n.includes('restore'))).toEqual([]);
  }

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-hostile-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('refuses a path that leaves the data dir, in the manifest or in the tar', async () => {
    const body = Buffer.from('x');
    const sha = 'a'.repeat(64);
    await refused(await craft('m-dotdot.tgz', [['manifest.json', json(manifest([{ path: '../evil', size: 1, sha256: sha }]))]]), /manifest is not a HubLink backup's/);
    await refused(await craft('m-abs.tgz', [['manifest.json', json(manifest([{ path: '/etc/evil', size: 1, sha256: sha }]))]]), /manifest is not a HubLink backup's/);
    await refused(
      await craft('t-dotdot.tgz', [
        ['manifest.json', json(manifest([]))],
        ['data/../evil', body],
      ]),
      /"data\/\.\.\/evil" is not in its manifest/,
    );
    await refused(
      await craft('t-abs.tgz', [
        ['manifest.json', json(manifest([]))],
        ['/tmp/evil', body],
      ]),
      /is not in its manifest/,
    );
  });

  it('refuses links and folders', async () => {
    const staging = path.join(root, 'staging');
    fs.mkdirSync(path.join(staging, 'data'), { recursive: true });
    fs.writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest([])));
    fs.symlinkSync('/etc/passwd', path.join(staging, 'data', 'link'));
    const linked = path.join(root, 'link.tgz');
    await tarCreate({ gzip: true, file: linked, cwd: staging, portable: true }, ['manifest.json', 'data/link']);
    await refused(linked, /"data\/link" is a SymbolicLink, not a file/);
    const folder = path.join(root, 'folder.tgz');
    await tarCreate({ gzip: true, file: folder, cwd: staging, portable: true }, ['manifest.json', 'data']);
    await refused(folder, /"data\/" is a Directory, not a file/);
  });

  it('refuses an archive that holds more than its manifest lists, by the bytes that come out', async () => {
    const file = await craft('pad.tgz', [['manifest.json', json(manifest([]))]]);
    // A megabyte of zeros after the end: gzip makes it tiny, its tar headers claim nothing.
    const padded = path.join(root, 'padded.tgz');
    fs.writeFileSync(padded, gzipSync(Buffer.concat([gunzipSync(fs.readFileSync(file)), Buffer.alloc(1024 * 1024)])));
    await refused(padded, /holds more than its manifest lists/);
  });

  it('refuses a file whose size or checksum is not its manifest\'s, and one that is missing', async () => {
    const body = Buffer.from('secret');
    const sha = createHash('sha256').update(body).digest('hex');
    const listed = manifest([{ path: 'secret.key', size: body.length, sha256: sha }]);
    await refused(
      await craft('size.tgz', [
        ['manifest.json', json(listed)],
        ['data/secret.key', Buffer.from('secret and more')],
      ]),
      /secret\.key has 15 bytes, its manifest says 6/,
    );
    await refused(
      await craft('sum.tgz', [
        ['manifest.json', json(listed)],
        ['data/secret.key', Buffer.from('SECRET')],
      ]),
      /secret\.key does not match its checksum/,
    );
    await refused(await craft('missing.tgz', [['manifest.json', json(listed)]]), /lacks 1 of its manifest's files \(secret\.key\)/);
    await refused(await craft('late.tgz', [['data/secret.key', body]]), /does not start with manifest\.json/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('backup of an install on PostgreSQL', () => {
  let root: string;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-backup-pg-'));
  });
  afterAll(async () => {
    await drop?.();
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('archives the data dir and no database, and says the database needs pg_dump', async () => {
    const dataDir = path.join(root, 'data');
    const database = await databaseFor('postgres', dataDir, 'hublink_backup');
    drop = database.drop;
    const env = serverEnv(dataDir, 0, database.env);
    const made = await runCli(env, ['ops', 'tenants', 'create', '--username', 'backup02', '--nickname', 'backup', '--password', PASSWORD, '--phone', '13800000080']);
    expect(made.code, made.stderr).toBe(0);
    await new LocalStorage(path.join(dataDir, 'storage')).put(1, 'ticket/kept', PNG, 'image/png');

    const file = path.join(root, 'pg.tar.gz');
    const backup = await runCli(env, ['backup', file]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('database: postgres');
    expect(backup.stdout).toContain('pg_dump -Fc');
    const { manifest } = await manifestOf(file);
    expect(manifest.database.kind).toBe('postgres');
    expect(manifest.database.migrations).toContain('0001_foundation');
    expect(manifest.files.map((f) => f.path).sort()).toEqual(['secret.key', 'storage/meta/t1/ticket/kept.json', 'storage/objects/t1/ticket/kept']);

    const dir = path.join(root, 'restored');
    const restore = await runCli(env, ['restore', file, '--data-dir', dir]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('pg_restore');
    expect(fs.readFileSync(path.join(dir, 'storage/objects/t1/ticket/kept')).equals(PNG)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'hublink.sqlite'))).toBe(false);
  }, 120_000);
});
