import { randomUUID } from 'node:crypto';
import { ALERT_KINDS, fmt, LIMITS, M, SECRET_MASK, type AlertKind, type createWebhook, type DeliveryStatus, type editWebhook, type WebhookItem, type WebhookType } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { may } from '../../core/guard';
import { lockTenant } from '../../core/tenantLock';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { maskedMobile, maskedUrl } from './masking';
import { judgeUrl, listOf, removeHook, sealed, secretOf, sendTest, targetOfRow, type HookRow } from './webhook';

/*
 * Several webhooks per tenant (issue 33): /webhooks/lists, /create, /edit, /delete, /test. Each gets
 * the alert kinds it names and mentions whom it names; its URL is judged when saved and when used.
 */

type CreateInput = z.output<typeof createWebhook.body>;
type EditInput = z.output<typeof editWebhook.body>;

async function findHook(db: Db, tenantId: number, uuid: string): Promise<HookRow> {
  const row = await db.selectFrom('monitor_hook').selectAll().where('tenant_id', '=', tenantId).where('uuid', '=', uuid.toLowerCase()).executeTakeFirst();
  if (!row) throw notFound(M.webhookNotFound);
  return row;
}

const kindsOf = (csv: string): AlertKind[] => ALERT_KINDS.filter((k) => listOf(csv).includes(k));

/** GET /webhooks/lists: oldest first (the default); each with its newest delivery's status. */
export async function list(ctx: Ctx, actor: Actor): Promise<WebhookItem[]> {
  const rows = await ctx.db.selectFrom('monitor_hook').selectAll().where('tenant_id', '=', actor.tenantId).orderBy('id').execute();
  const whole = may(actor, 'monitor.edit');
  const out: WebhookItem[] = [];
  for (const [i, r] of rows.entries()) {
    const last = await ctx.db
      .selectFrom('monitor_delivery')
      .select(['status', 'attempts', 'last_error', 'update_time'])
      .where('tenant_id', '=', actor.tenantId)
      .where('channel', '=', 'webhook')
      .where('target', '=', r.uuid)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const mobiles = listOf(r.at_mobiles);
    out.push({
      uuid: r.uuid,
      name: r.name,
      type: r.type as WebhookType,
      url: whole ? r.url : maskedUrl(r.url),
      secret: r.secret ? SECRET_MASK : '',
      kinds: kindsOf(r.kinds),
      at_mobiles: whole ? mobiles : mobiles.map(maskedMobile),
      at_user_ids: listOf(r.at_user_ids),
      at_all: r.at_all === 1 ? 1 : 0,
      is_default: i === 0 ? 1 : 0,
      last_status: last ? (last.status as DeliveryStatus) : '',
      last_attempts: last ? Number(last.attempts) : 0,
      last_time: last ? formatTime(Number(last.update_time), ctx.config.timezone) : '',
      last_error: last?.status === 'sent' ? '' : (last?.last_error ?? ''),
    });
  }
  return out;
}

async function ensureNameFree(trx: Db, tenantId: number, name: string, except?: number) {
  let q = trx.selectFrom('monitor_hook').select('id').where('tenant_id', '=', tenantId).where('name', '=', name);
  if (except !== undefined) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw invalid(M.webhookNameTaken);
}

const fieldsOf = (input: CreateInput) => ({
  name: input.name,
  type: input.type,
  url: input.url,
  kinds: input.kinds.join(','),
  at_mobiles: input.at_mobiles.join(','),
  at_user_ids: input.at_user_ids.join(','),
  at_all: input.at_all,
});

/** POST /webhooks/create: a URL that is not public, a taken name or one past the limit is refused, and nothing is stored. */
export async function create(ctx: Ctx, actor: Actor, input: CreateInput): Promise<string> {
  judgeUrl(ctx, input.url);
  const uuid = randomUUID();
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const n = await trx.selectFrom('monitor_hook').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', actor.tenantId).executeTakeFirstOrThrow();
    if (Number(n.n) >= LIMITS.webhooksMax) throw invalid(fmt(M.webhooksFull, { n: LIMITS.webhooksMax }));
    await ensureNameFree(trx, actor.tenantId, input.name);
    const now = Date.now();
    await trx
      .insertInto('monitor_hook')
      .values({ uuid, tenant_id: actor.tenantId, ...fieldsOf(input), secret: sealed(ctx, actor.tenantId, secretOf(ctx, input.type, input.secret, undefined)), create_time: now, update_time: now })
      .execute();
  });
  return uuid;
}

/** POST /webhooks/edit: the secret sent back as the mask keeps the stored one. */
export async function edit(ctx: Ctx, actor: Actor, input: EditInput): Promise<void> {
  judgeUrl(ctx, input.url);
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const row = await findHook(trx, actor.tenantId, input.uuid);
    await ensureNameFree(trx, actor.tenantId, input.name, row.id);
    await trx
      .updateTable('monitor_hook')
      .set({ ...fieldsOf(input), secret: sealed(ctx, actor.tenantId, secretOf(ctx, input.type, input.secret, row)), update_time: Date.now() })
      .where('id', '=', row.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  });
}

/** POST /webhooks/delete: its waiting deliveries are cancelled when their turn comes (the webhook is gone). */
export async function remove(ctx: Ctx, actor: Actor, uuid: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findHook(trx, actor.tenantId, uuid);
    await removeHook(trx, actor.tenantId, row.id);
  });
}

/** POST /webhooks/test: a test message with the webhook's mentions, to its stored URL (judged again). */
export async function test(ctx: Ctx, actor: Actor, uuid: string): Promise<void> {
  const row = await findHook(ctx.db, actor.tenantId, uuid);
  await sendTest(ctx, actor, targetOfRow(ctx, row));
}
