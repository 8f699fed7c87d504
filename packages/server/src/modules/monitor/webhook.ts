import { fmt, LIMITS, M, SECRET_MASK, webhookUsesSecret, type WebhookData, type webhookSetting, type WebhookType } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { may } from '../../core/guard';
import { judgeTarget } from '../../core/outbound';
import type { Limit } from '../../core/ratelimit';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { sendWebhook, type WebhookTarget } from './providers';

type WebhookInput = z.output<typeof webhookSetting.body>;

/** Tests a tenant may send (besides the console's 60 s guard): each one is a request to the outside. */
const TEST_LIMIT: Limit = { name: 'webhook-test-tenant', max: 20, windowSeconds: 600, message: M.webhookTestLimit };

/** The sealed secret is bound to its tenant's row: copied into another row it does not open. */
const sealContext = (tenantId: number) => `monitor_webhook:${tenantId}`;

/** The tenant's webhook with its secret opened, or undefined. */
export async function storedWebhook(ctx: Ctx, db: Db, tenantId: number): Promise<WebhookTarget | undefined> {
  const row = await db.selectFrom('monitor_webhook').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!row) return undefined;
  return { type: row.type as WebhookType, url: row.url, secret: row.secret ? ctx.secretBox.openText(row.secret, sealContext(tenantId)) : '' };
}

/**
 * A robot's URL carries its access token (DingTalk's access_token, Feishu's hook path, WeCom's key):
 * whoever may not change the webhook sees where it goes, not the token.
 */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/${SECRET_MASK}`;
  } catch {
    return SECRET_MASK;
  }
}

/** GET /webhook/config: the secret only as the mask, the URL whole only to whoever may edit monitoring. */
export async function webhookOf(ctx: Ctx, actor: Actor): Promise<WebhookData | null> {
  const row = await ctx.db.selectFrom('monitor_webhook').select(['type', 'url', 'secret']).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
  if (!row) return null;
  return { type: row.type as WebhookType, url: may(actor, 'monitor.edit') ? row.url : maskedUrl(row.url), secret: row.secret ? SECRET_MASK : '' };
}

/**
 * A URL a tenant may not keep nor try (core/outbound.ts judgeTarget): an address in any spelling that is
 * not public, or a local name, unless the operator allows private targets. A name is judged again on
 * what it resolves to whenever a message is sent.
 */
function judgeUrl(ctx: Ctx, url: string): void {
  const refusal = judgeTarget(url, ctx.config);
  if (refusal) throw invalid(refusal === 'private_address' ? M.webhookUrlPrivate : M.webhookUrlInvalid);
}

/** What the input means: WeCom has no secret; the mask stands for the stored secret. */
async function targetOf(ctx: Ctx, tenantId: number, input: WebhookInput): Promise<WebhookTarget> {
  let secret = webhookUsesSecret(input.type) ? input.secret : '';
  if (secret === SECRET_MASK) secret = (await storedWebhook(ctx, ctx.db, tenantId))?.secret ?? '';
  return { type: input.type, url: input.url, secret };
}

/** POST /webhook/setting: a URL that is not public is refused (422) and nothing is stored. */
export async function save(ctx: Ctx, actor: Actor, input: WebhookInput): Promise<void> {
  judgeUrl(ctx, input.url);
  const target = await targetOf(ctx, actor.tenantId, input);
  const now = Date.now();
  const values = {
    type: target.type,
    url: target.url,
    secret: target.secret ? ctx.secretBox.seal(target.secret, sealContext(actor.tenantId)) : null,
    update_time: now,
  };
  await ctx.db
    .insertInto('monitor_webhook')
    .values({ tenant_id: actor.tenantId, ...values, create_time: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
    .execute();
}

/** POST /webhook/delete: webhook notifications go with it. */
export async function remove(ctx: Ctx, actor: Actor): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('monitor_webhook').where('tenant_id', '=', actor.tenantId).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw notFound(M.webhookNotConfigured);
    await trx.updateTable('monitor_config').set({ webhook_confirm: 0, update_time: Date.now() }).where('tenant_id', '=', actor.tenantId).execute();
  });
}

/** POST /webhook/test: one test message now (to a URL the save would take); refused with the provider's answer when it did not take it. */
export async function test(ctx: Ctx, actor: Actor, input: WebhookInput): Promise<void> {
  judgeUrl(ctx, input.url);
  await ctx.limiter.hit(TEST_LIMIT, String(actor.tenantId));
  const target = await targetOf(ctx, actor.tenantId, input);
  const now = Date.now();
  const result = await sendWebhook(
    ctx.config,
    target,
    { event: 'test', title: M.webhookTestTitle, text: M.webhookTestText, at: now, time: formatTime(now, ctx.config.timezone) },
    LIMITS.webhookTestTimeoutMs,
  );
  if (!result.ok) throw invalid(fmt(M.webhookTestFailed, { reason: result.reason }));
}
