import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { CODE, DEVICE_CLOSE, DEVICE_LIMITS, httpStatusOf, LIMITS, M, type Endpoint } from '@hublink/contract';
import type { DestinationStream } from 'pino';
import qs from 'qs';
import type { Config } from './config';
import { answerClientError } from './core/clientErrors';
import { serveConsole } from './core/console';
import { createCtx, type Ctx } from './core/context';
import { ApiError } from './core/errors';
import { urlForLog, type App } from './core/http';
import { websocketErrorHandler } from './core/websocketErrors';
import { RequestLog } from './core/requestLog';
import { OPENAPI_DOCUMENT, openApiTransform } from './core/openapi';
import { SECURITY_HEADERS, securityHeaders } from './core/security';
import cluster from 'node:cluster';
import { ClusterStore, sharesThroughPrimary } from './core/clusterHub';
import { createStore, type KvStore } from './core/store';
import { connect, connectOptionsOf, type DbHandle } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { createBackbone, type BackboneOptions } from './core/backbone';
import { coreModule } from './core/housekeeping';
import { CHECK_TIMEOUT_MS, healthRoutes, Readiness, withTimeout } from './core/health';
import { AppMetrics, attachMetrics, oldestDueDeliverySeconds } from './core/metrics';
import { renderThroughPrimary, shareWithPrimary } from './core/metricsCluster';
import { listenForMetrics, metricsRoute, type MetricsListener } from './core/metricsServer';
import type { Module } from './core/module';
import { MODULES } from './modules';
import { mcpRoutes } from './mcp/routes';

/** Bounds of a form-encoded body: nesting (prefix[0][ip]), rows of a list, fields in all. */
const FORM_DEPTH_MAX = 2;
const FORM_LIST_MAX = 100;
const FORM_FIELDS_MAX = 1000;
/** How long the start may take (its modules, the sweep of sessions a crash left open) before it is given up. */
const STARTUP_LIMIT_MS = 300_000;

export interface BuildOptions {
  /** An open database (tests pass their own); otherwise one is opened from config and migrated. */
  db?: DbHandle;
  store?: KvStore;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: DestinationStream;
  /** Replacements and settings of the backbone's parts (tests). */
  backbone?: BackboneOptions;
  /** The modules to serve (default: all of modules/index.ts). */
  modules?: Module[];
}

