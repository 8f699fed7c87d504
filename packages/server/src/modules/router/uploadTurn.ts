import { LIMITS, M } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { exclusive } from '../../core/turns';

/** A tenant's uploads are read one at a time, on every instance: a second one meanwhile gets 429. */
export const oneUploadAtATime = <T>(ctx: Ctx, actor: Actor, work: () => Promise<T>) =>
  exclusive(ctx.store, `upload:${actor.tenantId}`, LIMITS.uploadTurnSeconds, M.uploadBusy, work);
