import { createApiToken, listApiTokens, M, revokeApiToken } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as tokens from './service';

export function apiTokenRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listApiTokens, async ({ actor, query }) => {
    const { rows, count } = await tokens.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, createApiToken, async ({ actor, body }) => ok(await tokens.create(ctx, actor, body), M.apiTokenCreated));
  route(app, ctx, revokeApiToken, async ({ actor, body }) => {
    await tokens.revoke(ctx, actor, body.id);
    return ok(null, M.apiTokenRevoked);
  });
}
