import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
// s3rver (a local S3-compatible server, for tests only) ships no types.
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, objectPath, type Storage } from './storage';
import { S3Storage, s3FromUrl } from './storageS3';

interface Backend {
  name: string;
  open(): Promise<{ storage: Storage; close(): Promise<void> }>;
}

const tmp = () => fs.promises.mkdtemp(path.join(os.tmpdir(), 'hublink-storage-'));

const BACKENDS: Backend[] = [
  {
    name: 'local disk',
    async open() {
      const dir = await tmp();
      return { storage: new LocalStorage(dir), close: () => fs.promises.rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3-compatible (s3rver on localhost)',
    async open() {
      const dir = await tmp();
      const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'hublink-files' }] });
      const address = (await server.run()) as AddressInfo;
      const s3 = s3FromUrl(`http://S3RVER:S3RVER@127.0.0.1:${address.port}/hublink-files?region=us-east-1`);
      return {
        storage: new S3Storage(s3),
        close: async () => {
          s3.client.destroy();
          await server.close();
          await fs.promises.rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
];

describe('object keys', () => {
  it('keep every object inside its tenant', () => {
    expect(objectPath(3, 'tickets/12/a.png')).toBe('t3/tickets/12/a.png');
    for (const bad of ['', '../x', 'a/../../b', '/abs', 'a//b', '.hidden', 'a/./b', 'sp ace', 'x'.repeat(513), 'a\\b']) {
      expect(() => objectPath(3, bad), bad).toThrow('storage: bad key');
    }
    expect(() => objectPath(-1, 'a')).toThrow('storage: bad tenant');
  });
});

describe('S3_URL', () => {
  it('needs credentials and one bucket', () => {
    for (const bad of ['http://host/bucket', 'http://k:s@host/', 'ftp://k:s@host/b', 'http://k:s@host/a/b']) {
      expect(() => s3FromUrl(bad), bad).toThrow('S3_URL must look like');
    }
  });
});

for (const backend of BACKENDS) {
  describe(`storage: ${backend.name}`, () => {
    let storage: Storage;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, close } = await backend.open());
    });
    afterAll(() => close?.());

    it('puts, gets, streams, replaces and deletes an object', async () => {
      const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
      await storage.put(1, 'tickets/9/shot.png', body, 'image/png');
      expect(await storage.get(1, 'tickets/9/shot.png')).toEqual({ body, contentType: 'image/png' });

      const streamed = await storage.stream(1, 'tickets/9/shot.png');
      expect(streamed).toMatchObject({ contentType: 'image/png', size: body.length });
      const chunks: Buffer[] = [];
      for await (const c of streamed!.stream) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks)).toEqual(body);

      await storage.put(1, 'tickets/9/shot.png', Buffer.from('GIF89a'), 'image/gif');
      expect(await storage.get(1, 'tickets/9/shot.png')).toEqual({ body: Buffer.from('GIF89a'), contentType: 'image/gif' });

      await storage.delete(1, 'tickets/9/shot.png');
      expect(await storage.get(1, 'tickets/9/shot.png')).toBeNull();
      expect(await storage.stream(1, 'tickets/9/shot.png')).toBeNull();
      await storage.delete(1, 'tickets/9/shot.png');
    });

    it('keeps tenants apart: the same key of another tenant is another object', async () => {
      await storage.put(1, 'same.txt', Buffer.from('one'), 'text/plain');
      await storage.put(2, 'same.txt', Buffer.from('two'), 'text/plain');
      expect((await storage.get(1, 'same.txt'))?.body.toString()).toBe('one');
      expect((await storage.get(2, 'same.txt'))?.body.toString()).toBe('two');
      expect(await storage.get(3, 'same.txt')).toBeNull();
    });

    it('refuses a key that would leave the tenant’s folder, before touching anything', async () => {
      await expect(storage.put(1, '../2/same.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow('storage: bad key');
      await expect(storage.get(1, '../2/same.txt')).rejects.toThrow('storage: bad key');
      expect((await storage.get(2, 'same.txt'))?.body.toString()).toBe('two');
    });
  });
}
