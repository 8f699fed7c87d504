import {
  editCenterGateway,
  editCenterLinkGateway,
  editPrefix,
  enableCenterLink,
  getCenterLinkNetwork,
  getPointLink,
  getPrefix,
  M,
  setCenterLink,
  setFixedPort,
  setPointLink,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as segments from './segments';

/** The network detail's segment and link settings (spec 2 §7). */
export function segmentsRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getPrefix, async ({ actor, query }) => ok(await segments.prefixes(ctx, actor, query.network_number)));
  route(app, ctx, editPrefix, async ({ actor, body }) => {
    await segments.editPrefix(ctx, actor, body.network_number, body.prefix ?? []);
    return ok(null, M.saved);
  });
  route(app, ctx, setFixedPort, async ({ actor, body }) => {
    await segments.setFixedPort(ctx, actor, body);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, editCenterGateway, async ({ actor, body }) => {
    await segments.editCenterGateway(ctx, actor, body);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, enableCenterLink, async ({ actor, body }) => {
    await segments.enableInterconnect(ctx, actor, body.network_number, body.enable);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, editCenterLinkGateway, async ({ actor, body }) => {
    await segments.editInterconnectSegment(ctx, actor, body.network_number, { gateway: body.gateway, mask: body.mask });
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, getCenterLinkNetwork, async ({ actor, query }) => ok(await segments.centerLinkNetwork(ctx, actor, query.network_number)));
  route(app, ctx, setCenterLink, async ({ actor, body }) => {
    await segments.setCenterLink(ctx, actor, body);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, getPointLink, async ({ actor, query }) => ok(await segments.pointLinks(ctx, actor, query.network_number)));
  route(app, ctx, setPointLink, async ({ actor, body }) => {
    await segments.setPointLinks(ctx, actor, body.network_number, body.link_config ?? {});
    return ok(null, M.saved);
  });
}
