import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyReply } from 'fastify';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { CODE, httpStatusOf, LIMITS, M, type Endpoint } from '@hublink/contract';
import type { Config } from './config';
import { answerClientError } from './core/clientErrors';
import { serveConsole } from './core/console';
import { createCtx, type Ctx } from './core/context';
import { ApiError } from './core/errors';
import type { App } from './core/http';
import { SECURITY_HEADERS, securityHeaders } from './core/security';
import { createStore, type KvStore } from './core/store';
import { connect, type DbHandle } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { announcementRoutes } from './modules/announcement/routes';
import { messageRoutes } from './modules/message/routes';
import { serviceRoutes } from './modules/service/routes';
import { accountRoutes } from './modules/account/routes';
import { authRoutes } from './modules/auth/routes';
import { ramRoutes } from './modules/ram/routes';
import { ramRoleRoutes } from './modules/ram-role/routes';
import { devRoutes } from './modules/dev/routes';
import { siteRoutes } from './modules/site/routes';
import { routerRoutes } from './modules/router/routes';
import { networkRoutes } from './modules/network/routes';
import { logsRoutes } from './modules/logs/routes';

export interface BuildOptions {
  /** An open database (tests pass their own); otherwise one is opened from config and migrated. */
  db?: DbHandle;
  store?: KvStore;
  logger?: boolean;
}

/** Every area of /api/v1, one plugin function each. */
const MODULES = [siteRoutes, authRoutes, accountRoutes, announcementRoutes, messageRoutes, serviceRoutes, ramRoutes, ramRoleRoutes, routerRoutes, networkRoutes, logsRoutes];

export async function buildApp(
  config: Config,
  opts: BuildOptions = {},
): Promise<App & { ctx: Ctx; endpoints: { url: string; endpoint: Endpoint }[] }> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.code'],
            ...(config.prettyLogs ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } } : {}),
          },
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    bodyLimit: 4 * 1024 * 1024,
    // What never becomes a request answers in the envelope too: bytes the HTTP parser refuses,
    clientErrorHandler: answerClientError,
    // and a URL Fastify cannot decode (FST_ERR_BAD_URL), answered before any hook runs.
    frameworkErrors: (_err, _req, reply) => {
      void (reply as FastifyReply).headers(SECURITY_HEADERS).send({ code: CODE.invalid, msg: M.requestMalformed });
    },
  }).withTypeProvider() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const handle = opts.db ?? connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (!opts.db) await migrateToLatest(handle);
  const store = opts.store ?? createStore(config.redisUrl);
  const ctx = createCtx(config, handle.db, handle.dialect, store, app.log);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  securityHeaders(app);

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) {
      return reply.status(httpStatusOf(err.code)).send({ code: err.code, msg: err.message, ...(err.data !== undefined ? { data: err.data } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.send({ code: CODE.invalid, msg: err.validation[0]?.message ?? M.validationFailed });
    }
    if (err.statusCode === 429) return reply.status(429).send({ code: CODE.tooMany, msg: M.tooManyRequests });
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type, body too large: the caller's fault, said plainly.
      return reply.send({ code: CODE.invalid, msg: M.validationFailed });
    }
    req.log.error({ err, reqId: req.id }, 'unhandled error');
    return reply.status(500).send({ code: CODE.internal, msg: M.internalError });
  });

  await app.register(swagger, {
    openapi: { info: { title: 'HubLink API', version: '1' } },
    transform: jsonSchemaTransform,
  });

  await app.register(rateLimit, {
    global: true,
    max: config.apiRateLimitPerMinute,
    timeWindow: '1 minute',
    allowList: (req) => !req.url.startsWith('/api/'),
    errorResponseBuilder: () => ({ statusCode: 429, code: CODE.tooMany, msg: M.tooManyRequests }),
  });

  // Uploads (.xlsx imports and the like): one file of at most 2 MB; route handlers read it with uploadedFile().
  await app.register(multipart, { limits: { fileSize: LIMITS.uploadMaxBytes, files: 1 } });

  // Every call of the contract the app serves; the permission tests walk this list.
  const endpoints: { url: string; endpoint: Endpoint }[] = [];
  app.addHook('onRoute', (r) => {
    if (r.config?.endpoint) endpoints.push({ url: r.url, endpoint: r.config.endpoint });
  });

  await app.register(
    async (api) => {
      for (const mod of MODULES) mod(api as App, ctx);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api/v1' },
  );

  if (config.devEndpoints) {
    await app.register(async (dev) => devRoutes(dev as App, ctx), { prefix: '/api/dev' });
  }

  const consolePage = await serveConsole(app, config.webDist);

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/')) return reply.status(404).send({ code: 404, msg: M.apiNotFound });
    // History-mode fallback: the console's router decides what any other path shows.
    if (consolePage && (req.method === 'GET' || req.method === 'HEAD')) return consolePage(reply);
    return reply.status(404).send({ code: 404, msg: M.pageNotFound });
  });

  app.addHook('onClose', async () => {
    await store.close();
    if (!opts.db) await handle.close();
  });

  return Object.assign(app, { ctx, endpoints });
}
