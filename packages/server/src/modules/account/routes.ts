import {
  defaultEmail,
  defaultPhone,
  editData,
  editEmail,
  editPassword,
  editPhone,
  editSign,
  getAccountData,
  M,
  validateEmail,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import { confirmEmailValidation } from '../../core/emailValidation';
import * as account from './service';

export function accountRoutes(app: App, ctx: Ctx) {
  route(app, ctx, getAccountData, async ({ actor }) => ok(await account.data(ctx, actor)));
  route(app, ctx, editData, async ({ actor, body }) => {
    await account.editData(ctx, actor, body);
    return ok(null, M.saved);
  });
  route(app, ctx, editPassword, async ({ actor, body }) => {
    await account.editPassword(ctx, actor, body.new_password);
    return ok(null, M.modified);
  });
  route(app, ctx, editEmail, async ({ actor, body }) => {
    await account.editEmail(ctx, actor, body.email, body.code);
    return ok(null, M.modified);
  });
  route(app, ctx, editPhone, async ({ actor, body }) => {
    await account.editPhone(ctx, actor, body.area_code, body.phone, body.code);
    return ok(null, M.modified);
  });
  route(app, ctx, defaultPhone, async ({ actor, body }) => ok(null, await account.bindPhone(ctx, actor, body)));
  route(app, ctx, defaultEmail, async ({ actor, body }) => ok(null, await account.bindEmail(ctx, actor, body)));
  route(app, ctx, editSign, async ({ actor, body }) => {
    await account.editSign(ctx, actor, body.sign);
    return ok(null, M.modified);
  });
  route(app, ctx, validateEmail, async ({ body }) => {
    await confirmEmailValidation(ctx, body.s);
    return ok(null, M.emailValidated);
  });
}
