import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { answerClientError } from './clientErrors';
import type { App } from './http';

export type RenderMetrics = () => Promise<{ contentType: string; text: string }>;

const UNAUTHORIZED = { code: 401, msg: 'metrics need Authorization: Bearer <HUBLINK_METRICS_TOKEN>' };
const NOT_FOUND = { code: 404, msg: 'not found' };
const FAILED = { code: 500, msg: 'metrics could not be collected' };

/** Whether an Authorization header carries the token, compared in constant time (hashes of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!), digest(token));
}

/**
 * GET /metrics on the main port: 404 unless metrics are on with a token and no port of their own,
 * 401 without the token. Registered whatever the settings, so the console's fallback never answers it.
 */
export function metricsRoute(app: App, config: Pick<Config, 'metrics' | 'metricsToken' | 'metricsPort'>, render: RenderMetrics | undefined) {
  const token = config.metrics && config.metricsPort === undefined ? config.metricsToken : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!render || !token) return reply.status(404).send(NOT_FOUND);
    if (!bearerMatches(req.headers.authorization, token)) return reply.status(401).header('www-authenticate', 'Bearer').send(UNAUTHORIZED);
    const { contentType, text } = await render();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(text);
  });
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * HUBLINK_METRICS_PORT: a listener that serves GET /metrics and nothing else (404 for the rest), on
 * HUBLINK_METRICS_HOST; it also asks for the token when one is set.
 */
export async function listenForMetrics(
  opts: { port: number; host: string; token?: string },
  render: RenderMetrics,
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
): Promise<MetricsListener> {
  const json = (res: http.ServerResponse, status: number, body: object, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return json(res, 404, NOT_FOUND);
    if (opts.token && !bearerMatches(req.headers.authorization, opts.token)) return json(res, 401, UNAUTHORIZED, { 'www-authenticate': 'Bearer' });
    render().then(
      ({ contentType, text }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        log.error({ err }, 'metrics: a scrape failed');
        json(res, 500, FAILED);
      },
    );
  });
  // Malformed or over-long requests get the envelope here too, as on the API's port (core/clientErrors.ts).
  server.on('clientError', answerClientError);
  // A scraper keeps its connection; idle ones must not hold a stop open.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ host: opts.host, port }, 'metrics: listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
