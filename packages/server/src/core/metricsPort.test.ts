import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, request, serverEnv, START_MS, startServer } from '../../test/serverProcess';
import { until } from '../../test/until';

/**
 * Metrics of HUBLINK_WORKERS=2 as an operator runs them, on a port of their own (the primary listens
 * there and sums both workers) or on the main port behind the token (the worker that takes the scrape
 * asks the primary for the sum). SQLite: the database does not matter to where metrics are served.
 */

const REQUESTS = 10;
const TOKEN = 'metrics-token-0123456789';

/** `hublink start` with two workers and the given settings, once both workers listen. */
async function twoWorkers(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-metrics-'));
  const port = await freePort();
  const server = await startServer(serverEnv(dataDir, port, { HUBLINK_WORKERS: '2', HUBLINK_METRICS: '1', LOG_LEVEL: 'info', ...env }), port);
  // Both listening: requests on new connections then reach both, in turn.
  await until(() => (server.output().match(/Server listening at/g) ?? []).length === 2 || server.proc.exitCode !== null, 'both workers listen', START_MS);
  if (server.proc.exitCode !== null) throw new Error(`the server exited: ${server.output().slice(-2000)}`);
  return {
    port,
    server,
    async stop() {
      if (server.proc.exitCode === null) {
        server.proc.kill('SIGTERM');
        await server.exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A GET's status and body as text (/metrics answers Prometheus' text, not an envelope). */
const getOnce = async (port: number, url: string, headers: Record<string, string> = {}) => {
  const r = await request(port, 'GET', url, { headers });
  return { status: r.status, body: r.body.toString('utf8') };
};

const healthzCount = (text: string) => Number(/^hublink_http_requests_total\{method="GET",route="\/healthz",status="200"\} (\d+)/m.exec(text)?.[1]);

describe('metrics on a port of their own, summed over two workers', () => {
  let s: Awaited<ReturnType<typeof twoWorkers>>;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    s = await twoWorkers({ HUBLINK_METRICS_PORT: String(metricsPort) });
    await until(async () => (await getOnce(metricsPort, '/metrics').catch(() => undefined))?.status === 200, 'the metrics port answers', START_MS);
  }, START_MS + 30_000);
  afterAll(() => s?.stop(), 60_000);

  it('serves only /metrics there, and nothing at /metrics on the main port', async () => {
    expect((await getOnce(metricsPort, '/healthz')).status).toBe(404);
    expect((await getOnce(metricsPort, '/api/v1/site/info')).status).toBe(404);
    expect((await getOnce(s.port, '/metrics')).status).toBe(404);
  });

  it('counts the requests of both workers in one scrape', async () => {
    for (let i = 0; i < REQUESTS; i++) expect((await getOnce(s.port, '/healthz')).status).toBe(200);
    const m = await getOnce(metricsPort, '/metrics');
    expect(m.status).toBe(200);
    expect(m.body).toContain('process_cpu_user_seconds_total');
    expect(healthzCount(m.body)).toBe(REQUESTS);
  });

  it('stops the metrics port with the server on SIGTERM', async () => {
    s.server.proc.kill('SIGTERM');
    expect((await s.server.exited).code).toBe(0);
    await expect(getOnce(metricsPort, '/metrics')).rejects.toThrow(/ECONNREFUSED/);
    expect(s.server.output()).not.toMatch(/"level":50/);
  }, 60_000);
});

describe('metrics on the main port behind the token, summed over two workers', () => {
  let s: Awaited<ReturnType<typeof twoWorkers>>;
  beforeAll(async () => {
    s = await twoWorkers({ HUBLINK_METRICS_TOKEN: TOKEN });
  }, START_MS + 30_000);
  afterAll(() => s?.stop(), 60_000);

  it('answers 401 without the token and the sum of both workers with it, whichever worker takes the scrape', async () => {
    expect((await getOnce(s.port, '/metrics')).status).toBe(401);
    for (let i = 0; i < REQUESTS; i++) expect((await getOnce(s.port, '/healthz')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const m = await getOnce(s.port, '/metrics', { authorization: `Bearer ${TOKEN}` });
      expect(m.status).toBe(200);
      expect(healthzCount(m.body)).toBe(REQUESTS);
    }
  });
});
