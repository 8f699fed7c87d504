import { randomUUID } from 'node:crypto';
import { fmt, LIMITS, M, SECRET_MASK, webhookUsesSecret, type WebhookData, type webhookSetting, type WebhookType } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { may } from '../../core/guard';
import { judgeTarget } from '../../core/outbound';
import type { Limit } from '../../core/ratelimit';
import { formatTime } from '../../core/time';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import type { MonitorHookTable } from '../../db/types';
import { maskedUrl } from './masking';
import { sendWebhook, type WebhookMentions, type WebhookTarget } from './providers';

/*
 * The calls of spec 3 (/webhook/config, /setting, /test, /delete) act on the tenant's default webhook:
 * its oldest one in monitor_hook (issue 33 made several; webhooks.ts has the calls for each).
 */

type WebhookInput = z.output<typeof webhookSetting.body>;

/** Tests a tenant may send (besides the console's 60 s guard): each one is a request to the outside. */
export const TEST_LIMIT: Limit = { name: 'webhook-test-tenant', max: 20, windowSeconds: 600, message: M.webhookTestLimit };

/** The sealed secret is bound to its tenant: copied into another tenant's row it does not open. */
export const sealContext = (tenantId: number) => `monitor_webhook:${tenantId}`;

export type HookRow = Selectable<MonitorHookTable>;

export const listOf = (csv: string): string[] => (csv ? csv.split(',') : []);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant's default webhook row: its oldest. */
export const defaultHook = (db: Db, tenantId: number) =>
  db.selectFrom('monitor_hook').selectAll().where('tenant_id', '=', tenantId).orderBy('id').limit(1).executeTakeFirst();

export function mentionsOf(row: Pick<HookRow, 'at_mobiles' | 'at_user_ids' | 'at_all'>): WebhookMentions {
  return { mobiles: listOf(row.at_mobiles), userIds: listOf(row.at_user_ids), all: row.at_all === 1 };
}

export function targetOfRow(ctx: Ctx, row: HookRow): WebhookTarget {
  return {
    type: row.type as WebhookType,
    url: row.url,
    secret: row.secret ? ctx.secretBox.openText(row.secret, sealContext(row.tenant_id)) : '',
    name: row.name,
    mentions: mentionsOf(row),
  };
}

/**
 * A webhook of the tenant with its secret opened, or undefined when it is gone: the one a delivery's
 * target names (its uuid), or the default one (no target, or a target written before several webhooks:
 * a provider type).
 */
export async function storedWebhook(ctx: Ctx, db: Db, tenantId: number, target?: string): Promise<WebhookTarget | undefined> {
  const row =
    target && UUID.test(target)
      ? await db.selectFrom('monitor_hook').selectAll().where('tenant_id', '=', tenantId).where('uuid', '=', target.toLowerCase()).executeTakeFirst()
      : await defaultHook(db, tenantId);
  return row ? targetOfRow(ctx, row) : undefined;
}

/** GET /webhook/config: the default webhook; the secret only as the mask, the URL whole only to whoever may edit monitoring. */
export async function webhookOf(ctx: Ctx, actor: Actor): Promise<WebhookData | null> {
  const row = await defaultHook(ctx.db, actor.tenantId);
  if (!row) return null;
  return { type: row.type as WebhookType, url: may(actor, 'monitor.edit') ? row.url : maskedUrl(row.url), secret: row.secret ? SECRET_MASK : '' };
}

/**
 * A URL a tenant may not keep nor try (core/outbound.ts judgeTarget): an address in any spelling that is
 * not public, or a local name, unless the operator allows private targets. A name is judged again on
 * what it resolves to whenever a message is sent.
 */
export function judgeUrl(ctx: Ctx, url: string): void {
  const refusal = judgeTarget(url, ctx.config);
  if (refusal) throw invalid(refusal === 'private_address' ? M.webhookUrlPrivate : M.webhookUrlInvalid);
}

