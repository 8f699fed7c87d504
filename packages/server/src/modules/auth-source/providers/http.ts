import { fmt, M } from '@hublink/contract';
import { z } from 'zod';
import { OutboundError, outboundRequest } from '../../../core/outbound';
import type { ProviderNet } from './types';
import { ProviderRefusal } from './types';

/** An answer of a provider's API: its HTTP status and its JSON body (null when it was not JSON). */
export interface ProviderAnswer {
  status: number;
  body: unknown;
}

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 64 * 1024;

/**
 * One call to a provider's API, bounded like every outbound request (time, size, no redirects). The
 * providers' hosts are the operator's configuration, not a tenant's input, so private addresses are
 * allowed (a test's local provider, an egress proxy); the operator's egress proxy (HTTPS_PROXY) is used
 * as for every outbound call. A failure to get an answer is a refusal that says the provider cannot be
 * reached.
 */
export async function providerCall(
  provider: string,
  proxy: ProviderNet['proxy'],
  req: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; json?: unknown },
): Promise<ProviderAnswer> {
  try {
    const res = await outboundRequest(
      { allowPrivateTargets: true, outboundProxy: proxy },
      {
        url: req.url,
        method: req.method ?? 'GET',
        headers: { accept: 'application/json', ...(req.json !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...req.headers },
        ...(req.json !== undefined ? { body: JSON.stringify(req.json) } : {}),
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_BYTES,
      },
    );
    let body: unknown = null;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      // not JSON: the schema below refuses it
    }
    return { status: res.status, body };
  } catch (e) {
    const reason = e instanceof OutboundError ? `${e.reason}: ${e.message}` : String(e);
    throw new ProviderRefusal(fmt(M.authSourceProviderUnreachable, { provider }), `${req.method ?? 'GET'} ${new URL(req.url).pathname}: ${reason}`);
  }
}

/** Reads an answer with its schema; an answer of another shape is a refusal naming where it came from. */
export function answerOf<S extends z.ZodType>(provider: string, what: string, schema: S, answer: ProviderAnswer): z.output<S> {
  const r = schema.safeParse(answer.body);
  if (!r.success) throw new ProviderRefusal(fmt(M.authSourceProviderRefused, { provider, detail: `HTTP ${answer.status}` }), `${what}: unexpected answer (HTTP ${answer.status})`);
  return r.data;
}

/** A provider's id or name as we keep it: text of bounded length. */
export const providerText = (max: number) => z.string().max(max);
