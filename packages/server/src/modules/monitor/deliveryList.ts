import { M, type DeliveryItem, type DeliveryStatus, type listDeliveries } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { may } from '../../core/guard';
import { pageOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import { DELIVER_JOB } from './alerts';
import { maskedEmail } from './masking';

/*
 * The console's view of deliveries (issue 33): the newest first, of one webhook or of a channel, with
 * what the provider (or mail server) answered; a failed one can be sent again. The sending itself is
 * deliveries.ts'.
 */

type ListQuery = z.output<typeof listDeliveries.query>;

/** GET /webhooks/deliveries */
export async function list(ctx: Ctx, actor: Actor, query: ListQuery): Promise<{ rows: DeliveryItem[]; count: number }> {
  let filtered = ctx.db
    .selectFrom('monitor_delivery')
    .innerJoin('monitor_alert', 'monitor_alert.id', 'monitor_delivery.alert_id')
    .where('monitor_delivery.tenant_id', '=', actor.tenantId)
    .where('monitor_delivery.channel', '!=', 'portal');
  if (query.uuid) filtered = filtered.where('monitor_delivery.channel', '=', 'webhook').where('monitor_delivery.target', '=', query.uuid.toLowerCase());
  if (query.channel) filtered = filtered.where('monitor_delivery.channel', '=', query.channel);
  if (query.status) filtered = filtered.where('monitor_delivery.status', '=', query.status);
  const { rows, count } = await pageOf(filtered, query, (qb) =>
    qb
      .select([
        'monitor_delivery.id',
        'monitor_delivery.channel',
        'monitor_delivery.target',
        'monitor_delivery.status',
        'monitor_delivery.attempts',
        'monitor_delivery.last_error',
        'monitor_delivery.create_time',
        'monitor_delivery.update_time',
        'monitor_alert.title',
      ])
      .orderBy('monitor_delivery.id', 'desc'),
  );
  const hooks = new Map(
    (await ctx.db.selectFrom('monitor_hook').select(['uuid', 'name']).where('tenant_id', '=', actor.tenantId).execute()).map((h) => [h.uuid, h.name]),
  );
  const whole = may(actor, 'monitor.edit');
  return {
    count,
    rows: rows.map((r) => ({
      id: Number(r.id),
      channel: r.channel as DeliveryItem['channel'],
      target: r.channel === 'webhook' ? (hooks.get(r.target) ?? '') : r.channel === 'email' && !whole ? maskedEmail(r.target) : r.target,
      webhook_uuid: r.channel === 'webhook' && hooks.has(r.target) ? r.target : '',
      title: r.title,
      status: r.status as DeliveryStatus,
      attempts: Number(r.attempts),
      error: r.status === 'sent' ? '' : (r.last_error ?? ''),
      create_time: formatTime(Number(r.create_time), ctx.config.timezone),
      update_time: formatTime(Number(r.update_time), ctx.config.timezone),
    })),
  };
}

/**
 * POST /webhooks/resend: a failed delivery goes back to the queue with its attempts counted afresh
 * (its last error stays until an attempt succeeds). Only 'failed' ones: a pending one is on its way,
 * and a webhook that is gone is refused here rather than cancelled later.
 */
export async function resend(ctx: Ctx, actor: Actor, id: number): Promise<void> {
  const row = await ctx.db.selectFrom('monitor_delivery').select(['id', 'channel', 'target', 'status']).where('id', '=', id).where('tenant_id', '=', actor.tenantId).executeTakeFirst();
  if (!row || row.channel === 'portal') throw notFound(M.deliveryNotFound);
  if (row.status !== 'failed') throw invalid(M.deliveryNotFailed);
  if (row.channel === 'webhook') {
    const hook = await ctx.db.selectFrom('monitor_hook').select('id').where('tenant_id', '=', actor.tenantId).where('uuid', '=', row.target).executeTakeFirst();
    if (!hook) throw invalid(M.webhookNotFound);
  }
  const now = Date.now();
  const taken = await ctx.db
    .updateTable('monitor_delivery')
    .set({ status: 'pending', attempts: 0, next_at: now, done_at: null, lease_until: 0, update_time: now })
    .where('id', '=', row.id)
    .where('tenant_id', '=', actor.tenantId)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  // Two resends at once: the second finds it pending already.
  if (Number(taken.numUpdatedRows) !== 1) throw invalid(M.deliveryNotFailed);
  await ctx.jobs.send(DELIVER_JOB, { delivery_id: row.id }).catch((err: unknown) => ctx.log.error({ err, delivery: row.id }, 'monitor: resend not queued; the sweep will queue it'));
}
