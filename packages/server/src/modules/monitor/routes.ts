import {
  contactInfo,
  createContact,
  createWebhook,
  deleteWebhook,
  editWebhook,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  testWebhook,
  deleteContact,
  editContact,
  listContacts,
  M,
  monitorClose,
  monitorConfig,
  monitorEnable,
  monitorRouters,
  monitorSetting,
  sendContactValidation,
  webhookConfig,
  webhookDelete,
  webhookSetting,
  webhookTest,
} from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { ok } from '../../core/errors';
import { route, type App } from '../../core/http';
import * as contacts from './contacts';
import * as deliveryList from './deliveryList';
import * as settings from './settings';
import * as webhook from './webhook';
import * as webhooks from './webhooks';

/** /monitor/*, /contacts/*, /webhook/* (spec 3 §7) and /webhooks/* (issue 33); POST /contacts/validate_email is the account module's. */
export function monitorRoutes(app: App, ctx: Ctx) {
  route(app, ctx, monitorConfig, async ({ actor }) => ok(await settings.config(ctx, actor)));
  route(app, ctx, monitorRouters, async ({ actor }) => ok(await settings.routers(ctx, actor)));
  route(app, ctx, monitorSetting, async ({ actor, body }) => {
    await settings.save(ctx, actor, body);
    return ok(null, M.saved);
  });
  route(app, ctx, monitorEnable, async ({ actor }) => {
    await settings.enable(ctx, actor);
    return ok(null, M.monitorStarted);
  });
  route(app, ctx, monitorClose, async ({ actor }) => {
    await settings.close(ctx, actor);
    return ok(null, M.monitorClosed);
  });

  route(app, ctx, listContacts, async ({ actor, query }) => {
    const { rows, count } = await contacts.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, contactInfo, async ({ actor, query }) => ok(await contacts.info(ctx, actor, query.uuid)));
  route(app, ctx, createContact, async ({ actor, body }) => ok({ uuid: await contacts.create(ctx, actor, body) }, M.saved));
  route(app, ctx, editContact, async ({ actor, body }) => {
    await contacts.edit(ctx, actor, body);
    return ok(null, M.saved);
  });
  route(app, ctx, deleteContact, async ({ actor, body }) => {
    await contacts.remove(ctx, actor, body.uuid);
    return ok(null, M.deleted);
  });
  route(app, ctx, sendContactValidation, async ({ actor, body, req }) => {
    // The link opens the console where the operator says it lives, else where this request came to.
    await contacts.sendValidation(ctx, actor, body.uuid, ctx.config.publicUrl ?? `${req.protocol}://${req.host}`);
    return ok(null, M.contactMailSent);
  });

  route(app, ctx, webhookConfig, async ({ actor }) => ok(await webhook.webhookOf(ctx, actor)));
  route(app, ctx, webhookSetting, async ({ actor, body }) => {
    await webhook.save(ctx, actor, body);
    return ok(null, M.webhookSaved);
  });
  route(app, ctx, webhookTest, async ({ actor, body }) => {
    await webhook.test(ctx, actor, body);
    return ok(null, M.webhookTestOk);
  });
  route(app, ctx, webhookDelete, async ({ actor }) => {
    await webhook.remove(ctx, actor);
    return ok(null, M.deleted);
  });

  route(app, ctx, listWebhooks, async ({ actor }) => ok(await webhooks.list(ctx, actor)));
  route(app, ctx, createWebhook, async ({ actor, body }) => ok({ uuid: await webhooks.create(ctx, actor, body) }, M.webhookSaved));
  route(app, ctx, editWebhook, async ({ actor, body }) => {
    await webhooks.edit(ctx, actor, body);
    return ok(null, M.webhookSaved);
  });
  route(app, ctx, deleteWebhook, async ({ actor, body }) => {
    await webhooks.remove(ctx, actor, body.uuid);
    return ok(null, M.deleted);
  });
  route(app, ctx, testWebhook, async ({ actor, body }) => {
    await webhooks.test(ctx, actor, body.uuid);
    return ok(null, M.webhookTestOk);
  });
  route(app, ctx, listDeliveries, async ({ actor, query }) => {
    const { rows, count } = await deliveryList.list(ctx, actor, query);
    return ok(rows, 'success', count);
  });
  route(app, ctx, resendDelivery, async ({ actor, body }) => {
    await deliveryList.resend(ctx, actor, body.id);
    return ok(null, M.deliveryResent);
  });
}
