import { CODE, type Envelope } from '@hublink/contract';
import { afterEach, vi } from 'vitest';
import { API_BASE } from '../api/client';

/** One request the console made. */
export interface ApiCall {
  method: string;
  /** Path under /api/v1, e.g. '/login/authorization'. */
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

type Answer = Envelope | ((call: ApiCall) => Envelope | Promise<Envelope>);

export const ok = <T>(data?: T, msg = 'ok'): Envelope<T> => ({ code: CODE.ok, msg, data });
export const refused = (msg: string, code: number = CODE.invalid): Envelope => ({ code, msg });

/**
 * Stands in for the network: answers each path under /api/v1 with an envelope (or a function of the
 * call), and records every call. A path without an answer gets a 500 envelope. Unstubbed after each test.
 */
export function mockApi(answers: Record<string, Answer>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    const call: ApiCall = {
      method: init?.method ?? 'GET',
      path: url.pathname.slice(API_BASE.length),
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
    };
    calls.push(call);
    const answer = answers[call.path];
    const env = answer === undefined ? { code: CODE.internal, msg: `no mock for ${call.path}` } : typeof answer === 'function' ? await answer(call) : answer;
    return new Response(JSON.stringify(env), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetch: fetchMock,
    /** Calls made to one path, oldest first. */
    callsTo: (path: string) => calls.filter((c) => c.path === path),
    /** Replaces or adds an answer while the test runs. */
    answer: (path: string, a: Answer) => {
      answers[path] = a;
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});
