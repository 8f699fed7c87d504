import { CODE, M } from '@hublink/contract';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticate, bearerToken } from '../core/actor';
import { isApiToken } from '../core/apiTokens';
import type { Ctx } from '../core/context';
import { ApiError } from '../core/errors';
import type { App } from '../core/http';
import { MCP_USER_AGENT, type Caller } from './rest';
import { mcpServerFor } from './server';

/*
 * The MCP endpoint (issue 36): streamable HTTP, stateless (no session: every POST carries its token and
 * is answered with JSON), at POST /api/mcp. Only a personal API token opens it; any other method is 405
 * in the JSON-RPC shape MCP clients expect of a stateless server. The body is handed to the SDK's
 * transport as sent, so a malformed message gets the protocol's own error (400, 406, 415), never a 500.
 */

export const MCP_PATH = '/api/mcp';

/** The request headers the transport reads. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;

/** An error in the JSON-RPC shape the SDK's transport answers with (no request id: it applies to the whole request). */
const jsonRpcError = (message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/** What a stateless server answers to GET (no server-sent stream), DELETE (no session) and the rest. */
const METHOD_NOT_ALLOWED = jsonRpcError('Method not allowed.');

/** Only a personal API token: 2001 (HTTP 401) for none or a console session's, else the token's own check. */
async function authenticateToken(ctx: Ctx, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  try {
    const token = bearerToken(req.headers.authorization);
    if (!token || !isApiToken(token)) throw new ApiError(CODE.tokenInvalid, M.mcpApiTokenRequired);
    req.actor = await authenticate(ctx.db, ctx.tokens, req.headers.authorization, { ip: req.ip });
  } catch (err) {
    reply.header('www-authenticate', 'Bearer');
    throw err;
  }
}

/** The request as the SDK's transport takes it (a Web Request); only the headers it reads. */
function webRequestOf(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers, body: typeof req.body === 'string' ? req.body : '' });
}

function callerOf(app: App, ctx: Ctx, req: FastifyRequest): Caller {
  const agent = req.headers['user-agent'];
  return {
    app,
    store: ctx.store,
    log: req.log,
    actor: req.actor!,
    authorization: req.headers.authorization!,
    ip: req.ip,
    host: req.headers.host ?? '',
    userAgent: agent ? `${MCP_USER_AGENT} (${agent})` : MCP_USER_AGENT,
  };
}

/** Registers POST /api/mcp and the 405 of every other method there; `app` is the app whose routes the tools call. */
export async function mcpRoutes(app: App, ctx: Ctx): Promise<void> {
  await app.register(
    async (scope) => {
      // The body stays text for the transport, which checks its type and parses it as the protocol says.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

      // A body Fastify refuses before the transport sees it (too large, cut short) is answered as the transport
      // would; refusals of the caller (ApiError: 401) and rate limits (429) go on to the app's envelope.
      scope.setErrorHandler((err: FastifyError, _req, reply) => {
        const status = err.statusCode ?? 500;
        if (err instanceof ApiError || status < 400 || status >= 500 || status === 429) throw err;
        return reply.status(status).type('application/json').send(jsonRpcError(STATUS_CODES[status] ?? 'Bad Request'));
      });

      scope.setNotFoundHandler((req, reply) => {
        if (req.url.split('?')[0] !== MCP_PATH) return reply.status(404).send({ code: 404, msg: M.apiNotFound });
        return reply.status(405).header('allow', 'POST').type('application/json').send(METHOD_NOT_ALLOWED);
      });

      scope.route({
        method: 'POST',
        url: '/',
        prefixTrailingSlash: 'no-slash',
        onRequest: (req, reply) => authenticateToken(ctx, req, reply),
        handler: async (req, reply) => {
          const server = mcpServerFor(callerOf(app, ctx, req));
          const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
          try {
            await server.connect(transport);
            const answer = await transport.handleRequest(webRequestOf(req));
            reply.status(answer.status);
            answer.headers.forEach((value, name) => void reply.header(name, value));
            return reply.send(await answer.text());
          } finally {
            await server.close();
          }
        },
      });
    },
    { prefix: MCP_PATH },
  );
}
