import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { parseSecretKey, SECRET_KEY_BYTES, type SecretKey } from './secretKey';

/**
 * Secrets at rest (the PKI's private keys): AES-256-GCM under one 32-byte key. A sealed value is text,
 * `v1.<base64url of iv(12) | tag(16) | ciphertext>`; the version prefix lets the format change later
 * (another cipher, a rotated key) while old rows still open. A context (for example the row a key
 * belongs to) is bound in as associated data, so a sealed value copied into another row does not open.
 */
export interface SecretBox {
  seal(plain: string | Buffer, context?: string): string;
  /** The plaintext; throws when the value was altered, sealed under another key or another context. */
  open(sealed: string, context?: string): Buffer;
  openText(sealed: string, context?: string): string;
  /**
   * A value only this key makes from `data`, the same every time (64 hex digits): HMAC-SHA256 under a
   * key derived from the secret key for `purpose` alone (HKDF), so two purposes never share a value
   * and no value says anything of the key that seals.
   */
  mac(purpose: string, data: string): string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

export function createSecretBox(key: SecretKey): SecretBox {
  const bytes = key.bytes();
  const aad = (context: string | undefined) => Buffer.from(`hublink:${context ?? ''}`, 'utf8');
  const macKeys = new Map<string, Buffer>();
  const macKey = (purpose: string) => {
    let k = macKeys.get(purpose);
    if (!k) macKeys.set(purpose, (k = Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), `hublink:mac:${purpose}`, 32))));
    return k;
  };
  const box: SecretBox = {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', bytes, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(context));
      const body = Buffer.concat([cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, context) {
      const dot = sealed.indexOf('.');
      const version = dot < 0 ? '' : sealed.slice(0, dot);
      if (version !== VERSION) throw new SecretBoxError(`sealed value of unknown format '${version.slice(0, 8)}'`);
      const raw = Buffer.from(sealed.slice(dot + 1), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('sealed value is truncated');
      const decipher = createDecipheriv('aes-256-gcm', bytes, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(context));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      } catch {
        // Node says only 'Unsupported state or unable to authenticate data'; say what it means here.
        throw new SecretBoxError('sealed value does not open: altered, or sealed under another key or context');
      }
    },
    openText(sealed, context) {
      return box.open(sealed, context).toString('utf8');
    },
    mac(purpose, data) {
      return createHmac('sha256', macKey(purpose)).update(data, 'utf8').digest('hex');
    },
  };
  return box;
}

export const SECRET_KEY_FILE = 'secret.key';

export interface LoadedSecretKey {
  key: SecretKey;
  /** env: HUBLINK_SECRET_KEY; file: the data dir's key file; created: generated now into that file. */
  source: 'env' | 'file' | 'created';
  /** The key file (source file or created). */
  file?: string;
}

/**
 * The key of config (HUBLINK_SECRET_KEY), else the one in `<dataDir>/secret.key`, else a new random key
 * written there (mode 0600). The file is written whole before it gets its name, and with a hard link
 * that refuses to replace an existing file, so two processes starting at once agree on one key.
 */
export function loadSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): LoadedSecretKey {
  if (config.secretKey) return { key: config.secretKey, source: 'env' };
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return { key: existing, source: 'file', file };

  fs.mkdirSync(config.dataDir, { recursive: true });
  const tmp = path.join(config.dataDir, `.${SECRET_KEY_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  let created = true;
  try {
    fs.linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    created = false; // another process wrote its key first: use that one
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  const key = readKeyFile(file);
  if (!key) throw new Error(`${file} vanished while it was being created`);
  return { key, source: created ? 'created' : 'file', file };
}

function readKeyFile(file: string): SecretKey | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return parseSecretKey(text, file);
}
