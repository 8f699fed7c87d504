import { changeRamPassword, M } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as ram from './service';

export function ramRoutes(app: App, ctx: Ctx) {
  route(app, ctx, changeRamPassword, async ({ actor, body }) => {
    await ram.changeOwnPassword(ctx, actor, body.old_password, body.password);
    return ok(null, M.modified);
  });
}
