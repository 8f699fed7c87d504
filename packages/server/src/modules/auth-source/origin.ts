import { authSourceCallback, M } from '@hublink/contract';
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';

/**
 * The console's public origin: HUBLINK_PUBLIC_URL, else the origin the request came to (its scheme
 * and Host, or the proxy's forwarded ones when HUBLINK_TRUST_PROXY=1). Providers send the browser back
 * here; they accept only addresses registered with them, so a forged Host leads nowhere.
 */
export function originOf(ctx: Ctx, req: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl;
  try {
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    throw invalid(M.requestMalformed);
  }
}

/** Where a provider sends the browser back after a sign-in. */
export const callbackUrlOf = (origin: string) => `${origin}/api/v1${authSourceCallback.path}`;
