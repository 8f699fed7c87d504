import { downloadAndroid, downloadIos, downloadLinux, downloadMacos, downloadVersion, downloadWindows, LIMITS } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as releases from './service';

/** Mounted at DOWNLOAD_BASE (/api): spec 3 §7's {external}/api/download/*, open to everyone. */
export function downloadRoutes(app: App, ctx: Ctx) {
  route(app, ctx, downloadVersion, async ({ reply }) => {
    const data = await releases.versions(ctx);
    reply.header('cache-control', `public, max-age=${LIMITS.documentCacheSeconds}`);
    return ok(data);
  });
  route(app, ctx, downloadWindows, () => releases.download(ctx, 'windows'));
  route(app, ctx, downloadMacos, () => releases.download(ctx, 'macos'));
  route(app, ctx, downloadAndroid, () => releases.download(ctx, 'android'));
  route(app, ctx, downloadIos, () => releases.download(ctx, 'ios'));
  route(app, ctx, downloadLinux, ({ query }) => releases.download(ctx, 'linux', query));
}
