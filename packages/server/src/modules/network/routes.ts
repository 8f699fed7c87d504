import {
  addNetworkMember,
  createNetwork,
  deleteNetwork,
  editNetwork,
  listNetworks,
  M,
  networkConfig,
  networkInfo,
  networkMembers,
  networkStatus,
  removeNetworkMember,
  renameNetwork,
  selectNetworks,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as detail from './detail';
import * as queries from './queries';
import * as networks from './service';

export function networkRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listNetworks, async ({ actor, query }) => {
    const { rows, count } = await queries.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, networkConfig, async ({ actor }) => ok(await queries.config(ctx, actor)));
  route(app, ctx, selectNetworks, async ({ actor }) => ok(await queries.select(ctx, actor)));
  route(app, ctx, networkInfo, async ({ actor, query }) => ok(await detail.info(ctx, actor, query.network_number, query)));
  route(app, ctx, networkStatus, async ({ actor, query }) => ok(await detail.status(ctx, actor, query.network_number, query)));
  route(app, ctx, networkMembers, async ({ actor, query }) => ok(await detail.members(ctx, actor, query.network_number, query.member_type)));
  route(app, ctx, createNetwork, async ({ actor, body }) => ok({ network_number: await networks.create(ctx, actor, body) }, M.saved));
  route(app, ctx, editNetwork, async ({ actor, body }) => {
    await networks.edit(ctx, actor, body);
    return ok(null, M.saved);
  });
  route(app, ctx, renameNetwork, async ({ actor, body }) => {
    await networks.rename(ctx, actor, body.network_number, body.network_name);
    return ok(null, M.modified);
  });
  route(app, ctx, deleteNetwork, async ({ actor, body }) => {
    await networks.remove(ctx, actor, body.network_number);
    return ok(null, M.deleted);
  });
  route(app, ctx, addNetworkMember, async ({ actor, body }) => {
    await networks.addMember(ctx, actor, body.network_number, body.router_name, body.member_type);
    return ok(null, M.saved);
  });
  route(app, ctx, removeNetworkMember, async ({ actor, body }) => {
    await networks.removeMember(ctx, actor, body.network_number, body.router_name);
    return ok(null, M.deleted);
  });
}
