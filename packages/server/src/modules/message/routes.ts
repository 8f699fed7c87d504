import { deleteMessages, listMessages, M, markMessagesRead, messageInfo } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as messages from './service';

export function messageRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listMessages, async ({ actor, query }) => {
    const { rows, count } = await messages.list(ctx, actor, query.page, query.limit, query.type);
    return ok(rows, 'success', count);
  });
  route(app, ctx, messageInfo, async ({ actor, query }) => ok(await messages.open(ctx, actor, query.message_id)));
  route(app, ctx, markMessagesRead, async ({ actor, body }) => {
    await messages.markRead(ctx, actor, body);
    return ok(null, M.updated);
  });
  route(app, ctx, deleteMessages, async ({ actor, body }) => {
    await messages.remove(ctx, actor, body);
    return ok(null, M.deleted);
  });
}
