import { createRole, deleteRole, editRole, listRoles, M, roleInfo, selectRoles } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as roles from './service';

export function ramRoleRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listRoles, async ({ actor, query }) => {
    const { rows, count } = await roles.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, roleInfo, async ({ actor, query }) => ok(await roles.info(ctx, actor, query.id)));
  route(app, ctx, selectRoles, async ({ actor }) => ok(await roles.select(ctx, actor)));
  route(app, ctx, createRole, async ({ actor, body }) => ok({ id: await roles.create(ctx, actor, body) }, M.saved));
  route(app, ctx, editRole, async ({ actor, body }) => {
    await roles.edit(ctx, actor, body);
    return ok(null, M.updated);
  });
  route(app, ctx, deleteRole, async ({ actor, body }) => {
    await roles.remove(ctx, actor, body.id);
    return ok(null, M.deleted);
  });
}
