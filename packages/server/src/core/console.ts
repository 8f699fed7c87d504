import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { consolePolicy } from './security';

/** Sends the console's page (index.html) as the answer to any path the console's router decides. */
export type SendConsolePage = (reply: FastifyReply) => FastifyReply;

/**
 * Serves the built console (packages/web/dist) when there is one: its hashed assets as files, cached
 * for a year, and its page for everything else, built per answer with a nonce of its own, in its
 * Content Security Policy and in <meta property="csp-nonce">, where the console finds it for the
 * style elements antd adds. The page is never cached (a cached page would carry an old nonce).
 */
export async function serveConsole(app: FastifyInstance, webDist: string): Promise<SendConsolePage | null> {
  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) return null;
  const html = fs.readFileSync(indexFile, 'utf8');
  const head = /<head[^>]*>/i.exec(html);
  if (!head) throw new Error(`${indexFile} has no <head>`);
  const at = head.index + head[0].length;
  const [before, after] = [html.slice(0, at), html.slice(at)];

  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    globIgnore: ['index.html'],
    // Built assets carry a content hash and never change. (send's own Cache-Control would replace these.)
    cacheControl: false,
    setHeaders: (res, file) => {
      res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  return (reply) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .header('content-security-policy', consolePolicy(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(`${before}<meta property="csp-nonce" nonce="${nonce}">${after}`);
  };
}
