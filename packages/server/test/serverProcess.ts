// The real `hublink start` as a child process, for the tests of the process itself (crash, restart,
// start-up refusals): free ports, a database of its own per run, calls over plain HTTP.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { connect, type DbHandle } from '../src/db/connect';
import type { Dialect } from '../src/db/connect';
import { until } from './until';

export const BIN = path.resolve(import.meta.dirname, '../bin/hublink.mjs');
export const REPO = path.resolve(import.meta.dirname, '../../..');
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

/** One request on a connection of its own (no keep-alive: with several workers, each may take it). */
export function request(port: number, method: string, url: string, opts: { body?: Buffer; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, agent: false, headers: opts.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const bearer = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** An API call with a JSON body, answered with the envelope; rejects on a connection error or a body that is not JSON. */
export async function call<T = unknown>(port: number, method: string, url: string, opts: { body?: unknown; token?: string } = {}): Promise<Answer<T> & { status: number }> {
  const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
  const reply = await request(port, method, url, { body, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...bearer(opts.token) } });
  return { ...(JSON.parse(reply.body.toString('utf8')) as Answer<T>), status: reply.status };
}

/** A file as the console uploads it (multipart field 'file'). */
export async function upload<T = unknown>(port: number, url: string, token: string, file: { filename: string; body: Buffer; contentType: string }): Promise<Answer<T>> {
  const boundary = `----hublink${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`),
    file.body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const reply = await request(port, 'POST', url, { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) } });
  return JSON.parse(reply.body.toString('utf8')) as Answer<T>;
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

export function runOps(env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, 'ops', ...args], { env }, (error, _out, err) => (error ? reject(new Error(`ops ${args.join(' ')}: ${err}`)) : resolve()));
  });
}

export interface RunDatabase {
  env: NodeJS.ProcessEnv;
  open(): DbHandle;
  drop(): Promise<void>;
}

/** A database for one run: SQLite in the data dir, or a PostgreSQL database of its own (pg-boss's schema included). */
export async function databaseFor(dialect: Dialect, dataDir: string, prefix = 'hublink_proc'): Promise<RunDatabase> {
  if (dialect === 'sqlite') return { env: { DATABASE_URL: '' }, open: () => connect({ dataDir }), drop: async () => {} };
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = connect({ databaseUrl: base.toString(), dataDir });
  await sql.raw(`create database ${name}`).execute(admin.db);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => connect({ databaseUrl: url.toString(), dataDir }),
    drop: async () => {
      await sql.raw(`drop database if exists ${name} with (force)`).execute(admin.db);
      await admin.close();
    },
  };
}

/** The environment of a test server: quiet JSON logs, dev endpoints (captcha answers), no rate limit in the way. */
export function serverEnv(dataDir: string, port: number, over: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    HUBLINK_DATA_DIR: dataDir,
    HUBLINK_HANDBOOK_DIR: path.join(REPO, 'docs/handbook'),
    HUBLINK_DEV_ENDPOINTS: '1',
    HUBLINK_API_RATE_LIMIT: '1000000',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    REDIS_URL: '',
    DATABASE_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...over,
  };
}

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  /** Everything it wrote, stdout and stderr. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (when still running) and its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `node <script> <args>` and resolves once the port answers /site/info (fails at once if it exits first). */
export async function startProcess(args: string[], env: NodeJS.ProcessEnv, port: number): Promise<ServerProcess> {
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    return (await exited).code;
  };
  const server = { proc, port, output: () => out, exited, stop };
  await until(
    async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`the server exited before it answered: ${out.slice(-2000)}`);
      return (await call(port, 'GET', '/api/v1/site/info').catch(() => ({ code: 0 }))).code === 200;
    },
    `the server answers on ${port}`,
    START_MS,
  );
  return server;
}

export const startServer = (env: NodeJS.ProcessEnv, port: number) => startProcess([BIN, 'start'], env, port);

/** Signs in as the operator-made tenant through the captcha's dev answer. */
export async function signIn(port: number, username: string, password: string): Promise<string> {
  const captcha = (await call(port, 'GET', '/api/v1/verify/code')) as Answer & { data: { uniqid: string } };
  const answer = (await call(port, 'GET', `/api/dev/captcha?uniqid=${captcha.data.uniqid}`)) as Answer & { data: { text: string } };
  const login = (await call(port, 'POST', '/api/v1/login/authorization', {
    body: { username, password, code: answer.data.text, uniqid: captcha.data.uniqid },
  })) as Answer & { data: { access_token: string } };
  if (login.code !== 200) throw new Error(`sign-in of ${username}: ${login.code} ${login.msg}`);
  return login.data.access_token;
}

/** The pids of a process's children (from /proc: the kernel here has no task/<pid>/children). */
export function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command (in parentheses, which may hold spaces): state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) kids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return kids;
}
