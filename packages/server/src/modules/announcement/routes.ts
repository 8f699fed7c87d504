import { announcementInfo, listAnnouncements } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as announcements from './service';

export function announcementRoutes(app: App, ctx: Ctx) {
  route(app, ctx, listAnnouncements, async ({ query }) => {
    const { rows, count } = await announcements.list(ctx, query.page, query.limit);
    return ok(rows, 'success', count);
  });
  route(app, ctx, announcementInfo, async ({ query }) => ok(await announcements.info(ctx, query.id)));
}
