import { connectLog, exportLogs, onlineLog, softwareLoginLog } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { exportLog } from './export';
import * as logs from './service';

export function logsRoutes(app: App, ctx: Ctx) {
  route(app, ctx, softwareLoginLog, async ({ actor, query }) => {
    const { rows, count } = await logs.softwareLogins(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, onlineLog, async ({ actor, query }) => {
    const { rows, count } = await logs.onlineSessions(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, connectLog, async ({ actor, query }) => {
    const { rows, count } = await logs.connections(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, exportLogs, async ({ actor, query }) => ok(await exportLog(ctx, actor, query)));
}