/** The secret to store or sign with: none for WeCom; the mask stands for the one stored in `stored`. */
export function secretOf(ctx: Ctx, type: WebhookType, secret: string, stored: HookRow | undefined): string {
  if (!webhookUsesSecret(type)) return '';
  if (secret !== SECRET_MASK) return secret;
  return stored?.secret ? ctx.secretBox.openText(stored.secret, sealContext(stored.tenant_id)) : '';
}

export const sealed = (ctx: Ctx, tenantId: number, secret: string) => (secret ? ctx.secretBox.seal(secret, sealContext(tenantId)) : null);

/** The default webhook's name when /webhook/setting makes it: '默认Webhook', or with a number when a webhook has that name. */
async function freeDefaultName(trx: Db, tenantId: number): Promise<string> {
  const names = new Set((await trx.selectFrom('monitor_hook').select('name').where('tenant_id', '=', tenantId).execute()).map((r) => r.name));
  for (let n = 1; ; n++) {
    const name = n === 1 ? M.webhookDefaultName : `${M.webhookDefaultName}${n}`;
    if (!names.has(name)) return name;
  }
}

/**
 * POST /webhook/setting: changes the default webhook's type, URL and secret (its name, kinds and
 * mentions stay), or makes it (every kind, no mentions) when the tenant has none. A URL that is not
 * public is refused (422) and nothing is stored.
 */
export async function save(ctx: Ctx, actor: Actor, input: WebhookInput): Promise<void> {
  judgeUrl(ctx, input.url);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await defaultHook(trx, actor.tenantId);
    const secret = sealed(ctx, actor.tenantId, secretOf(ctx, input.type, input.secret, row));
    const now = Date.now();
    if (row) {
      await trx.updateTable('monitor_hook').set({ type: input.type, url: input.url, secret, update_time: now }).where('id', '=', row.id).execute();
      return;
    }
    await trx
      .insertInto('monitor_hook')
      .values({
        uuid: randomUUID(),
        tenant_id: actor.tenantId,
        name: await freeDefaultName(trx, actor.tenantId),
        type: input.type,
        url: input.url,
        secret,
        kinds: 'router_online,router_offline,service_expired,pop_connect',
        create_time: now,
        update_time: now,
      })
      .execute();
  });
}

/** Deletes one webhook; webhook notifications switch off with the tenant's last one. */
export async function removeHook(trx: Db, tenantId: number, id: number): Promise<void> {
  await trx.deleteFrom('monitor_hook').where('id', '=', id).where('tenant_id', '=', tenantId).execute();
  const left = await trx.selectFrom('monitor_hook').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst();
  if (!left) await trx.updateTable('monitor_config').set({ webhook_confirm: 0, update_time: Date.now() }).where('tenant_id', '=', tenantId).execute();
}

/** POST /webhook/delete: the default webhook; the next oldest becomes the default. */
export async function remove(ctx: Ctx, actor: Actor): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await defaultHook(trx, actor.tenantId);
    if (!row) throw notFound(M.webhookNotConfigured);
    await removeHook(trx, actor.tenantId, row.id);
  });
}

/** One test message now, refused with the provider's answer when it did not take it. */
export async function sendTest(ctx: Ctx, actor: Actor, target: WebhookTarget): Promise<void> {
  judgeUrl(ctx, target.url);
  await ctx.limiter.hit(TEST_LIMIT, String(actor.tenantId));
  const now = Date.now();
  const result = await sendWebhook(
    ctx.config,
    target,
    { event: 'test', title: M.webhookTestTitle, text: M.webhookTestText, at: now, time: formatTime(now, ctx.config.timezone) },
    LIMITS.webhookTestTimeoutMs,
  );
  if (!result.ok) throw invalid(fmt(M.webhookTestFailed, { reason: result.reason }));
}

/** POST /webhook/test: the given type, URL and secret (the mask: the default's), without mentions. */
export async function test(ctx: Ctx, actor: Actor, input: WebhookInput): Promise<void> {
  judgeUrl(ctx, input.url);
  const row = await defaultHook(ctx.db, actor.tenantId);
  await sendTest(ctx, actor, { type: input.type, url: input.url, secret: secretOf(ctx, input.type, input.secret, row) });
}
