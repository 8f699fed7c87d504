import type { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { CODE, isFileResponse, isRedirectResponse, type Endpoint, type Envelope } from '@hublink/contract';
import type { FastifyInstance } from 'fastify';
import { onTestFinished, TestRunner } from 'vitest';
import { z } from 'zod';

/**
 * Every answer a test app gives to a call of the contract is held to the call's contract here, whoever
 * made the request (the tests' call(), a raw app.inject, the fuzz test), as a response schema would
 * hold it in Fastify — but only in tests: production sends what the handler answered (core/http.ts),
 * and TypeScript holds the handlers to their contract.
 */

/** Where one part of `sent` differs from what the contract reads in it (`read`): the paths, at most a few. */
function differences(sent: unknown, read: unknown, at: string, out: string[]): void {
  if (out.length >= 5 || isDeepStrictEqual(sent, read)) return;
  if (sent && read && typeof sent === 'object' && typeof read === 'object' && Array.isArray(sent) === Array.isArray(read)) {
    const s = sent as Record<string, unknown>;
    const r = read as Record<string, unknown>;
    for (const k of Object.keys(s)) {
      if (!Object.hasOwn(r, k)) out.push(`${at}.${k} is not declared`);
      else differences(s[k], r[k], `${at}.${k}`, out);
    }
    for (const k of Object.keys(r)) if (!Object.hasOwn(s, k)) out.push(`${at}.${k} was not sent (the contract reads ${JSON.stringify(r[k])})`);
    return;
  }
  out.push(`${at} was sent as ${JSON.stringify(sent)}, the contract reads ${JSON.stringify(read)}`);
}

/**
 * Holds a successful envelope to its endpoint's contract, loudly: a download answers a file, not an
 * envelope; `data` parses with the endpoint's schema into exactly itself (so a key the schema does not
 * declare fails too, where parsing alone would strip it); `count` comes with paged lists and only them.
 */
export function checkAnswer(endpoint: Endpoint, env: Envelope): void {
  const call = `${endpoint.method} ${endpoint.path}`;
  if (isFileResponse(endpoint.response)) throw new Error(`${call} answered an envelope; its contract says a file`);
  if (isRedirectResponse(endpoint.response)) throw new Error(`${call} answered an envelope with code 200; its contract says a redirect`);
  const parsed = endpoint.response.safeParse(env.data);
  if (!parsed.success) throw new Error(`${call} answered data its contract does not allow:\n${z.prettifyError(parsed.error)}`);
  const diff: string[] = [];
  differences(env.data, parsed.data, 'data', diff);
  if (diff.length > 0) throw new Error(`${call} answered data its contract does not declare:\n${diff.join('\n')}`);
  if (endpoint.paged && typeof env.count !== 'number') throw new Error(`${call} is a paged list and answered no count`);
  if (!endpoint.paged && 'count' in env) throw new Error(`${call} is not a paged list and answered a count`);
}

/** A download (export, template) or an image shown inline: the answer is a file, not an envelope. */
export const isFileDisposition = (disposition: unknown): boolean => /^(attachment|inline);/.test(String(disposition ?? ''));

/**
 * Holds one answer, as the app is about to send it, to its endpoint's contract: a file only where the
 * contract says a file, a redirect (302) only where it says a redirect, and anything else an envelope,
 * whose successful form checkAnswer holds to the contract.
 */
export function checkSent(endpoint: Endpoint, sent: { status: number; headers: Record<string, unknown>; payload: unknown }): void {
  const call = `${endpoint.method} ${endpoint.path}`;
  if (isFileDisposition(sent.headers['content-disposition'])) {
    if (!isFileResponse(endpoint.response)) throw new Error(`${call} answered a file; its contract says an envelope`);
    return;
  }
  if (sent.status === 302) {
    if (!isRedirectResponse(endpoint.response)) throw new Error(`${call} answered a redirect; its contract says an envelope`);
    return;
  }
  const text = typeof sent.payload === 'string' ? sent.payload : Buffer.isBuffer(sent.payload) ? sent.payload.toString('utf8') : undefined;
  let env: Envelope | undefined;
  try {
    env = text === undefined ? undefined : (JSON.parse(text) as Envelope);
  } catch {
    env = undefined;
  }
  if (!env || typeof env !== 'object' || typeof env.code !== 'number' || typeof env.msg !== 'string') {
    throw new Error(`${call} answered HTTP ${sent.status} with neither a file, a redirect nor an envelope: ${String(text ?? sent.payload).slice(0, 200)}`);
  }
  if (env.code === CODE.ok) checkAnswer(endpoint, env);
}

/** One answer that broke its contract: the request, what the check said, and what the app would have sent. */
export interface Drift {
  requestId: string;
  call: string;
  error: Error;
  sent: unknown;
}

/**
 * Installs the check on a test app (before it is ready, so every route has it) and keeps its findings.
 * A drift cannot go unnoticed:
 * - the answer is replaced by an HTTP 500 envelope whose msg names the call and what broke, so a
 *   test reading the answer sees it at once;
 * - the tests' call() throws the drift's error for its own request (takeFor);
 * - a drift found while a test runs fails that test when it finishes, unless the test took it
 *   (take(): a test that plants a drift on purpose);
 * - any other (in a beforeAll, say) is thrown by the app's close(), failing the suite (assertNone).
 */
export function installAnswerCheck(app: FastifyInstance) {
  const drifts: Drift[] = [];
  const watched = new WeakSet<object>();

  const failTestIfLeft = () => {
    const test = TestRunner.getCurrentTest();
    if (!test || watched.has(test)) return;
    watched.add(test);
    onTestFinished(() => {
      watched.delete(test);
      const left = drifts.splice(0);
      if (left.length > 0) throw driftError(left);
    });
  };

  app.addHook('onSend', async (req, reply, payload) => {
    const endpoint = req.routeOptions.config.endpoint;
    // HEAD (Fastify's twin of a GET) and a WebSocket upgrade are not calls of the contract.
    if (!endpoint || req.method !== endpoint.method || (req as { ws?: boolean }).ws) return payload;
    try {
      checkSent(endpoint, { status: reply.statusCode, headers: reply.getHeaders(), payload });
      return payload;
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      drifts.push({ requestId: req.id, call: `${req.method} ${req.url}`, error, sent: payload });
      failTestIfLeft();
      if (payload && typeof (payload as Readable).destroy === 'function' && typeof (payload as Readable).pipe === 'function') (payload as Readable).destroy();
      reply.removeHeader('content-disposition').removeHeader('content-length').removeHeader('location').code(500).type('application/json; charset=utf-8');
      return JSON.stringify({ code: CODE.internal, msg: `the test app's answer check: ${req.method} ${req.url} broke its contract: ${error.message}` });
    }
  });

  return {
    /** The drift of one request (the tests' call() throws it), taken. */
    takeFor(requestId: unknown): Drift | undefined {
      const i = drifts.findIndex((d) => d.requestId === requestId);
      return i < 0 ? undefined : drifts.splice(i, 1)[0];
    },
    /** Every drift found and not yet taken, taken: for a test that plants one. */
    take(): Drift[] {
      return drifts.splice(0);
    },
    /** Throws the drifts nobody took. */
    assertNone(): void {
      const left = drifts.splice(0);
      if (left.length > 0) throw driftError(left);
    },
  };
}

export type AnswerCheck = ReturnType<typeof installAnswerCheck>;

function driftError(drifts: Drift[]): Error {
  return new Error(`answers broke their contract (the test app's answer check):\n${drifts.map((d) => `- ${d.call}: ${d.error.message}`).join('\n')}`);
}
