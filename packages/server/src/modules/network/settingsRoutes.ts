import { getRouting, killUser, M, resendConfig, resetRespawn } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as settings from './settings';

/** The network detail's routing read and member commands (spec 2 §7); the settings changes are in changes.ts. */
export function settingsRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getRouting, async ({ actor, query }) => ok(await settings.routing(ctx, actor, query.network_number)));
  route(app, ctx, killUser, async ({ actor, body }) => {
    await settings.commandOnline(ctx, actor, body.network_number, body.router_name, 'kill');
    return ok(null, M.networkCommandQueued);
  });
  route(app, ctx, resetRespawn, async ({ actor, body }) => {
    await settings.commandOnline(ctx, actor, body.network_number, body.router_name, 'restart');
    return ok(null, M.networkCommandQueued);
  });
  route(app, ctx, resendConfig, async ({ actor, body }) => {
    await settings.resendConfig(ctx, actor, body.network_number, body.router_name);
    return ok(null, M.networkConfigQueued);
  });
}
