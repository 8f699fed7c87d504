import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers';
import { loadConfig } from '../config';
import { createSecretBox, loadSecretKey, SECRET_KEY_FILE } from './secretBox';
import { parseSecretKey, SecretKey } from './secretKey';

const dirs: string[] = [];
const tmpDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-secret-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const newKey = () => new SecretKey(randomBytes(32));

describe('secret box', () => {
  it('opens what it sealed, text and bytes, with a fresh IV each time', () => {
    const box = createSecretBox(newKey());
    const plain = '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n';
    const a = box.seal(plain, 'network_pki:1');
    const b = box.seal(plain, 'network_pki:1');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toEqual(b);
    expect(a).not.toContain('PRIVATE');
    expect(box.openText(a, 'network_pki:1')).toBe(plain);
    const bytes = randomBytes(100);
    expect(box.open(box.seal(bytes)).equals(bytes)).toBe(true);
  });

  it('refuses an altered value, another key, another context and an unknown format', () => {
    const key = newKey();
    const box = createSecretBox(key);
    const sealed = box.seal('secret', 'ctx');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const at of [0, 13, 30, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at]! ^= 0x01;
      expect(() => box.open(`v1.${bad.toString('base64url')}`, 'ctx'), `byte ${at}`).toThrow(/does not open/);
    }
    expect(() => box.open(`v1.${raw.subarray(0, 20).toString('base64url')}`, 'ctx')).toThrow(/truncated/);
    expect(() => createSecretBox(newKey()).open(sealed, 'ctx')).toThrow(/does not open/);
    expect(() => box.open(sealed, 'other')).toThrow(/does not open/);
    expect(() => box.open(sealed.replace(/^v1/, 'v9'), 'ctx')).toThrow(/unknown format/);
    expect(createSecretBox(new SecretKey(key.bytes())).openText(sealed, 'ctx')).toBe('secret');
  });

  it('makes a MAC that the same key, purpose and data always give, and nothing else does', () => {
    const key = newKey();
    const box = createSecretBox(key);
    const a = box.mac('ldap-domain', '1\nexample.com');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(box.mac('ldap-domain', '1\nexample.com')).toBe(a);
    expect(createSecretBox(new SecretKey(key.bytes())).mac('ldap-domain', '1\nexample.com')).toBe(a);
    expect(new Set([a, box.mac('ldap-domain', '2\nexample.com'), box.mac('other', '1\nexample.com'), createSecretBox(newKey()).mac('ldap-domain', '1\nexample.com')]).size).toBe(4);
  });
});

describe('HUBLINK_SECRET_KEY', () => {
  it('takes 32 bytes as hex or base64 and refuses any other length at start, without echoing it', () => {
    const bytes = randomBytes(32);
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')]) {
      expect(parseSecretKey(text, 'K').bytes().equals(bytes)).toBe(true);
    }
    const short = randomBytes(16).toString('base64');
    expect(() => loadConfig({ HUBLINK_SECRET_KEY: short })).toThrow(/HUBLINK_SECRET_KEY must be 32 bytes .*got 16 bytes/);
    expect(() => loadConfig({ HUBLINK_SECRET_KEY: 'not a key!' })).toThrow(/neither hex nor base64/);
    try {
      loadConfig({ HUBLINK_SECRET_KEY: short });
    } catch (e) {
      expect(String(e)).not.toContain(short);
    }
    const config = loadConfig({ HUBLINK_SECRET_KEY: bytes.toString('hex') });
    expect(config.secretKey!.bytes().equals(bytes)).toBe(true);
    const shown = `${JSON.stringify(config)} ${inspect(config)} ${String(config.secretKey)}`;
    expect(shown).not.toContain(bytes.toString('hex'));
    expect(shown).not.toContain(bytes.toString('base64'));
    expect(loadSecretKey(config)).toEqual({ key: config.secretKey, source: 'env' });
  });
});

describe('the key file in the data dir', () => {
  it('is created 0600 on first load and reused afterwards', () => {
    const dataDir = path.join(tmpDir(), 'data');
    const first = loadSecretKey({ dataDir });
    expect(first.source).toBe('created');
    const file = path.join(dataDir, SECRET_KEY_FILE);
    expect(first.file).toBe(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dataDir)).toEqual([SECRET_KEY_FILE]);

    const second = loadSecretKey({ dataDir });
    expect(second.source).toBe('file');
    expect(second.key.bytes().equals(first.key.bytes())).toBe(true);
    const sealed = createSecretBox(first.key).seal('kept across restarts');
    expect(createSecretBox(second.key).openText(sealed)).toBe('kept across restarts');
  });

  it('refuses a damaged key file instead of replacing it', () => {
    const dataDir = tmpDir();
    fs.writeFileSync(path.join(dataDir, SECRET_KEY_FILE), 'short\n');
    expect(() => loadSecretKey({ dataDir })).toThrow(/secret\.key must be 32 bytes/);
    expect(fs.readFileSync(path.join(dataDir, SECRET_KEY_FILE), 'utf8')).toBe('short\n');
  });
});

describe('an app', () => {
  it('makes its key file on first start and opens with the same key on the next', async () => {
    const dataDir = tmpDir();
    const first = await createTestApp('sqlite', { config: { dataDir } });
    let sealed: string;
    try {
      expect(fs.statSync(path.join(dataDir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
      sealed = first.app.ctx.secretBox.seal('across restarts', 'ctx');
    } finally {
      await first.close();
    }
    const second = await createTestApp('sqlite', { config: { dataDir } });
    try {
      expect(second.app.ctx.secretBox.openText(sealed, 'ctx')).toBe('across restarts');
    } finally {
      await second.close();
    }
  });
});
