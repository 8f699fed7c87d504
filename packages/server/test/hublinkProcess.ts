import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { connect } from '../src/db/connect';
import { until } from './until';

/** The real `hublink` CLI as an operator runs it, in child processes (the shape of workers.test.ts). */

export const BIN = path.resolve(import.meta.dirname, '../bin/hublink.mjs');
/** Long enough for a server to start on a loaded 2-core machine (a bound, not a delay). */
export const START_MS = 90_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Answer<T = unknown> {
  code: number;
  msg: string;
  data?: T;
  count?: number;
}

export interface Reply {
  status: number;
  type: string;
  body: Buffer;
}

/** One request on a connection of its own (no keep-alive). */
export function request(port: number, method: string, url: string, opts: { body?: Buffer; type?: string; token?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: { ...(opts.type ? { 'content-type': opts.type } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** An API call with a JSON body, answered with the envelope. */
export async function call<T = unknown>(port: number, method: string, url: string, opts: { body?: unknown; token?: string } = {}): Promise<Answer<T>> {
  const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
  const reply = await request(port, method, url, { body, type: body ? 'application/json' : undefined, token: opts.token });
  return JSON.parse(reply.body.toString('utf8')) as Answer<T>;
}

/** A file as the console uploads it (multipart field 'file'). */
export async function upload<T = unknown>(port: number, url: string, token: string, file: { filename: string; body: Buffer; contentType: string }): Promise<Answer<T>> {
  const boundary = `----hublink${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`),
    file.body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const reply = await request(port, 'POST', url, { body, type: `multipart/form-data; boundary=${boundary}`, token });
  return JSON.parse(reply.body.toString('utf8')) as Answer<T>;
}

/** A main account's sign-in through the captcha (read back from the dev endpoint); answers the access token. */
export async function signIn(port: number, username: string, password: string): Promise<string> {
  const captcha = await call<{ uniqid: string }>(port, 'GET', '/api/v1/verify/code');
  const answer = await call<{ text: string }>(port, 'GET', `/api/dev/captcha?uniqid=${captcha.data!.uniqid}`);
  const login = await call<{ access_token: string }>(port, 'POST', '/api/v1/login/authorization', {
    body: { username, password, code: answer.data!.text, uniqid: captcha.data!.uniqid },
  });
  if (login.code !== 200) throw new Error(`sign-in of ${username}: ${login.code} ${login.msg}`);
  return login.data!.access_token;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `hublink ARGS` to its end, whatever its exit code. */
export function runCli(env: NodeJS.ProcessEnv, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment of a test server on SQLite in `dataDir` (the caller adds DATABASE_URL for PostgreSQL). */
export function serverEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: '',
    NODE_ENV: 'test',
    HUBLINK_DATA_DIR: dataDir,
    HUBLINK_HANDBOOK_DIR: path.resolve(import.meta.dirname, '../../../docs/handbook'),
    HUBLINK_DEV_ENDPOINTS: '1',
    HUBLINK_API_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    REDIS_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
  };
}

export interface RunningServer {
  port: number;
  log(): string;
  /** SIGTERM, and its exit code. */
  stop(): Promise<number | null>;
}

/** `hublink start` with `env`, once its port answers. */
export async function startServer(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const port = Number(env.PORT);
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${log.slice(-2000)}`);
      return (await call(port, 'GET', '/api/v1/site/info').catch(() => ({ code: 0 }))).code === 200;
    },
    'the port answers',
    START_MS,
  );
  return {
    port,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A PostgreSQL database of its own for one test file (from TEST_DATABASE_URL), dropped by `drop`. */
export async function postgresDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = connect({ databaseUrl: base.toString(), dataDir: '.', poolSize: 1 });
  await sql.raw(`create database ${name}`).execute(admin.db);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await sql.raw(`drop database if exists ${name} with (force)`).execute(admin.db);
      await admin.close();
    },
  };
}
