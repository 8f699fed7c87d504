import { selfDownload, selfLogin, selfLogout, selfProfile, selfProfileLink, selfProfiles } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { ok } from '../core/errors';
import { route, type App } from '../core/http';
import { endMemberSession } from '../core/memberSessions';
import { originOf } from '../modules/auth-source/origin';
import * as self from './service';

/** The self-service page's calls (issue 30); its source sign-in (/self/authorize, /self/ticket) is the auth-source module's. */
export function selfServiceRoutes(app: App, ctx: Ctx) {
  route(app, ctx, selfLogin, async ({ ip, body }) => ok(await self.signIn(ctx, ip, body.login, body.password)));
  route(app, ctx, selfProfiles, async ({ member }) => ok(await self.profilesOf(ctx, member)));
  route(app, ctx, selfProfile, async ({ member, query }) => self.profileOf(ctx, member, query.network_number));
  route(app, ctx, selfProfileLink, async ({ member, body, req }) => ok(await self.linkFor(ctx, member, originOf(ctx, req), body.network_number)));
  route(app, ctx, selfDownload, async ({ query }) => self.download(ctx, query.token));
  route(app, ctx, selfLogout, async ({ req }) => {
    await endMemberSession(ctx, req.headers.authorization);
    return ok(null);
  });
}
