import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consolePolicy } from './security';

/**
 * Answers a GET the app's routes did not take: the console's page (index.html), for its router to
 * decide what the path shows; null for a missing built asset, which must be a 404, not the page (a tab
 * left open across a deploy asks for chunks that are gone: a page in their place fails as a script).
 */
export type SendConsolePage = (req: FastifyRequest, reply: FastifyReply) => FastifyReply | null;

const ASSETS_PREFIX = '/assets/';

/**
 * Serves the built console (packages/web/dist) when there is one: its hashed assets as files, cached
 * for a year, compressed as the build left them (.br and .gz copies, chosen by Accept-Encoding), and
 * its page for everything else, built per answer with a nonce of its own, in its Content Security
 * Policy and in <meta property="csp-nonce">, where the console finds it for the style elements antd
 * adds. The page is revalidated on every load, so a deploy reaches the next load, and is sent as it
 * is: it is under a kilobyte and differs per answer, so there is no copy to compress ahead.
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
    preCompressed: true,
    // Built assets carry a content hash and never change. (send's own Cache-Control would replace these.)
    cacheControl: false,
    setHeaders: (res, file) => {
      const asset = file.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('cache-control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
      // Which copy is sent depends on Accept-Encoding, so caches on the way must key on it too.
      res.setHeader('vary', 'Accept-Encoding');
    },
  });

  return (req, reply) => {
    if (req.url.startsWith(ASSETS_PREFIX)) return null;
    const nonce = randomBytes(16).toString('base64');
    return reply
      .header('content-security-policy', consolePolicy(nonce))
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(`${before}<meta property="csp-nonce" nonce="${nonce}">${after}`);
  };
}
