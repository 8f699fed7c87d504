import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** The request's path without its query: a slow request's line names the call, never its parameters. */
export const pathOf = (url: string): string => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** Its 503 is an answer (not ready, draining), logged by the readiness itself when it changes (core/health.ts). */
const READINESS_PROBE = '/readyz';

/**
 * Fastify's per-request lines, at a cost that load can bear: "incoming request" and "request completed"
 * at debug (at info they took a fifth of the throughput and about 520 bytes a request); an answer of
 * status 500 or more, or a response that failed, at error; a request slower than `slowRequestMs` at warn
 * with its method, path, status and time. 4xx answers are the callers' business: debug.
 */
export class RequestLog extends LogController {
  constructor(private readonly slowRequestMs: number) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    if (error) {
      reply.log.error({ res: reply, err: error, responseTime }, 'request errored');
    } else if (reply.statusCode >= 500 && request.routeOptions.url !== READINESS_PROBE) {
      reply.log.error({ req: request, res: reply, responseTime }, 'request failed');
    } else if (responseTime > this.slowRequestMs) {
      reply.log.warn({ method: request.method, url: pathOf(request.url), statusCode: reply.statusCode, responseTime: Math.round(responseTime) }, 'slow request');
    } else {
      reply.log.debug({ res: reply, responseTime }, 'request completed');
    }
  }
}
