import { dashboardOverview } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { overviewOf } from './service';

export function overviewRoutes(app: App, ctx: Ctx) {
  route(app, ctx, dashboardOverview, async ({ actor }) => ok(await overviewOf(ctx, actor)));
}
