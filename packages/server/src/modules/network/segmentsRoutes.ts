import { getCenterLinkNetwork, getPointLink, getPrefix } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as segments from './segments';

/** The network detail's segment and link settings as read (spec 2 §7); their changes are in changes.ts. */
export function segmentsRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getPrefix, async ({ actor, query }) => ok(await segments.prefixes(ctx, actor, query.network_number)));
  route(app, ctx, getCenterLinkNetwork, async ({ actor, query }) => ok(await segments.centerLinkNetwork(ctx, actor, query.network_number)));
  route(app, ctx, getPointLink, async ({ actor, query }) => ok(await segments.pointLinks(ctx, actor, query.network_number)));
}
