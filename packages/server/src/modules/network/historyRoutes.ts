import { compareNetworkVersions, fmt, getNetworkVersion, listNetworkVersions, M, rollbackNetwork } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as history from './history';

/** The network detail's 配置历史 (issue 18). */
export function historyRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listNetworkVersions, async ({ actor, query }) => {
    const { rows, count } = await history.list(ctx, actor, query.network_number, query.page, query.limit);
    return ok(rows, 'success', count);
  });
  route(app, ctx, getNetworkVersion, async ({ actor, query }) => ok(await history.get(ctx, actor, query.network_number, query.version)));
  route(app, ctx, compareNetworkVersions, async ({ actor, query }) => ok(await history.compare(ctx, actor, query.network_number, query.a, query.b)));
  route(app, ctx, rollbackNetwork, async ({ actor, body }) => {
    const version = await history.rollback(ctx, actor, body.network_number, body.version);
    return ok({ version }, fmt(M.histRollbackDone, { n: body.version }));
  });
}
