import { getIpPool, M, renameNetworkOnPop } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as pop from './pop';

/** The network's name on its POP resource and its IP address pools as read (spec 2 §7); the POP settings' changes are in changes.ts. */
export function popRoutes(app: App, ctx: Ctx) {
  route(app, ctx, renameNetworkOnPop, async ({ actor, body }) => {
    await pop.renameOnPop(ctx, actor, body.network_number, body.network_name);
    return ok(null, M.modified);
  });
  route(app, ctx, getIpPool, async ({ actor, query }) => ok(await pop.ipPool(ctx, actor, query.network_number)));
}
