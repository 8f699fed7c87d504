import { editIpPool, getIpPool, M, renameNetworkOnPop, setMemberOv, setNetworkFr } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as pop from './pop';

/** The network's POP resource and line mode, its members' POP areas and its IP address pools (spec 2 §7). */
export function popRoutes(app: App, ctx: Ctx) {
  route(app, ctx, setNetworkFr, async ({ actor, body }) => {
    await pop.setFr(ctx, actor, body);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, setMemberOv, async ({ actor, body }) => {
    await pop.setMemberOv(ctx, actor, body);
    return ok(null, M.saved);
  });
  route(app, ctx, renameNetworkOnPop, async ({ actor, body }) => {
    await pop.renameOnPop(ctx, actor, body.network_number, body.network_name);
    return ok(null, M.modified);
  });
  route(app, ctx, getIpPool, async ({ actor, query }) => ok(await pop.ipPool(ctx, actor, query.network_number)));
  route(app, ctx, editIpPool, async ({ actor, body }) => {
    await pop.editIpPool(ctx, actor, body);
    return ok(null, M.saved);
  });
}
