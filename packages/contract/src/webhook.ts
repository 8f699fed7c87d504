import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { idField, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, monitorMessages } from './messages';
import { ALERT_KINDS } from './monitor';

/** The webhook types of spec 3 §3 with their labels; DingTalk is the default. */
export const WEBHOOK_TYPES = {
  dingtalk: monitorMessages.webhookTypeDingtalk,
  feishu: monitorMessages.webhookTypeFeishu,
  wecom: monitorMessages.webhookTypeWecom,
  other: monitorMessages.webhookTypeOther,
} as const;
export type WebhookType = keyof typeof WEBHOOK_TYPES;
export const DEFAULT_WEBHOOK_TYPE: WebhookType = 'dingtalk';

/** Whether a type signs its messages with a secret (WeCom group robots do not). */
export const webhookUsesSecret = (type: WebhookType) => type !== 'wecom';

/** What a stored secret reads as: sending it back unchanged keeps the stored one. */
export const SECRET_MASK = '******';

/** An absolute http(s) URL without credentials in it. */
export function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

const webhookFields = z.object({
  type: z.enum(Object.keys(WEBHOOK_TYPES) as [WebhookType, ...WebhookType[]], { error: monitorMessages.webhookTypeRequired }),
  url: requiredString(monitorMessages.webhookUrlRequired)
    .max(LIMITS.webhookUrlMax, fmt(monitorMessages.webhookUrlTooLong, { n: LIMITS.webhookUrlMax }))
    .refine(isWebhookUrl, monitorMessages.webhookUrlInvalid),
  secret: plainText(BM.validationFailed)
    .max(LIMITS.webhookSecretMax, fmt(monitorMessages.webhookSecretTooLong, { n: LIMITS.webhookSecretMax }))
    .default(''),
});

/** The tenant's webhook; `secret` is SECRET_MASK when one is stored ('' when none), never the secret. */
export const webhookData = z.object({
  type: z.enum(Object.keys(WEBHOOK_TYPES) as [WebhookType, ...WebhookType[]]),
  url: z.string(),
  secret: z.string(),
});
export type WebhookData = z.infer<typeof webhookData>;

/** GET /webhook/config: the webhook, or null when none is configured. */
export const webhookConfig = defineEndpoint({
  path: '/webhook/config',
  method: 'GET',
  access: 'monitor.view',
  response: webhookData.nullable(),
});

/** POST /webhook/setting: stores the webhook (the secret sealed; none for WeCom). */
export const webhookSetting = defineEndpoint({
  path: '/webhook/setting',
  method: 'POST',
  access: 'monitor.edit',
  body: webhookFields,
  response: noData,
});

/**
 * POST /webhook/test: sends a test message to the given webhook now and answers what its provider
 * said: 200 when it took the message, 422 with the reason otherwise.
 */
export const webhookTest = defineEndpoint({
  path: '/webhook/test',
  method: 'POST',
  access: 'monitor.edit',
  body: webhookFields,
  response: noData,
});

/** POST /webhook/delete: removes the webhook; webhook notifications switch off with it. */
export const webhookDelete = defineEndpoint({
  path: '/webhook/delete',
  method: 'POST',
  access: 'monitor.edit',
  response: noData,
});

/*
 * Several webhooks per tenant (issue 33): each has a name, the alert kinds it gets and whom its
 * messages mention. The calls of spec 3 above act on the tenant's default webhook, its oldest one.
 */

/** A webhook's id as the calls carry it (a UUID). */
export const webhookUuid = plainText(BM.validationFailed).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, BM.validationFailed);

/** A user id a provider mentions: DingTalk's userId, Feishu's open_id / user_id, WeCom's userid. */
export const WEBHOOK_USER_ID_PATTERN = /^[A-Za-z0-9_.@-]+$/;

/** Whom each provider can mention: DingTalk both lists, Feishu user ids only, WeCom both; 'other' none. */
export const webhookMentionsAllowed = (type: WebhookType) => ({
  mobiles: type === 'dingtalk' || type === 'wecom',
  userIds: type !== 'other',
  all: type !== 'other',
});

const mentionList = (pattern: RegExp, invalidMessage: string, max: number) =>
  z
    .array(plainText(BM.validationFailed).trim(), { error: BM.validationFailed })
    .max(LIMITS.webhookMentionsMax, fmt(monitorMessages.webhookMentionsTooMany, { n: LIMITS.webhookMentionsMax }))
    .default([])
    .superRefine((values, ctx) => {
      const seen = new Set<string>();
      for (const value of values) {
        if (value.length > max || !pattern.test(value)) {
          ctx.addIssue({ code: 'custom', message: fmt(invalidMessage, { value: value.slice(0, LIMITS.webhookUserIdMax) }) });
          return;
        }
        if (seen.has(value)) {
          ctx.addIssue({ code: 'custom', message: fmt(monitorMessages.webhookMentionDuplicate, { value }) });
          return;
        }
        seen.add(value);
      }
    });

/** A mainland mobile number as DingTalk's atMobiles and WeCom's mentioned_mobile_list take it. */
export const WEBHOOK_MOBILE_PATTERN = /^1[3-9]\d{9}$/;

const ALERT_KIND_ENUM = z.enum(ALERT_KINDS, { error: BM.validationFailed });

