import { randomUUID } from 'node:crypto';
import type { WebSocket } from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { auditActionName, CODE, M, type AnswerOf, type Endpoint, type FileResponse, type RedirectResponse } from '@hublink/contract';
import { authenticate, type Actor } from './actor';
import { captured, openScope, type PendingCall } from './audit';
import { finishCall } from './auditOutbox';
import type { Ctx } from './context';
import { ApiError, invalid } from './errors';
import { authorizeCall } from './guard';
import { authenticateMember, type MemberSession } from './memberSessions';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyRequest['log'], ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
    member?: MemberSession;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Call<E extends Endpoint> {
  body: Out<E['body']>;
  query: Out<E['query']>;
  /** Present on every route but public and member ones. */
  actor: E['access'] extends 'public' | 'member' ? Actor | undefined : Actor;
  /** The member's self-service session: present on member routes only. */
  member: E['access'] extends 'member' ? MemberSession : undefined;
  ip: string;
  headers: FastifyRequest['headers'];
  hostname: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** How a file answer is sent besides its name and type. */
export interface FileOptions {
  /** 'attachment' (default): a download; 'inline': the browser shows it in the page (a ticket's image). */
  disposition?: 'attachment' | 'inline';
  /** The length of a streamed body, when known (Content-Length). */
  size?: number;
  /** Default 'no-store': exports and templates are a tenant's data; public files may be kept. */
  cacheControl?: string;
}

/** A file a GET call answers instead of an envelope (exports, templates, client packages, images). */
export class FileAnswer {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly body: Buffer | Readable,
    readonly options: FileOptions = {},
  ) {}
}

/** Where a browser-opened step of a sign-in sends the browser next (HTTP 302), instead of an envelope. */
export class RedirectAnswer {
  constructor(readonly location: string) {}
}

/** What a handler answers: the endpoint's data in the envelope, or a file or a redirect (or either) where the endpoint says it answers one. */
export type HandlerAnswer<E extends Endpoint> = E['response'] extends FileResponse & RedirectResponse
  ? FileAnswer | RedirectAnswer
  : E['response'] extends FileResponse
    ? FileAnswer
    : E['response'] extends RedirectResponse
      ? RedirectAnswer
      : AnswerOf<E>;

/**
 * 'attachment' (or 'inline') with the name twice (RFC 6266): an ASCII stand-in for old clients and the real name
 * as UTF-8 in filename* (RFC 5987), so '成员列表-20250101.xlsx' arrives intact.
 */
