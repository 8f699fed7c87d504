import {
  M,
  saasAppLog,
  saasAppLogTop,
  saasBandwidth,
  saasConnect,
  saasInfo,
  saasOrigLog,
  saasOrigLogTop,
  saasRouters,
  saasTraffic,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { analysis } from './analysis';
import * as devices from './devices';
import * as records from './records';

export function saasRoutes(app: App, ctx: Ctx) {
  route(app, ctx, saasRouters, async ({ actor, query }) => ok(await devices.list(ctx, actor, query.search)));
  route(app, ctx, saasInfo, async ({ actor, query }) => ok(await devices.info(ctx, actor, query.router_name)));
  route(app, ctx, saasConnect, async ({ actor, query }) => {
    const { rows, count } = await records.connects(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, saasTraffic, async ({ actor, query }) => ok(await records.traffic(ctx, actor, query.router_name)));
  route(app, ctx, saasAppLog, async ({ actor, query }) => ok(await analysis(ctx, actor, 'app_log', query)));
  route(app, ctx, saasAppLogTop, async ({ actor, query }) => ok(await analysis(ctx, actor, 'app_log_top', query)));
  route(app, ctx, saasOrigLog, async ({ actor, query }) => ok(await analysis(ctx, actor, 'orig_scr_log', query)));
  route(app, ctx, saasOrigLogTop, async ({ actor, query }) => ok(await analysis(ctx, actor, 'orig_scr_log_top', query)));
  route(app, ctx, saasBandwidth, async ({ actor, body }) => {
    await devices.setBandwidth(ctx, actor, body.router_name, body.bandwidth);
    return ok(null, M.saved);
  });
}
