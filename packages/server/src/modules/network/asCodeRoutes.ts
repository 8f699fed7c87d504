import { applyNetwork, exportNetwork, M, networkDriftOf, planNetwork } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as asCode from './asCode';
import { saveKeepingEffect } from './changes';

/** Networks as code (issue 36): export, plan, apply and drift. */
export function asCodeRoutes(app: App, ctx: Ctx) {
  route(app, ctx, exportNetwork, async ({ actor, query }) => ok(await asCode.exportDocument(ctx, actor, query.network_number, query.format)));
  route(app, ctx, networkDriftOf, async ({ actor, query }) => ok(await asCode.drift(ctx, actor, query.network_number)));
  route(app, ctx, planNetwork, async ({ actor, body, ip }) => ok(await asCode.plan(ctx, actor, body.network_number, body.document, ip)));
  route(app, ctx, applyNetwork, async ({ actor, body }) => {
    let result: Awaited<ReturnType<typeof asCode.apply>> | null = null;
    const run = async () => {
      result = await asCode.apply(ctx, actor, body.network_number, body.document);
    };
    // A new network has no effect to keep (nothing was there before it).
    await (body.network_number === undefined ? run() : saveKeepingEffect(ctx, actor, run));
    const done = result as unknown as Awaited<ReturnType<typeof asCode.apply>>;
    return ok(done, done.changed ? 'success' : M.codeNoChange);
  });
}