export type BuiltApp = App & {
  ctx: Ctx;
  endpoints: { url: string; endpoint: Endpoint }[];
  /** What /readyz reports; 'draining' (503) from the moment close() starts. */
  readiness: Readiness;
};

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.code'],
            // Fastify's own request fields, with the URL's token masked (WS /router/traffic carries one).
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: urlForLog(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
            },
            ...(opts.logStream ? { stream: opts.logStream } : config.prettyLogs ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } } : {}),
          },
    logController: new RequestLog(config.slowRequestMs),
    genReqId: () => randomUUID(),
    // While draining, a request that still arrives on an open keep-alive connection is answered (with
    // Connection: close), not refused with Fastify's 503: a balancer does not re-send a refused POST.
    return503OnClosing: false,
    trustProxy: config.trustProxy,
    bodyLimit: 4 * 1024 * 1024,
    // The start (onReady) ends the sessions a crashed run of this instance left open: tens of
    // thousands take longer than Fastify's 10 s, and a start refused for it would refuse every restart.
    pluginTimeout: STARTUP_LIMIT_MS,
    // What never becomes a request answers in the envelope too: bytes the HTTP parser refuses,
    clientErrorHandler: answerClientError,
    // and a URL Fastify cannot decode (FST_ERR_BAD_URL), answered before any hook runs.
    frameworkErrors: (_err, _req, reply) => {
      void (reply as FastifyReply).headers(SECURITY_HEADERS).send({ code: CODE.invalid, msg: M.requestMalformed });
    },
  }).withTypeProvider() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const handle = opts.db ?? connect(connectOptionsOf(config));
  // Of several workers, the primary has migrated before forking them (core/cluster.ts).
  if (!opts.db && !cluster.isWorker) await migrateToLatest(handle, app.log);
  const store = opts.store ?? (sharesThroughPrimary(config.redisUrl) ? new ClusterStore() : createStore(config.redisUrl));
  const modules = [coreModule, ...(opts.modules ?? MODULES)].filter((m) => m.enabled?.(config) ?? true);
  const jobs = modules.flatMap((m) => m.jobs ?? []);
  // The job runner is built before ctx and hands it to each run: jobs need ctx, ctx offers jobs.
  const parts = createBackbone(config, handle, app.log, jobs, () => ctx, opts.backbone);
  const ctx: Ctx = createCtx(config, handle.db, handle.dialect, store, app.log, parts.backbone);
  for (const m of modules) if (m.on) ctx.events.subscribe(m.name, m.on);

  const metrics = config.metrics ? new AppMetrics() : undefined;
  if (metrics) {
    attachMetrics(ctx, metrics);
    handle.onQuery = metrics.observeQuery;
    metrics.watch({ pool: handle.poolStats, eventWait: () => withTimeout(oldestDueDeliverySeconds(handle.db), CHECK_TIMEOUT_MS) });
    app.addHook('onResponse', async (req, reply) => metrics.observeRequest(req, reply));
    if (cluster.isWorker) shareWithPrimary(metrics.registry);
  }
  const readiness = new Readiness({ db: handle, redis: parts.redis, log: app.log });
  let metricsListener: MetricsListener | undefined;

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
    openapi: OPENAPI_DOCUMENT,
    transform: openApiTransform,
  });

  await app.register(rateLimit, {
    global: true,
    // One count per client across instances when they share Redis; without Redis, per instance. If
    // Redis fails, the safety net lets calls through (logins and codes keep their own limits).
    ...(parts.redis ? { redis: parts.redis, nameSpace: `${opts.backbone?.redisPrefix ?? 'hublink:'}rl:`, skipOnError: true } : {}),
    max: config.apiRateLimitPerMinute,
    timeWindow: '1 minute',
    // Devices sign in through the gateway, which limits failed sign-ins per member and address itself.
    allowList: (req) => !req.url.startsWith('/api/') || req.url.startsWith('/api/device/'),
    errorResponseBuilder: () => ({ statusCode: 429, code: CODE.tooMany, msg: M.tooManyRequests }),
  });

  // Uploads (.xlsx imports and the like): one file of at most 2 MB; route handlers read it with uploadedFile().
  await app.register(multipart, { limits: { fileSize: LIMITS.uploadMaxBytes, files: 1 } });

  // Form-encoded bodies, as spec 2 §7 sends the DNS and prefix lists (dns[0]=…, prefix[0][ip]=…): qs reads
  // the brackets into lists and objects within its bounds; an index past FORM_LIST_MAX makes an object,
  // which the call's schema refuses. Values stay strings.
  await app.register(formbody, {
    parser: (body) => qs.parse(body, { depth: FORM_DEPTH_MAX, arrayLimit: FORM_LIST_MAX, parameterLimit: FORM_FIELDS_MAX, allowPrototypes: false }),
  });

  // WebSockets (the device gateway, the console's traffic stream). On close, devices are told to come back
  // (1001) rather than left without a reason; the gateway writes their sessions' ends when it stops. A
  // client's malformed frame is a warn line, at most one per address a minute (core/websocketErrors.ts).
  await app.register(websocket, {
    options: { maxPayload: DEVICE_LIMITS.maxMessageBytes },
    errorHandler: websocketErrorHandler(),
    preClose(done) {
      for (const client of app.websocketServer.clients) client.close(DEVICE_CLOSE.goingAway, 'server shutting down');
      done();
    },
  });

  // Every call of the contract the app serves; the permission tests walk this list.
  const endpoints: { url: string; endpoint: Endpoint }[] = [];
  app.addHook('onRoute', (r) => {
    if (r.config?.endpoint) endpoints.push({ url: r.url, endpoint: r.config.endpoint });
  });

  await app.register(
    async (api) => {
      for (const m of modules) if (m.routes && !m.prefix) m.routes(api as App, ctx);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api/v1' },
  );
  for (const m of modules) {
    if (m.routes && m.prefix) await app.register(async (scope) => m.routes!(scope as App, ctx), { prefix: m.prefix });
  }

  healthRoutes(app, readiness);
  await mcpRoutes(app, ctx);
  // Of several workers, the primary sums them all (core/metricsCluster.ts).
  metricsRoute(app, config, metrics && (cluster.isWorker ? renderThroughPrimary : () => metrics.render()));

  const consolePage = await serveConsole(app, config.webDist);

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/')) return reply.status(404).send({ code: 404, msg: M.apiNotFound });
    // History-mode fallback: the console's router decides what any other path shows.
    const page = consolePage && (req.method === 'GET' || req.method === 'HEAD') ? consolePage(req, reply) : null;
    if (page) return page;
    return reply.status(404).send({ code: 404, msg: M.pageNotFound });
  });

  // Lifecycle: modules start in order once the app is ready, then events flow and jobs run. On close
  // (after HTTP has stopped accepting and the requests in flight have answered) jobs stop first
  // (finishing or handed back), then event dispatch, then the modules in reverse, then the connections.
  app.addHook('onReady', async () => {
    for (const m of modules) await m.start?.(ctx);
    ctx.events.start(ctx);
    if (config.runJobs) await parts.runner.start();
    if (metrics && config.metricsPort !== undefined && !cluster.isWorker) {
      metricsListener = await listenForMetrics({ port: config.metricsPort, host: config.metricsHost, token: config.metricsToken }, () => metrics.render(), app.log);
    }
  });
  // A keep-alive connection would hold the drain open for Fastify's 72 s keep-alive timeout: the
  // answers sent while closing end their connection.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    readiness.drain();
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    await parts.runner.stop();
    await ctx.events.stop();
    for (const m of [...modules].reverse()) {
      await m.stop?.(ctx).catch((err: unknown) => app.log.error({ err, module: m.name }, 'module did not stop cleanly'));
    }
    await parts.close();
    await store.close();
    if (!opts.db) await handle.close();
    await metricsListener?.close();
  });

  return Object.assign(app, { ctx, endpoints, readiness });
}
