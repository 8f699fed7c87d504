import { frConfig, frOv, listFr, M } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { notFound, ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as pop from './service';

/** network_fr/* (spec 2 §7). */
export function popRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listFr, async ({ actor, query }) => {
    const { rows, count } = await pop.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, frConfig, async ({ actor }) => ok(await pop.choices(ctx, actor)));
  route(app, ctx, frOv, async ({ actor, query }) => {
    const areas = await pop.areasOfNetwork(ctx, actor, query.network_number);
    if (areas === null) throw notFound(M.networkNotFound);
    return ok(areas);
  });
}
