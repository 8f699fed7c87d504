import { changeRamPassword, createRam, deleteRam, editRam, listRam, M, ramDomain, ramInfo, ramLog, ramQuantity } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as ram from './service';

export function ramRoutes(app: App, ctx: Ctx) {
  route(app, ctx, changeRamPassword, async ({ actor, body }) => {
    await ram.changeOwnPassword(ctx, actor, body.old_password, body.password);
    return ok(null, M.modified);
  });
  route(app, ctx, ramDomain, async ({ actor }) => ok(await ram.domainOf(ctx, actor)));
  route(app, ctx, ramQuantity, async ({ actor }) => ok(await ram.quantity(ctx, actor)));
  route(app, ctx, ramInfo, async ({ actor, query }) => ok(await ram.info(ctx, actor, query.id)));
  route(app, ctx, listRam, async ({ actor, query }) => {
    const { rows, count } = await ram.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, createRam, async ({ actor, body }) => ok({ id: await ram.create(ctx, actor, body) }, M.saved));
  route(app, ctx, editRam, async ({ actor, body }) => {
    await ram.edit(ctx, actor, body);
    return ok(null, M.updated);
  });
  route(app, ctx, deleteRam, async ({ actor, body }) => {
    await ram.remove(ctx, actor, body.id);
    return ok(null, M.deleted);
  });
  route(app, ctx, ramLog, async ({ actor, query }) => {
    const { rows, count } = await ram.log(ctx, actor, query);
    return ok(rows, 'success', count);
  });
}
