import { M, type PreviewAnswer, type PreviewablePath } from '@hublink/contract';
import type { Actor } from '../../core/actor';
import { uncaptured } from '../../core/audit';
import type { Ctx } from '../../core/context';
import { invalid, tooMany } from '../../core/errors';
import { authorizeCall } from '../../core/guard';
import { preview } from '../../core/preview';
import { SETTINGS_CHANGES } from './changes';

/*
 * A settings change's effect before it is saved (issue 36): the call's own service runs with its own
 * checks, in its own transaction, which is rolled back once the network has been compiled before and
 * after (core/preview.ts; the compiler compares). Refusals are the call's own. Nothing is written: no
 * audit capture, no version, no event.
 */

const byPath = new Map(SETTINGS_CHANGES.map((c) => [c.endpoint.path, c]));

/** Tenants with a preview running on this instance: a comparison takes seconds on a large network, so one at a time. */
const running = new Set<number>();

export async function previewChange(ctx: Ctx, actor: Actor, networkNumber: string, path: PreviewablePath, body: Record<string, unknown>, ip: string): Promise<PreviewAnswer> {
  const target = byPath.get(path);
  if (!target) throw invalid(M.previewCallInvalid);
  // The call's own access (and role list) first, then its own validation, on the network the preview names.
  authorizeCall(actor, target.endpoint, networkNumber);
  const parsed = target.endpoint.body.safeParse({ ...body, network_number: networkNumber });
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? M.validationFailed);
  return onePreviewAtATime(actor.tenantId, async () => {
    const effect = await uncaptured(() => preview<PreviewAnswer>(ctx, 'network', { ip }, () => target.run(ctx, actor, parsed.data)));
    return effect ?? { members: [], member_count: 0, reach: [], reach_count: 0, viewer: null };
  });
}

/** Runs a preview (a settings change's, a document's plan) unless the tenant has one running here: 429 then. */
export async function onePreviewAtATime<T>(tenantId: number, fn: () => Promise<T>): Promise<T> {
  if (running.has(tenantId)) throw tooMany(M.previewBusy);
  running.add(tenantId);
  try {
    return await fn();
  } finally {
    running.delete(tenantId);
  }
}
