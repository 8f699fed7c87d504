import type { FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { CODE, type Endpoint, type Envelope } from '@hublink/contract';
import { authenticate, type Actor } from './actor';
import type { Ctx } from './context';
import { authorize } from './guard';
import { recordOperation } from './oplog';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyRequest['log'], ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Call<E extends Endpoint> {
  body: Out<E['body']>;
  query: Out<E['query']>;
  /** Present on every route but public ones. */
  actor: E['access'] extends 'public' ? Actor | undefined : Actor;
  ip: string;
  headers: FastifyRequest['headers'];
  hostname: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

function networkNumberOf(req: FastifyRequest): string | undefined {
  const from = (o: unknown) =>
    o && typeof o === 'object' && 'network_number' in o ? String((o as Record<string, unknown>).network_number) : undefined;
  return from(req.body) ?? from(req.query);
}

/**
 * Registers one call of the contract: its schemas validate the request (422 with the first rule's
 * message), the guard decides who may call it, and the handler's envelope is sent as is; a
 * sub-account's successful POST is written to its operation log.
 */
export function route<E extends Endpoint>(app: App, ctx: Ctx, endpoint: E, handler: (call: Call<E>) => Promise<Envelope>) {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
    },
    config: { endpoint },
    // Authentication runs before validation so a missing token is reported as such.
    onRequest: async (req) => {
      if (endpoint.access === 'public') return;
      req.actor = await authenticate(ctx.db, ctx.tokens, req.headers.authorization);
    },
    // Authorisation too (the body is parsed, not yet validated): a refused caller learns nothing
    // about the payload's rules.
    preValidation: async (req) => {
      if (req.actor) authorize(req.actor, endpoint.access, endpoint.networkScoped ? networkNumberOf(req) : undefined);
    },
    handler: async (req, reply) => {
      const answer = await handler({
        body: req.body as Out<E['body']>,
        query: req.query as Out<E['query']>,
        actor: req.actor as Call<E>['actor'],
        ip: req.ip,
        headers: req.headers,
        hostname: req.hostname,
        req,
        reply,
      });
      // Every successful mutating call of a sub-account goes into its operation log.
      if (endpoint.method === 'POST' && answer.code === CODE.ok && req.actor?.ramId) {
        await recordOperation(ctx, req.actor, endpoint.path, answer.msg);
      }
      return answer;
    },
  });
}
