import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { until } from '../../test/until';

const root = path.resolve(import.meta.dirname, '../..');

it('drains on SIGTERM: stops accepting, finishes the request in flight, then exits 0', async () => {
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hublink-drain-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/drainServer.ts', dataDir], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await until(() => /LISTENING \d+/.test(out), 'the server listens', 60_000);
    const port = Number(/LISTENING (\d+)/.exec(out)![1]);
    const base = `http://127.0.0.1:${port}`;

    const slow = fetch(`${base}/api/v1/probe/slow`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await until(() => out.includes('SLOW-STARTED'), 'the slow request is in flight');

    child.kill('SIGTERM');
    await until(() => out.includes('shutting down'), 'the server starts draining');
    // New connections are refused while the request in flight goes on.
    await until(async () => fetch(`${base}/api/v1/site/info`).then(() => false, () => true), 'new connections are refused');
    expect(child.exitCode).toBeNull();

    child.stdin.write('release\n');
    expect(await slow).toEqual({ status: 200, body: { code: 200, msg: 'finished' } });
    expect(await exited).toBe(0);
    expect(out).toContain('"msg":"stopped"');
  } finally {
    child.kill('SIGKILL');
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  }
}, 120_000);

it('while draining, answers a request that arrives on an open keep-alive connection (not a bare 503), and says draining on /readyz', async () => {
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hublink-drain-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/drainServer.ts', dataDir, 'hold'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const get = (port: number, url: string) =>
    new Promise<{ status: number; connection: string; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: url, agent }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection), body }));
        })
        .on('error', reject);
    });
  try {
    await until(() => /LISTENING \d+/.test(out), 'the server listens', 60_000);
    const port = Number(/LISTENING (\d+)/.exec(out)![1]);
    // Two connections opened and left idle, as a balancer keeps them.
    const [first, second] = await Promise.all([get(port, '/api/v1/site/info'), get(port, '/healthz')]);
    expect([first.status, first.connection, second.connection]).toEqual([200, 'keep-alive', 'keep-alive']);

    child.kill('SIGTERM');
    await until(() => out.includes('PRECLOSE'), 'the close has begun');
    const during = await get(port, '/api/v1/site/info');
    expect({ status: during.status, code: JSON.parse(during.body).code, connection: during.connection }).toEqual({ status: 200, code: 200, connection: 'close' });
    const ready = await get(port, '/readyz');
    expect({ status: ready.status, body: JSON.parse(ready.body) }).toEqual({ status: 503, body: { code: 503, msg: 'draining' } });

    child.stdin.write('go\n');
    expect(await exited).toBe(0);
    // A probe's 503 is its answer, not a failure of the server.
    expect(out).not.toContain('request failed');
  } finally {
    agent.destroy();
    child.kill('SIGKILL');
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  }
}, 120_000);

it('lists the jobs of every module with their latest runs (hublink jobs)', async () => {
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hublink-jobs-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'jobs'], {
      cwd: root,
      env: { ...process.env, HUBLINK_DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    expect(stdout).toMatch(/^core\.purge-expired\s+17 \* \* \* \*\s+-\s+never run$/m);
    expect(stdout).toMatch(/^auth\.purge-recoveries\s+27 \* \* \* \*/m);
  } finally {
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  }
}, 120_000);
