import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Files of tenants (ticket attachments, certificates, client packages …): every object belongs to one
 * tenant (0 for the service's own), and a key is a relative path of plain names. Two backends: the
 * local disk under HUBLINK_DATA_DIR and any S3-compatible service (core/storageS3.ts).
 */
export interface Storage {
  put(tenantId: number, key: string, body: Buffer, contentType: string): Promise<void>;
  /** The whole object, or null when there is none. */
  get(tenantId: number, key: string): Promise<StoredObject | null>;
  /** The object as a stream (large files), or null when there is none. */
  stream(tenantId: number, key: string): Promise<StoredStream | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(tenantId: number, key: string): Promise<void>;
}

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface StoredStream {
  stream: Readable;
  contentType: string;
  size: number;
}

const KEY_MAX = 512;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** 't<tenant>/<key>': refuses a key that could leave its tenant's folder (.., absolute, empty parts). */
export function objectPath(tenantId: number, key: string): string {
  if (!Number.isSafeInteger(tenantId) || tenantId < 0) throw new Error(`storage: bad tenant ${tenantId}`);
  if (key.length === 0 || key.length > KEY_MAX || !key.split('/').every((part) => NAME.test(part))) {
    throw new Error(`storage: bad key ${JSON.stringify(key)}`);
  }
  return `t${tenantId}/${key}`;
}

const DEFAULT_TYPE = 'application/octet-stream';

/**
 * Objects as files under root/objects, their content type beside them under root/meta. A put writes
 * to a temporary file and renames it, so a reader sees the old object or the new one, never half.
 */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private files(tenantId: number, key: string) {
    const rel = objectPath(tenantId, key);
    return { object: path.join(this.root, 'objects', rel), meta: path.join(this.root, 'meta', `${rel}.json`) };
  }

  private async writeAtomically(file: string, body: Buffer | string) {
    const tmpDir = path.join(this.root, 'tmp');
    await fs.promises.mkdir(tmpDir, { recursive: true });
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = path.join(tmpDir, randomBytes(12).toString('hex'));
    await fs.promises.writeFile(tmp, body);
    await fs.promises.rename(tmp, file);
  }

  async put(tenantId: number, key: string, body: Buffer, contentType: string) {
    const { object, meta } = this.files(tenantId, key);
    await this.writeAtomically(meta, JSON.stringify({ contentType }));
    await this.writeAtomically(object, body);
  }

  private async typeOf(meta: string): Promise<string> {
    try {
      const parsed = JSON.parse(await fs.promises.readFile(meta, 'utf8')) as { contentType?: unknown };
      return typeof parsed.contentType === 'string' ? parsed.contentType : DEFAULT_TYPE;
    } catch {
      return DEFAULT_TYPE;
    }
  }

  async get(tenantId: number, key: string): Promise<StoredObject | null> {
    const { object, meta } = this.files(tenantId, key);
    try {
      const body = await fs.promises.readFile(object);
      return { body, contentType: await this.typeOf(meta) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async stream(tenantId: number, key: string): Promise<StoredStream | null> {
    const { object, meta } = this.files(tenantId, key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(object, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    const { size } = await handle.stat();
    return { stream: handle.createReadStream(), contentType: await this.typeOf(meta), size };
  }

  async delete(tenantId: number, key: string) {
    const { object, meta } = this.files(tenantId, key);
    await fs.promises.rm(object, { force: true });
    await fs.promises.rm(meta, { force: true });
  }
}
