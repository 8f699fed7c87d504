import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;

/** A built console as the web build leaves it: the page, a hashed chunk and its .br and .gz copies, a small chunk without copies. */
function builtConsole(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-console-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta charset="UTF-8" /></head><body><div id="root"></div></body></html>');
  const chunk = path.join(dir, 'assets', 'index-abc.js');
  fs.writeFileSync(chunk, SCRIPT);
  fs.writeFileSync(`${chunk}.br`, zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(`${chunk}.gz`, zlib.gzipSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'assets', 'small-def.js'), 'export {};');
  return dir;
}

describe('the built console', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = builtConsole();
    t = await createTestApp('sqlite', { config: { webDist } });
  });

  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends a chunk brotli-compressed, gzip-compressed or plain as the browser accepts, keyed on Accept-Encoding and cached for good', async () => {
    const cases = [
      { accept: 'gzip, deflate, br, zstd', encoding: 'br', decode: (b: Buffer) => zlib.brotliDecompressSync(b) },
      { accept: 'gzip, deflate', encoding: 'gzip', decode: (b: Buffer) => zlib.gunzipSync(b) },
      { accept: undefined, encoding: undefined, decode: (b: Buffer) => b },
      { accept: 'identity', encoding: undefined, decode: (b: Buffer) => b },
    ];
    for (const { accept, encoding, decode } of cases) {
      const res = await get('/assets/index-abc.js', accept);
      expect({ accept, status: res.statusCode, encoding: res.headers['content-encoding'] }).toEqual({ accept, status: 200, encoding });
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decode(res.rawPayload).toString()).toBe(SCRIPT);
    }
  });

  it('sends a chunk the build left no compressed copy of as it is', async () => {
    const res = await get('/assets/small-def.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};');
  });

  it('answers a chunk that is not there (an old tab after a deploy) with 404, not the page', async () => {
    for (const url of ['/assets/index-gone.js', '/assets/LoginPage-old.js?v=1', '/assets/nested/x.css']) {
      const res = await get(url, 'br, gzip');
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
      expect(res.headers['content-type']).not.toMatch(/text\/html/);
      expect(String(res.headers['cache-control'] ?? '')).not.toMatch(/immutable/);
    }
  });

  it('sends the page for any other path, revalidated on every load', async () => {
    for (const url of ['/login', '/assetsx', '/dashboard/assets/x.js']) {
      const res = await get(url, 'br, gzip');
      expect({ url, status: res.statusCode, type: res.headers['content-type'] }).toEqual({ url, status: 200, type: 'text/html; charset=utf-8' });
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<meta property="csp-nonce" nonce="');
    }
  });
});
