import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, monitorMessages } from './messages';

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