const webhookItemFields = webhookFields.extend({
  name: requiredString(monitorMessages.webhookNameRequired).max(LIMITS.webhookNameMax, fmt(monitorMessages.webhookNameTooLong, { n: LIMITS.webhookNameMax })),
  kinds: z
    .array(ALERT_KIND_ENUM, { error: monitorMessages.webhookKindsRequired })
    .min(1, monitorMessages.webhookKindsRequired)
    .max(ALERT_KINDS.length, BM.validationFailed)
    .transform((kinds) => ALERT_KINDS.filter((k) => kinds.includes(k))),
  at_mobiles: mentionList(WEBHOOK_MOBILE_PATTERN, monitorMessages.webhookMobileInvalid, 11),
  at_user_ids: mentionList(WEBHOOK_USER_ID_PATTERN, monitorMessages.webhookUserIdInvalid, LIMITS.webhookUserIdMax),
  at_all: z.union([z.literal(0), z.literal(1)], { error: BM.validationFailed }).default(0),
});

/** The mentions a type cannot carry are refused, not dropped: the operator would believe someone is paged. */
const mentionsFit = <T extends { type: WebhookType; at_mobiles: string[]; at_user_ids: string[]; at_all: 0 | 1 }>(v: T, ctx: z.RefinementCtx) => {
  const allowed = webhookMentionsAllowed(v.type);
  if (v.type === 'other' && (v.at_mobiles.length > 0 || v.at_user_ids.length > 0 || v.at_all === 1)) {
    ctx.addIssue({ code: 'custom', path: ['at_user_ids'], message: monitorMessages.webhookOtherNoMentions });
  } else if (!allowed.mobiles && v.at_mobiles.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['at_mobiles'], message: monitorMessages.webhookFeishuNoMobiles });
  }
};

const webhookItemBody = webhookItemFields.superRefine(mentionsFit);

/** What a delivery's status can be (monitor_delivery.status); 'pending' after a failed attempt is a retry. */
export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed', 'cancelled', 'logged'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A webhook as the list answers it: the secret only as SECRET_MASK, the URL whole only to whoever may edit monitoring. */
export const webhookItem = z.object({
  uuid: z.string(),
  name: z.string(),
  type: z.enum(Object.keys(WEBHOOK_TYPES) as [WebhookType, ...WebhookType[]]),
  url: z.string(),
  secret: z.string(),
  kinds: z.array(z.enum(ALERT_KINDS)),
  at_mobiles: z.array(z.string()),
  at_user_ids: z.array(z.string()),
  at_all: z.union([z.literal(0), z.literal(1)]),
  /** The default webhook (the oldest): the one /webhook/config and /webhook/setting act on. */
  is_default: z.union([z.literal(0), z.literal(1)]),
  /** The newest delivery's status and when it was last updated ('yyyy-MM-dd HH:mm:ss'); '' when none. */
  last_status: z.union([z.enum(DELIVERY_STATUSES), z.literal('')]),
  last_attempts: z.number(),
  last_time: z.string(),
  last_error: z.string(),
});
export type WebhookItem = z.infer<typeof webhookItem>;

/** GET /webhooks/lists: every webhook of the tenant, oldest (the default) first. */
export const listWebhooks = defineEndpoint({
  path: '/webhooks/lists',
  method: 'GET',
  access: 'monitor.view',
  response: z.array(webhookItem),
});

/** POST /webhooks/create: at most LIMITS.webhooksMax a tenant; names are unique in the tenant. */
export const createWebhook = defineEndpoint({
  path: '/webhooks/create',
  method: 'POST',
  access: 'monitor.edit',
  body: webhookItemBody,
  response: z.object({ uuid: z.string() }),
});

/** POST /webhooks/edit: the secret sent back as SECRET_MASK keeps the stored one. */
export const editWebhook = defineEndpoint({
  path: '/webhooks/edit',
  method: 'POST',
  access: 'monitor.edit',
  body: webhookItemFields.extend({ uuid: webhookUuid }).superRefine(mentionsFit),
  response: noData,
});

/** POST /webhooks/delete: when the last one goes, webhook notifications switch off. */
export const deleteWebhook = defineEndpoint({
  path: '/webhooks/delete',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object({ uuid: webhookUuid }),
  response: noData,
});

/** POST /webhooks/test: a test message, with the webhook's mentions, to a stored webhook now. */
export const testWebhook = defineEndpoint({
  path: '/webhooks/test',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object({ uuid: webhookUuid }),
  response: noData,
});

/** One delivery of an alert to a webhook or a mailbox. */
export const deliveryItem = z.object({
  id: z.number(),
  channel: z.enum(['portal', 'email', 'webhook']),
  /** The webhook's name, or the mailbox (masked for whoever may not edit monitoring); 'portal'. */
  target: z.string(),
  webhook_uuid: z.string(),
  title: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  /** The provider's (or mail server's) answer to the last failed attempt; '' when none. */
  error: z.string(),
  create_time: z.string(),
  update_time: z.string(),
});
export type DeliveryItem = z.infer<typeof deliveryItem>;

/** GET /webhooks/deliveries: the newest deliveries first, of one webhook (uuid) or of a channel, 10 a page. */
export const listDeliveries = defineEndpoint({
  path: '/webhooks/deliveries',
  method: 'GET',
  access: 'monitor.view',
  query: pageQuery.extend({
    uuid: webhookUuid.optional(),
    channel: z.enum(['email', 'webhook'], { error: BM.validationFailed }).optional(),
    status: z.enum(DELIVERY_STATUSES, { error: BM.validationFailed }).optional(),
  }),
  response: z.array(deliveryItem),
  paged: true,
});

/** POST /webhooks/resend: a failed delivery is tried again, with its attempts counted afresh. */
export const resendDelivery = defineEndpoint({
  path: '/webhooks/resend',
  method: 'POST',
  access: 'monitor.edit',
  body: z.object({ id: idField() }),
  response: noData,
});
