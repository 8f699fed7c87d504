import { getMemberConfig } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { ok } from '../core/errors';
import { route, type App } from '../core/http';
import { memberConfigOf } from './memberConfig';

/** The compiler's one call: a member's current configuration, for support. */
export function compilerRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getMemberConfig, async ({ actor, query }) => ok(await memberConfigOf(ctx, actor, query.network_number, query.router_name)));
}
