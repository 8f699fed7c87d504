import { documentImage, documentInfo, documentMenu, LIMITS } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { FileAnswer, route, type App } from '../../core/http';
import * as documents from './service';

/** The menu and documents change only by an import: a browser or proxy may keep them a minute. */
const SHORT = `public, max-age=${LIMITS.documentCacheSeconds}`;
/** An image's name is its digest: it never changes. */
const FOREVER = 'public, max-age=31536000, immutable';

export function documentRoutes(app: App, ctx: Ctx) {
  route(app, ctx, documentMenu, async ({ reply }) => {
    const data = await documents.menu(ctx);
    reply.header('cache-control', SHORT);
    return ok(data);
  });
  route(app, ctx, documentInfo, async ({ query, reply }) => {
    const data = await documents.info(ctx, query.id);
    reply.header('cache-control', SHORT);
    return ok(data);
  });
  route(app, ctx, documentImage, async ({ query }) => {
    const { stream, contentType, size } = await documents.image(ctx, query.name);
    return new FileAnswer(query.name, contentType, stream, { size, cacheControl: FOREVER });
  });
}
