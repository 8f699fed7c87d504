import { CODE, endpointUrl, M, type Endpoint } from '@hublink/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '../core/actor';
import type { App } from '../core/http';
import type { KvStore } from '../core/store';

/*
 * Every MCP tool is a call of the REST API, made in process (app.inject) with the MCP request's own
 * token, address and user agent: the role guard, the token's scope, the role's network list, tenant
 * isolation, validation messages and the audit trail are the REST API's, not a copy of them.
 */

/** Marks the REST calls an assistant made, in the audit trail's user agent. */
export const MCP_USER_AGENT = 'hublink-mcp';

/** Who is calling through MCP, and what the tools need to call the API for them. */
export interface Caller {
  /** The app whose routes answer the tools' calls. */
  app: App;
  store: KvStore;
  log: FastifyBaseLogger;
  /** The token's holder and rights (core/actor.ts), as the MCP request authenticated it. */
  actor: Actor;
  /** The MCP request's Authorization header: every REST call carries the same token. */
  authorization: string;
  ip: string;
  /** The MCP request's Host header ('' when none). */
  host: string;
  userAgent: string;
}

/** A REST call's envelope: its data (and a list's total), or its refusal. */
export type RestAnswer = { ok: true; msg: string; data: unknown; count?: number } | { ok: false; msg: string };

/** A GET call's query as the console sends it: strings, without the fields left out. */
function asQuery(input: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
}

/** Makes one call of the contract for the caller and reads its envelope. */
export async function callRest(caller: Caller, endpoint: Endpoint, input: Record<string, unknown>): Promise<RestAnswer> {
  const res = await caller.app.inject({
    method: endpoint.method,
    url: endpointUrl(endpoint),
    ...(endpoint.method === 'GET' ? { query: asQuery(input) } : { payload: input }),
    headers: {
      authorization: caller.authorization,
      'user-agent': caller.userAgent,
      ...(caller.host ? { host: caller.host } : {}),
    },
    remoteAddress: caller.ip,
  });
  let envelope: { code?: unknown; msg?: unknown; data?: unknown; count?: unknown };
  try {
    envelope = res.json();
  } catch {
    // The tools call no download; an answer that is not an envelope is the server's fault.
    caller.log.error({ path: endpoint.path, status: res.statusCode }, 'mcp: a REST call answered no envelope');
    return { ok: false, msg: M.internalError };
  }
  const msg = typeof envelope.msg === 'string' ? envelope.msg : M.internalError;
  if (envelope.code !== CODE.ok) return { ok: false, msg };
  return { ok: true, msg, data: envelope.data ?? null, ...(typeof envelope.count === 'number' ? { count: envelope.count } : {}) };
}

/** A tool's answer: the value as JSON text. */
export const toolAnswer = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

/** A tool's refusal: the server's message, as the console would show it. */
export const toolRefusal = (msg: string): CallToolResult => ({ content: [{ type: 'text', text: msg }], isError: true });

/** A read's answer: the envelope's data, with a paged list's total beside its rows. */
export function answerOf(answer: RestAnswer): CallToolResult {
  if (!answer.ok) return toolRefusal(answer.msg);
  return toolAnswer(answer.count === undefined ? answer.data : { count: answer.count, data: answer.data });
}
