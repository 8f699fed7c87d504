import * as contract from '@hublink/contract';
import { CODE, endpointUrl, type DataOf, type Endpoint, type Envelope } from '@hublink/contract';
import { afterEach, vi } from 'vitest';
import { API_BASE } from '../api/client';

type Contract = typeof contract;

/** The contract's path of a call mounted outside API_BASE (spec 3 §7's /api/download/*), by its URL path. */
const OUTSIDE_API_BASE = new Map(
  (Object.values(contract) as unknown[])
    .filter((e): e is Endpoint => typeof e === 'object' && e !== null && 'path' in e && 'method' in e && 'base' in e)
    .map((e) => [endpointUrl(e), e.path]),
);

/** Every endpoint of the contract by its path (e.g. '/network/info' → networkInfo). */
type Endpoints = {
  [K in keyof Contract as Contract[K] extends Endpoint ? Contract[K]['path'] : never]: Extract<Contract[K], Endpoint>;
};

/** A path under /api/v1 that the contract has a call for. */
export type ApiPath = keyof Endpoints;

/** The envelope a call answers: its data as the contract declares it, or a refusal without data. */
export type EnvelopeOf<P extends ApiPath> = Envelope<DataOf<Endpoints[P]>>;

/** One request the console made. */
export interface ApiCall {
  method: string;
  /** The contract's path, e.g. '/login/authorization' (under /api/v1) or '/download/version' (under /api). */
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/**
 * What the stub answers a call with: an envelope, or a function of the call giving one; a call that
 * answers a file (an image) may answer a Response of its own.
 */
export type MockAnswer<P extends ApiPath> = EnvelopeOf<P> | Response | ((call: ApiCall) => EnvelopeOf<P> | Response | Promise<EnvelopeOf<P> | Response>);

/** Answers by path; each one's data is checked against its call's contract. */
export type Answers = { [P in ApiPath]?: MockAnswer<P> };

export const ok = <T>(data?: T, msg = 'ok'): Envelope<T> => ({ code: CODE.ok, msg, data });
/** A refusal: a code and its message, no data (so it answers for any call). */
export const refused = (msg: string, code: number = CODE.invalid): Envelope<never> => ({ code, msg });

/**
 * Stands in for the network: answers each path of the contract with an envelope (or a function of the
 * call), and records every call. A path without an answer gets a 500 envelope. Unstubbed after each test.
 */
export function mockApi(answers: Answers) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    const call: ApiCall = {
      method: init?.method ?? 'GET',
      path: OUTSIDE_API_BASE.get(url.pathname) ?? url.pathname.slice(API_BASE.length),
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
    };
    calls.push(call);
    const answer = answers[call.path as ApiPath] as MockAnswer<ApiPath> | undefined;
    const env = answer === undefined ? { code: CODE.internal, msg: `no mock for ${call.path}` } : typeof answer === 'function' ? await answer(call) : answer;
    if (env instanceof Response) return env.clone();
    return new Response(JSON.stringify(env), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetch: fetchMock,
    /** Calls made to one path, oldest first. */
    callsTo: (path: ApiPath) => calls.filter((c) => c.path === path),
    /** Replaces or adds an answer while the test runs. */
    answer: <P extends ApiPath>(path: P, a: MockAnswer<P>) => {
      answers[path] = a as Answers[P];
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});
