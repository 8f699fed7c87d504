import {
  AUTH_SOURCE_STATUS,
  authorizeAuthSource,
  authSourceCallback,
  authSourceCode,
  authSourceInfo,
  authSourceToken,
  createAuthSource,
  deleteAuthSource,
  disableAuthSource,
  editAuthSource,
  enableAuthSource,
  listAuthSources,
  loginSources,
  M,
  selfAuthorize,
  vpnWebSignIn,
  selfTicket,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { RedirectAnswer, route, type App } from '../../core/http';
import * as login from './login';
import { originOf } from './origin';
import * as sources from './service';
import * as webAuth from './webAuth';

export function authSourceRoutes(app: App, ctx: Ctx) {
  // the console (spec 3 §7)
  route(app, ctx, authSourceCode, async ({ actor, req }) => ok(await sources.codeAndConfig(ctx, actor, originOf(ctx, req))));
  route(app, ctx, listAuthSources, async ({ actor, query }) => {
    const { rows, count } = await sources.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, authSourceInfo, async ({ actor, query }) => ok(await sources.info(ctx, actor, query.id)));
  route(app, ctx, createAuthSource, async ({ actor, body }) => ok({ id: await sources.create(ctx, actor, body) }, M.saved));
  route(app, ctx, editAuthSource, async ({ actor, body }) => {
    await sources.edit(ctx, actor, body);
    return ok(null, M.saved);
  });
  route(app, ctx, enableAuthSource, async ({ actor, body }) => {
    await sources.setStatus(ctx, actor, body.id, AUTH_SOURCE_STATUS.enabled);
    return ok(null, M.authSourceEnabled);
  });
  route(app, ctx, disableAuthSource, async ({ actor, body }) => {
    await sources.setStatus(ctx, actor, body.id, AUTH_SOURCE_STATUS.disabled);
    return ok(null, M.authSourceDisabledDone);
  });
  route(app, ctx, deleteAuthSource, async ({ actor, body }) => {
    await sources.remove(ctx, actor, body.id);
    return ok(null, M.deleted);
  });

  // a member's client signing in (public)
  route(app, ctx, loginSources, async ({ ip, query }) => ok(await login.sourcesFor(ctx, ip, query.code)));
  route(app, ctx, authorizeAuthSource, async ({ ip, query, req }) => new RedirectAnswer(await login.authorize(ctx, ip, originOf(ctx, req), query)));
  // A standard OpenVPN client's web sign-in (webAuth.ts) comes back through the same callback.
  route(app, ctx, authSourceCallback, async ({ ip, query }) => (await webAuth.vpnCallback(ctx, ip, query)) ?? new RedirectAnswer(await login.callback(ctx, ip, query)));
  route(app, ctx, vpnWebSignIn, async ({ ip, query, req }) => webAuth.startVpnSignIn(ctx, ip, originOf(ctx, req), query.token));
  route(app, ctx, authSourceToken, async ({ ip, body }) => ok(await login.redeem(ctx, ip, body.ticket, body.code_verifier)));

  // a member signing in on the console's self-service page (public; issue 30)
  route(app, ctx, selfAuthorize, async ({ ip, query, req }) => new RedirectAnswer(await login.authorizeForPage(ctx, ip, originOf(ctx, req), query)));
  route(app, ctx, selfTicket, async ({ ip, body }) => ok(await login.redeemForPage(ctx, ip, body.ticket, body.code_verifier)));
}
