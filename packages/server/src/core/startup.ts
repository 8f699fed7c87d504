import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Config } from '../config';
import { StartupError } from './startupError';

/*
 * Pre-flight checks of `hublink start`, before anything is built: each failure becomes one line for
 * the operator (main.ts prints it) instead of a stack trace or a server that hangs retrying. The
 * database and Redis get a short retry, so a start beside them (compose, a reboot) does not fail for
 * being a second early.
 */

/** How long an unreachable database or Redis is retried before the start is refused. */
export const REACH_WAIT_MS = 10_000;
const ATTEMPT_TIMEOUT_MS = 3_000;
const RETRY_GAP_MS = 500;

export interface PreflightOptions {
  reachWaitMs?: number;
}

export async function preflight(config: Config, opts: PreflightOptions = {}): Promise<void> {
  checkDataDir(config.dataDir);
  await checkPortFree(config.host, config.port);
  const wait = opts.reachWaitMs ?? REACH_WAIT_MS;
  await Promise.all([config.databaseUrl && checkDatabase(config.databaseUrl, wait), config.redisUrl && checkRedis(config.redisUrl, wait)]);
}

/** The data dir holds the SQLite file, uploads and the secret key: it must exist (or be creatable) and take a file. */
export function checkDataDir(dir: string): void {
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
  } catch (e) {
    // "ENOTDIR: not a directory", without the path of the call it failed in (the line names the dir).
    throw new StartupError(`the data dir ${dir} (HUBLINK_DATA_DIR) cannot be written: ${reason(e).replace(/, \w+ '.*$/, '')}`);
  }
}

export function checkPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (e) => reject(listenRefusal(e, host, port) ?? e));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A listen error as a refusal of the start (the port taken between the check and the listen, say). */
export function listenRefusal(e: unknown, host: string, port: number): StartupError | undefined {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new StartupError(`port ${port} on ${host} is already in use (PORT, HOST)`);
  if (code === 'EACCES') return new StartupError(`port ${port} on ${host} may not be opened by this user (PORT, HOST)`);
  if (code === 'EADDRNOTAVAIL') return new StartupError(`${host} is not an address of this machine (HOST)`);
  return undefined;
}

/** Where a service URL points, without its credentials (never printed). */
export function whereOf(raw: string): string {
  const url = new URL(raw);
  return `${url.hostname || 'localhost'}${url.port ? `:${url.port}` : ''}${url.pathname.length > 1 ? url.pathname : ''}`;
}

// Errors worth a retry: the service is not there yet. A refused password or a missing database is not.
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P03']);
const transient = (e: unknown) => TRANSIENT.has(String((e as { code?: unknown }).code)) || /timeout|terminated/i.test(reason(e));

async function retrying(what: string, waitMs: number, attempt: () => Promise<void>): Promise<void> {
  const end = Date.now() + waitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (!transient(e) || Date.now() + RETRY_GAP_MS > end) throw new StartupError(`${what}: ${reason(e)}`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_GAP_MS));
    }
  }
}

export function checkDatabase(url: string, waitMs = REACH_WAIT_MS): Promise<void> {
  return retrying(`the database at ${whereOf(url)} (DATABASE_URL) cannot be reached`, waitMs, async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: ATTEMPT_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

export function checkRedis(url: string, waitMs = REACH_WAIT_MS): Promise<void> {
  return retrying(`Redis at ${whereOf(url)} (REDIS_URL) cannot be reached`, waitMs, async () => {
    const redis = new Redis(url, { lazyConnect: true, connectTimeout: ATTEMPT_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    // connect() fails with "Connection is closed."; the cause comes as an error event.
    let cause: unknown;
    redis.on('error', (e) => (cause ??= e));
    try {
      await redis.connect().catch((e: unknown) => {
        throw cause ?? e;
      });
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  });
}

function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { errors?: unknown[] };
  // A host with several addresses fails with an AggregateError whose own message is empty.
  if (!err.message && err.errors?.length) return reason(err.errors[0]);
  return (err.message || err.code || String(e)).split('\n')[0]!;
}
