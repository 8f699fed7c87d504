import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** How long a browser keeps to HTTPS once told (180 days). */
const HSTS = 'max-age=15552000; includeSubDomains';

/**
 * The Content Security Policy of every answer (docs/decisions.md, "Security headers"): scripts from
 * our own origin only, with no inline script and no eval; style elements only with the page's nonce
 * (see consolePolicy); no style attributes (the console sets styles through the DOM).
 */
const DIRECTIVES: Record<string, string[]> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  styleSrcAttr: ["'none'"],
  // blob: for the images the console fetches with its token (a ticket's) and shows from a blob URL.
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The headers helmet sets for these directives, read off once: helmet builds its middleware from
 * the options, and building it per answer would cost more than a small answer itself.
 */
function helmetHeaders(directives: Record<string, string[]>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return headers;
}

/** nosniff, no framing (X-Frame-Options DENY and frame-ancestors 'none'), the referrer policy, the CSP and helmet's other defaults. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(helmetHeaders(DIRECTIVES));

/** The policy of the console's page: the same, with the page's nonce for the style elements antd adds. */
export const consolePolicy = (nonce: string): string =>
  helmetHeaders({ ...DIRECTIVES, styleSrc: [...DIRECTIVES.styleSrc!, `'nonce-${nonce}'`] })['content-security-policy']!;

/** Every answer carries SECURITY_HEADERS; HSTS only over HTTPS (TLS here, or a trusted proxy's X-Forwarded-Proto). */
export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.headers(SECURITY_HEADERS);
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
