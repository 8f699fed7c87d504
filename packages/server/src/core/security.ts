import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** How long a browser keeps to HTTPS once told (180 days). */
const HSTS_MAX_AGE = 15_552_000;

/**
 * The headers every answer carries (docs/decisions.md, "Security headers"): nosniff, no framing
 * (frame-ancestors 'none' and X-Frame-Options DENY), strict-origin-when-cross-origin referrers, and
 * one Content Security Policy. Scripts come only from our own origin, with no inline script at all;
 * style elements need the answer's nonce (reply.cspNonce.style), which the console page hands to
 * antd's CSS-in-JS; style attributes are refused too (the console sets styles through the DOM).
 * HSTS only on HTTPS: TLS here, or a trusted proxy's X-Forwarded-Proto.
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    enableCSPNonces: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        styleSrcAttr: ["'none'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', `max-age=${HSTS_MAX_AGE}; includeSubDomains`);
  });
}