export function contentDisposition(filename: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The one uploaded file of a multipart call. */
export interface Upload {
  filename: string;
  body: Buffer;
}

/**
 * Reads the first file of a multipart request (the app limits its size to LIMITS.uploadMaxBytes).
 * Refuses with 422: no multipart body or no file in it (M.fileRequired), a file over the limit
 * (M.fileTooLarge), a body the multipart parser cannot read (cut short, no or the wrong boundary, a
 * broken part header: M.uploadBroken).
 */
export async function uploadedFile(req: FastifyRequest): Promise<Upload> {
  if (!req.isMultipart()) throw invalid(M.fileRequired);
  try {
    const part = await req.file();
    if (!part) throw invalid(M.fileRequired);
    return { filename: part.filename, body: await part.toBuffer() };
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const { code, statusCode } = e as { code?: unknown; statusCode?: unknown };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw invalid(M.fileTooLarge);
    if (statusCode === 406 || code === 'FST_NO_FORM_DATA') throw invalid(M.fileRequired);
    // Everything else here is the parser failing on what the client sent.
    req.log.info({ err: e }, 'unreadable multipart body');
    throw invalid(M.uploadBroken);
  }
}

/**
 * The network a call names, read before validation, so the raw value is unknown: a string or a
 * number names a network; anything else (an object, an array, null) names none, '' here, which no
 * role lists: a role limited to some networks is refused, and validation refuses it for everyone else.
 */
export function networkNumberOf(req: { body?: unknown; query?: unknown }): string | undefined {
  const from = (o: unknown): string | undefined => {
    if (!o || typeof o !== 'object' || !Object.hasOwn(o, 'network_number')) return undefined;
    const v: unknown = (o as Record<string, unknown>).network_number;
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
  };
  return from(req.body) ?? from(req.query);
}

/**
 * Query values the log never keeps: the live stream's token, an OAuth callback's code and state, a
 * sign-in ticket, an emailed link's token (s), a PKCE verifier.
 */
const SECRET_PARAMS = ['token', 'code', 'authCode', 'auth_code', 'state', 'ticket', 's', 'code_verifier'];
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_PARAMS.join('|')})=)[^&#]*`, 'gi');

/** A request URL as the log may keep it: the values of SECRET_PARAMS are masked. */
export const urlForLog = (url: string): string => url.replace(SECRET_QUERY, '$1[redacted]');

/** Characters of a user agent an audit entry keeps (audit_entry.user_agent). */
const USER_AGENT_MAX = 255;

/** Who makes an audited call and how, as its entry will say. */
function callOf(actor: Actor, endpoint: Endpoint, req: FastifyRequest): PendingCall {
  const { tenantId, ramId, apiTokenId } = actor;
  return {
    tenant_id: tenantId,
    ram_id: ramId,
    path: endpoint.path,
    who: apiTokenId !== undefined ? 'token' : ramId !== null ? 'ram' : 'main',
    ...(apiTokenId !== undefined ? { token_id: apiTokenId, token_name: actor.apiTokenName ?? '' } : {}),
    ip: req.ip,
    user_agent: (req.headers['user-agent'] ?? '').slice(0, USER_AGENT_MAX),
    source: apiTokenId !== undefined ? 'api' : 'console',
    method: endpoint.method,
  };
}

/** Serves a WebSocket opened on a GET call's path; it authenticates and authorizes by itself. */
export type LiveHandler = (socket: WebSocket, req: FastifyRequest) => void | Promise<void>;

/**
 * Registers one call of the contract: its schemas validate the request (422 with the first rule's
 * message), the guard decides who may call it, and the handler's envelope is sent as is (or its
 * FileAnswer, as a download; or its RedirectAnswer, as a 302); an authenticated POST runs in an audit
 * scope (core/audit.ts) and, when it succeeds, emits operation.performed with its row changes. A GET call may also take
 * WebSockets on its path (live).
 */
export function route<E extends Endpoint>(app: App, ctx: Ctx, endpoint: E, handler: (call: Call<E>) => Promise<HandlerAnswer<E>>, live?: LiveHandler) {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
    },
    config: { endpoint },
    ...(live ? { wsHandler: live } : {}),
    // Authentication runs before validation so a missing token is reported as such.
    onRequest: async (req) => {
      // A browser's WebSocket cannot send a header: the live handler reads the token from the query
      // and answers a refusal as a message, which the console understands, not as an HTTP status.
      if (endpoint.access === 'public' || (live && req.ws)) return;
      // A member's self-service session is not an account's: its own token, its own check.
      if (endpoint.access === 'member') {
        req.member = await authenticateMember(ctx, req.headers.authorization);
        return;
      }
      req.actor = await authenticate(ctx.db, ctx.tokens, req.headers.authorization, { ip: req.ip, replacedToo: endpoint.endsChain === true });
    },
    // Authorisation too (the body is parsed, not yet validated): a refused caller learns nothing
    // about the payload's rules.
    preValidation: async (req) => {
      if (req.actor) authorizeCall(req.actor, endpoint, endpoint.networkScoped ? networkNumberOf(req) : undefined);
    },
    handler: async (req, reply) => {
      // An authenticated mutating call runs in an audit scope: its row changes go into its entry, and
      // are written with the changes themselves (audit_pending) until the entry is.
      const scope = req.actor && endpoint.method === 'POST' && !endpoint.changesNothing ? openScope({ id: randomUUID(), call: callOf(req.actor, endpoint, req) }) : undefined;
      const call = () => handler({
        body: req.body as Out<E['body']>,
        query: req.query as Out<E['query']>,
        actor: req.actor as Call<E>['actor'],
        member: req.member as Call<E>['member'],
        ip: req.ip,
        headers: req.headers,
        hostname: req.hostname,
        req,
        reply,
      });
      let answer: HandlerAnswer<E>;
      try {
        answer = scope ? await captured(scope, call) : await call();
      } catch (err) {
        // Changes of a failed call that committed all the same still get their entry, with its answer.
        if (scope) await finishCall(ctx.db, ctx.events, scope, { ok: false, msg: err instanceof ApiError ? err.message : M.auditInterrupted, body: req.body }).catch((e: unknown) => req.log.error({ err: e }, 'audit entry not written'));
        throw err;
      }
      // Every successful mutating call goes into the audit trail (and a sub-account's into its operation
      // log: the audit and ram modules write them from the event), a failed one (or a download) when
      // changes of it committed. The call has answered: a failure here is logged, and its pending rows
      // stay for the sweep.
      if (scope) {
        const outcome =
          answer instanceof FileAnswer || answer instanceof RedirectAnswer ? { ok: false, msg: auditActionName(endpoint.path) } : { ok: answer.code === CODE.ok, msg: answer.msg };
        await finishCall(ctx.db, ctx.events, scope, { ...outcome, body: req.body }).catch((err: unknown) =>
          req.log.error({ err, tenantId: req.actor?.tenantId, path: endpoint.path }, 'audit entry not written'),
        );
      }
      if (answer instanceof FileAnswer) {
        reply.header('content-disposition', contentDisposition(answer.filename, answer.options.disposition)).header('cache-control', answer.options.cacheControl ?? 'no-store').type(answer.contentType);
        if (answer.options.size !== undefined) reply.header('content-length', answer.options.size);
        return reply.send(answer.body);
      }
      if (answer instanceof RedirectAnswer) {
        // The location may carry a one-time code or ticket: nothing on the way may keep it.
        return reply.header('cache-control', 'no-store').redirect(answer.location, 302);
      }
      return answer;
    },
  });
}
