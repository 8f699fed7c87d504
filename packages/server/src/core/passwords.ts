import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import os from 'node:os';

const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1 };
const KEYLEN = 32;

function derive(password: string, salt: Buffer, keylen: number, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keylen, params, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** 'scrypt$N$r$p$salt$hash', base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** libuv's pool size when nothing set it (UV_THREADPOOL_SIZE is read once, when the pool first starts). */
const DEFAULT_POOL = 4;
/** Pool threads left to file and DNS work while hashes run, so they do not queue behind a bulk import. */
const POOL_KEPT_FREE = 2;

/**
 * How many hashes run at once in a bulk: one per core, within the pool threads that file I/O does not
 * need. scrypt runs on libuv's pool, so more than that only queues; the process start sets
 * UV_THREADPOOL_SIZE to the cores plus POOL_KEPT_FREE where it can (docs/decisions.md, issue 16).
 */
export function hashConcurrency(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): number {
  const pool = Number(env.UV_THREADPOOL_SIZE) || DEFAULT_POOL;
  return Math.max(1, Math.min(cores, pool - POOL_KEPT_FREE));
}

/** Hashes many passwords on every core; the answers are in the order of the passwords. */
export async function hashPasswords(passwords: readonly string[], concurrency = hashConcurrency()): Promise<string[]> {
  const out: string[] = new Array<string>(passwords.length);
  let next = 0;
  const worker = async () => {
    while (next < passwords.length) {
      const i = next++;
      out[i] = await hashPassword(passwords[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, passwords.length) }, worker));
  return out;
}

/** A hash to compare against when the account does not exist, so timing does not tell. */
export const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
