import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO, START_MS, call, childrenOf, freePort, serverEnv } from '../test/serverProcess';
import { until } from '../test/until';
import { loadConfig } from './config';
import { checkRedis } from './core/startup';
import { ConfigError } from './core/startupError';

/*
 * `hublink start` refuses a configuration or an environment it cannot run in with one line naming the
 * problem and a non-zero exit (78 for configuration, 1 for the rest), never a stack trace; and
 * `npm start` (scripts/start.mjs) exits with the server's status, 128 + n when a signal killed it.
 */

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-startup-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A start that must be refused: one line on stderr, nothing like a stack anywhere. */
async function refused(over: NodeJS.ProcessEnv, exitCode: number, line: RegExp, secret?: string) {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
  const r = await run([BIN, 'start'], serverEnv(dataDir, await freePort(), over));
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^hublink: /);
  expect(lines[0]).toMatch(line);
  expect(r.stderr + r.stdout).not.toMatch(/\n\s+at /);
  if (secret) expect(r.stderr + r.stdout).not.toContain(secret);
  expect(r.code).toBe(exitCode);
}

describe.concurrent('a start that cannot work is refused in one line', () => {
  it('an unparseable DATABASE_URL (78)', () => refused({ DATABASE_URL: 'postgres//nocolon' }, 78, /DATABASE_URL is not a URL/));

  it('a REDIS_URL that is no redis:// URL (78)', () => refused({ REDIS_URL: 'localhost:6379' }, 78, /REDIS_URL must start with redis:\/\//));

  it('NODE_ENV=production with the dev endpoints on (78)', () =>
    refused({ NODE_ENV: 'production', HUBLINK_DEV_ENDPOINTS: '1', HUBLINK_WORKERS: '1' }, 78, /HUBLINK_DEV_ENDPOINTS=1 is refused when NODE_ENV=production/));

  it('an unreachable database, after the retry, without its password (1)', async () => {
    const port = await freePort();
    await refused(
      { DATABASE_URL: `postgres://postgres:Sup3rSecret@127.0.0.1:${port}/hublink` },
      1,
      new RegExp(`the database at 127\\.0\\.0\\.1:${port}/hublink \\(DATABASE_URL\\) cannot be reached: .*ECONNREFUSED`),
      'Sup3rSecret',
    );
  });

  it('an unreachable Redis, after the retry (1)', async () => {
    // Below the ports the kernel hands out for port 0: a server another test starts during the 20 s of
    // retries cannot take it (a freed random port once answered as an HTTP server).
    const [lowest] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const port = lowest! - 1;
    await refused({ REDIS_URL: `redis://127.0.0.1:${port}` }, 1, new RegExp(`Redis at 127\\.0\\.0\\.1:${port} \\(REDIS_URL\\) cannot be reached: .*ECONNREFUSED`));
  });

  it('a port in use (1)', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      await refused({ PORT: String(port) }, 1, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      holder.close();
    }
  });

  it('a data dir that cannot be written (1)', async () => {
    // The tests may run as root, whom permissions do not stop: a path through a file cannot be a dir for anyone.
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, '');
    await refused({ HUBLINK_DATA_DIR: path.join(file, 'data') }, 1, /the data dir .*a-file\/data \(HUBLINK_DATA_DIR\) cannot be written: ENOTDIR/);
  });
}, 120_000);

// The same refusals in this process (each spawn above costs seconds of a loaded machine's CPU).
describe('configuration errors', () => {
  it('names a DATABASE_URL of another database without echoing its password', () => {
    const err = (() => {
      try {
        loadConfig({ DATABASE_URL: 'mysql://app:Sup3rSecret@db/hublink' });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.exitCode).toBe(78);
    expect(err!.message).toBe('DATABASE_URL must start with postgres:// or postgresql://, not mysql://');
  });

  it('takes the URLs it can use', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u:p@h:5432/d', REDIS_URL: 'rediss://h:6380/2' })).toMatchObject({
      databaseUrl: 'postgresql://u:p@h:5432/d',
      redisUrl: 'rediss://h:6380/2',
    });
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('the reachability retry (needs TEST_REDIS_URL)', () => {
  it('waits for a Redis that refuses its first connections', async () => {
    const target = new URL(process.env.TEST_REDIS_URL!);
    let seen = 0;
    // A door in front of Redis that resets its first three connections, then passes the bytes through.
    const door = net.createServer((socket) => {
      if (++seen <= 3) return socket.resetAndDestroy();
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
    try {
      await checkRedis(`redis://127.0.0.1:${(door.address() as net.AddressInfo).port}`, 30_000);
      expect(seen).toBe(4);
    } finally {
      door.close();
    }
  }, 60_000);
});

describe.concurrent('npm start (scripts/start.mjs) passes on how the server ended', () => {
  const START = path.join(REPO, 'scripts/start.mjs');

  /** start.mjs with a console folder of its own (nothing to build), running until the server answers. */
  async function startScript() {
    const dataDir = fs.mkdtempSync(path.join(tmp, 'npm-start-'));
    const web = path.join(dataDir, 'web');
    fs.mkdirSync(web);
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><html><head><title>console</title></head><body></body></html>');
    const port = await freePort();
    const env = serverEnv(path.join(dataDir, 'data'), port, { HUBLINK_WEB_DIST: web, HUBLINK_REBUILD: '' });
    const p = spawn(process.execPath, [START], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<{ code: number | null; output: string }>((resolve) => p.on('exit', (code) => resolve({ code, output: out })));
    await until(async () => {
      if (p.exitCode !== null) throw new Error(`npm start ended early: ${out}`);
      return (await call(port, 'GET', '/api/v1/site/info').catch(() => ({ code: 0 }))).code === 200;
    }, 'the server answers', START_MS);
    const [server] = childrenOf(p.pid!);
    expect(server).toBeGreaterThan(0);
    return { p, server: server!, exited };
  }

  it('exits 128 + 9 and says why when the server is killed with SIGKILL', async () => {
    const { server, exited } = await startScript();
    process.kill(server, 'SIGKILL');
    const { code, output } = await exited;
    expect(code).toBe(137);
    expect(output).toContain('hublink: the server was killed by SIGKILL; exiting with 137');
  });

  it('exits 0 when it is sent SIGTERM: passed on, the server drains and exits 0', async () => {
    const { p, exited } = await startScript();
    p.kill('SIGTERM');
    const { code, output } = await exited;
    expect(code).toBe(0);
    expect(output).not.toContain('killed by');
  });

  it('exits 0 when the server alone is sent SIGTERM (it drains and exits 0 itself)', async () => {
    const { server, exited } = await startScript();
    process.kill(server, 'SIGTERM');
    expect((await exited).code).toBe(0);
  });
}, START_MS * 2);
