import {
  accountInfo,
  authenticate,
  findPassword,
  findPasswordCode,
  getCaptcha,
  login,
  loginRam,
  logout,
  M,
  refreshToken,
  register,
  resetPassword,
  sendCode,
  sendRegisterCode,
  verifyCode,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { RATE_LIMITS } from '../../core/ratelimit';
import * as auth from './service';
import { userMessage } from './users';

export function authRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getCaptcha, async ({ ip }) => {
    await ctx.limiter.hit({ ...RATE_LIMITS.captchaPerIp, message: M.tooManyRequests }, ip);
    return ok(await ctx.captcha.create());
  });
  route(app, ctx, login, async ({ body, ip }) => ok(await auth.login(ctx, body, ip), M.loginSuccess));
  route(app, ctx, loginRam, async ({ body, ip }) => ok(await auth.loginRam(ctx, body, ip), M.loginSuccess));
  route(app, ctx, refreshToken, async ({ headers }) => ok(await auth.refresh(ctx, headers.authorization)));
  route(app, ctx, logout, async ({ actor }) => {
    await auth.logout(ctx, actor);
    return ok(null, M.logoutSuccess);
  });
  route(app, ctx, accountInfo, async ({ actor }) => ok(await userMessage(ctx, actor.tenantId, actor.ramId)));

  route(app, ctx, sendRegisterCode, async ({ body, ip }) => {
    await auth.sendRegisterCode(ctx, body.send_type, body.send_value, ip);
    return ok(null, M.codeSent);
  });
  route(app, ctx, register, async ({ body, ip }) => {
    await auth.register(ctx, body, ip);
    return ok(null, M.registerSuccess);
  });

  route(app, ctx, findPassword, async ({ body, ip }) => ok(await auth.findPassword(ctx, body, ip)));
  route(app, ctx, findPasswordCode, async ({ body, ip }) => {
    await auth.findPasswordCode(ctx, body.uniqid, body.send_type, ip);
    return ok(null, M.codeSent);
  });
  route(app, ctx, authenticate, async ({ body }) => {
    await auth.authenticateRecovery(ctx, body.uniqid, body.send_type, body.code);
    return ok(null, M.verifySuccess);
  });
  route(app, ctx, resetPassword, async ({ body }) => {
    await auth.resetPassword(ctx, body.uniqid, body.password);
    return ok(null, M.resetSuccess);
  });

  route(app, ctx, sendCode, async ({ actor, body, ip }) => {
    await auth.sendCode(ctx, actor, body, ip);
    return ok(null, M.codeSent);
  });
  route(app, ctx, verifyCode, async ({ actor, body }) => {
    await auth.verifyCode(ctx, actor, body);
    return ok(null, M.verifySuccess);
  });
}
