import {
  disableQuagga,
  editRouting,
  enableQuagga,
  getRouting,
  killUser,
  M,
  resendConfig,
  resetRespawn,
  setCiphers,
  setDefaultRoute,
  setDns,
  setQuagga,
  setSoftwareMode,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as settings from './settings';

/** The network detail's settings dialogs and member commands (spec 2 §7). */
export function settingsRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getRouting, async ({ actor, query }) => ok(await settings.routing(ctx, actor, query.network_number)));
  route(app, ctx, editRouting, async ({ actor, body }) => {
    await settings.editRouting(ctx, actor, body);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, setDns, async ({ actor, body }) => {
    await settings.setDns(ctx, actor, body.network_number, body.dns);
    return ok(null, M.saved);
  });
  route(app, ctx, setDefaultRoute, async ({ actor, body }) => {
    await settings.setDefaultRoute(ctx, actor, body);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, setCiphers, async ({ actor, body }) => {
    await settings.setCiphers(ctx, actor, body.network_number, body.ncp_ciphers);
    return ok(null, M.modified);
  });
  route(app, ctx, setSoftwareMode, async ({ actor, body }) => {
    await settings.setDialMode(ctx, actor, body.network_number, body.router_name, body.mode);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, setQuagga, async ({ actor, body }) => {
    await settings.setQuagga(ctx, actor, body.network_number, body.router_name, body.enable);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, enableQuagga, async ({ actor, body }) => {
    await settings.setQuaggaAll(ctx, actor, body.network_number, 1);
    return ok(null, M.networkSetDone);
  });
  route(app, ctx, disableQuagga, async ({ actor, body }) => {
    await settings.setQuaggaAll(ctx, actor, body.network_number, 0);
    return ok(null, M.networkSetDone);
  });
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
