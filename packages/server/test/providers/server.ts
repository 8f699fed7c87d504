import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * What the local provider servers share: an HTTP server on a free port of 127.0.0.1 that hands each
 * request (its path, query, headers and JSON body) to the provider's routes and sends their answer,
 * and the one-time codes and tokens they issue.
 */

export interface ProviderRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The JSON body, or undefined when there is none or it is not JSON. */
  body: unknown;
  remoteAddress: string;
}

export type ProviderReply = { status?: number; json: unknown } | { status?: number; html: string } | { redirect: string };

export type Routes = Record<string, (req: ProviderRequest) => ProviderReply>;

export interface LocalServer {
  url: string;
  /** Every request received, oldest first (method and path). */
  received: { method: string; path: string }[];
  close(): Promise<void>;
}

/** Starts a provider's routes ('GET /path') on a free port. */
export async function serve(routes: Routes): Promise<LocalServer> {
  const received: LocalServer['received'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://provider');
      let body: unknown;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      received.push({ method: req.method ?? '', path: url.pathname });
      const route = routes[`${req.method} ${url.pathname}`];
      const reply: ProviderReply = route
        ? route({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, remoteAddress: req.socket.remoteAddress ?? '' })
        : { status: 404, json: { errcode: 404, errmsg: 'not found' } };
      if ('redirect' in reply) {
        res.writeHead(302, { location: reply.redirect }).end();
      } else if ('html' in reply) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/html; charset=utf-8' }).end(reply.html);
      } else {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(reply.json));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

/** A random code or token, as providers hand them out. */
export const issue = (prefix = '') => `${prefix}${randomBytes(16).toString('hex')}`;

/** An authorization code: for one app and user, valid five minutes, used once. */
export interface Grant<U> {
  app: string;
  user: U;
  expires: number;
  used: boolean;
}

/** Codes of one provider: issued at the sign-in page, redeemed once by its token endpoint. */
export class Grants<U> {
  private readonly codes = new Map<string, Grant<U>>();

  issue(app: string, user: U, ttlMs = 5 * 60_000): string {
    const code = issue();
    this.codes.set(code, { app, user, expires: Date.now() + ttlMs, used: false });
    return code;
  }

  /** Makes a code's five minutes pass. */
  expire(code: string) {
    const g = this.codes.get(code);
    if (g) g.expires = 0;
  }

  /** The grant of a code for this app: 'unknown' (wrong, another app's, or used), 'expired', or the grant (now used). */
  redeem(code: string, app: string): Grant<U> | 'unknown' | 'expired' {
    const g = this.codes.get(code);
    if (!g || g.app !== app || g.used) return 'unknown';
    g.used = true;
    if (g.expires < Date.now()) return 'expired';
    return g;
  }
}

/** The page a provider shows instead of redirecting when the sign-in request itself is wrong. */
export const errorPage = (text: string): ProviderReply => ({ status: 400, html: `<!doctype html><title>error</title><p>${text}</p>` });

/** The URL the provider sends the browser back to, with its parameters. */
export function back(redirectUri: string, params: Record<string, string>): ProviderReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { redirect: url.toString() };
}
