import { inspect } from 'node:util';

export const SECRET_KEY_BYTES = 32;

/** 32 bytes of key that never show in a log, a JSON dump or an inspected config. */
export class SecretKey {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    if (bytes.length !== SECRET_KEY_BYTES) throw new Error(`a secret key has ${SECRET_KEY_BYTES} bytes, not ${bytes.length}`);
    this.#bytes = Buffer.from(bytes);
  }
  /** A copy of the key's bytes. */
  bytes(): Buffer {
    return Buffer.from(this.#bytes);
  }
  toString() {
    return '[SecretKey]';
  }
  toJSON() {
    return '[SecretKey]';
  }
  [inspect.custom]() {
    return '[SecretKey]';
  }
}

/**
 * A 32-byte key written as 64 hex digits or as base64 (standard or URL-safe, padding optional).
 * The error names what is wrong and never echoes the value.
 */
export function parseSecretKey(raw: string, source: string): SecretKey {
  const text = raw.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(text)) bytes = Buffer.from(text, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!bytes || bytes.length !== SECRET_KEY_BYTES) {
    const got = bytes ? `${bytes.length} bytes` : 'neither hex nor base64';
    throw new Error(`${source} must be ${SECRET_KEY_BYTES} bytes written as 64 hex digits or as base64 (got ${got}); make one with: openssl rand -base64 32`);
  }
  return new SecretKey(bytes);
}
