import { listServices } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as services from './service';

export function serviceRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listServices, async ({ actor, query }) => {
    const { rows, count } = await services.list(ctx, actor, query.page, query.limit);
    return ok(rows, 'success', count);
  });
}
