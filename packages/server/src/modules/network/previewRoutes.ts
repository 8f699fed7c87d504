import { previewNetworkChange } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { previewChange } from './preview';

/** A settings change's effect, before it is saved (issue 36). */
export function previewRoutes(app: App, ctx: Ctx) {
  route(app, ctx, previewNetworkChange, async ({ actor, body, ip }) => ok(await previewChange(ctx, actor, body.network_number, body.path, body.body, ip)));
}
