import { M } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import type { JobRun } from '../../core/jobs';
import { sendWebhook, type SendResult, type WebhookTarget } from './providers';
import { summaryOf, type GroupedAlert } from './summary';
import { storedWebhook } from './webhook';

/*
 * The webhook queue (issue 33). A webhook's deliveries (deliveries.ts hands them over) are grouped into
 * messages, and each webhook's messages leave one at a time, in order, within its provider's limits.
 *
 * Grouping, leading edge: on a quiet webhook an alert goes out at once as a message of its own and
 * opens a window of HUBLINK_ALERT_GROUP_SECONDS; alerts within the window join one message that leaves
 * at the window's end (and opens the next window), so a burst of any size is one message per window
 * and a lone alert waits for nothing.
 *
 * Sending: a webhook is a lane (monitor_webhook_lane, keyed by tenant and the deliveries' target). One
 * instance at a time holds a lane's lease and sends its messages oldest first; a message that failed
 * waits its retry (HUBLINK_ALERT_RETRY_SECONDS, doubling) and the later ones wait behind it, until it is
 * sent or given up after HUBLINK_ALERT_ATTEMPTS. Every attempt's time is kept on the lane (its start
 * before it is made, its end once answered: the provider counts it on arrival, in between), and one
 * that would exceed a provider's limit (config.webhookRates) waits until the oldest counted attempt
 * leaves the limit's period. Everything is in the database, so a restart or a second instance carries on where
 * the last one stopped; a message whose sender died mid-attempt is sent again (at least once).
 */

export const LANE_JOB = 'monitor.webhook-lane';

/** One limit of a provider: at most `max` messages within `perMs` (config.webhookRates). */
type WebhookRate = Ctx['config']['webhookRates'][string][number];

/** How long a lane's sender holds it without renewing (renewed before every attempt). */
const LEASE_MS = 2 * 60_000;
/** Messages one run sends at most before it hands over to a fresh run. */
const RUN_MAX = 20;
/** A due message this long without its run (a lost job) is picked up by the sweep. */
const LOST_AFTER_MS = 60_000;
const SWEEP_BATCH = 200;
const ERROR_MAX = 1000;
const LIVE = ['queued', 'sending'];

/**
 * The webhook a delivery's target names, when it may still get messages (notifications on, the webhook
 * there), else undefined. Deliveries of one target share a lane.
 */
export async function webhookFor(ctx: Ctx, tenantId: number, target: string): Promise<WebhookTarget | undefined> {
  const cfg = await ctx.db.selectFrom('monitor_config').select('webhook_confirm').where('tenant_id', '=', tenantId).executeTakeFirst();
  return cfg?.webhook_confirm === 1 ? await storedWebhook(ctx, ctx.db, tenantId, target) : undefined;
}

/**
 * Puts a claimed webhook delivery (status 'sending') into a message of its webhook and back to
 * 'pending' under it. A delivery already in a message that has not left (a second run of its job)
 * is only handed back; one whose message left (a resend) joins a new one.
 */
export async function queueWebhook(ctx: Ctx, d: { id: number; tenant_id: number; target: string }): Promise<void> {
  const now = Date.now();
  const windowMs = ctx.config.alertGroupSeconds * 1000;
  const made = await ctx.db.transaction().execute(async (trx) => {
    // The lane's row, written first, orders the webhook's arrivals (a row lock on PostgreSQL).
    await trx
      .insertInto('monitor_webhook_lane')
      .values({ tenant_id: d.tenant_id, target: d.target, update_time: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'target']).doUpdateSet({ update_time: now }))
      .execute();
    const current = await trx
      .selectFrom('monitor_delivery')
      .leftJoin('monitor_webhook_message as m', 'm.id', 'monitor_delivery.message_id')
      .select(['m.status as message_status', 'm.next_at as message_at'])
      .where('monitor_delivery.id', '=', d.id)
      .executeTakeFirst();
    const back = async (messageId: number, at: number) => {
      await trx.updateTable('monitor_delivery').set({ status: 'pending', message_id: messageId, next_at: at, lease_until: 0, update_time: now }).where('id', '=', d.id).where('status', '=', 'sending').execute();
      // The webhook's other deliveries still waiting for their jobs come along (a burst's jobs run one
      // after another; its alerts need not wait for them to be grouped). Their jobs then find them placed.
      await trx
        .updateTable('monitor_delivery')
        .set({ message_id: messageId, next_at: at, update_time: now })
        .where('tenant_id', '=', d.tenant_id)
        .where('channel', '=', 'webhook')
        .where('target', '=', d.target)
        .where('status', '=', 'pending')
        .where('message_id', 'is', null)
        .execute();
    };
    if (current?.message_status && LIVE.includes(current.message_status)) {
      await trx.updateTable('monitor_delivery').set({ status: 'pending', lease_until: 0, update_time: now }).where('id', '=', d.id).where('status', '=', 'sending').execute();
      return null;
    }
    const open = await trx
      .selectFrom('monitor_webhook_message')
      .select(['id', 'close_at'])
      .where('tenant_id', '=', d.tenant_id)
      .where('target', '=', d.target)
      .where('status', '=', 'queued')
      .where('attempts', '=', 0)
      .where('close_at', '>', now)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (open) {
      await back(open.id, open.close_at);
      return null;
    }
    const lane = await trx.selectFrom('monitor_webhook_lane').select('window_until').where('tenant_id', '=', d.tenant_id).where('target', '=', d.target).executeTakeFirstOrThrow();
    // Quiet: this one leaves now and opens a window; within a window: it waits for the window's end.
    const closeAt = now >= lane.window_until ? now : lane.window_until;
    await trx
      .updateTable('monitor_webhook_lane')
      .set({ window_until: closeAt + windowMs })
      .where('tenant_id', '=', d.tenant_id)
      .where('target', '=', d.target)
      .execute();
    const message = await trx
      .insertInto('monitor_webhook_message')
      .values({ tenant_id: d.tenant_id, target: d.target, status: 'queued', close_at: closeAt, next_at: closeAt, last_error: null, create_time: now, update_time: now, done_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await back(message.id, closeAt);
    return { closeAt };
  });
  if (made) await laneJob(ctx, d.tenant_id, d.target, made.closeAt - now);
}

const laneJob = (ctx: Ctx, tenantId: number, target: string, inMs: number) =>
  ctx.jobs
    .send(LANE_JOB, { tenant_id: tenantId, target }, { delaySeconds: Math.max(0, Math.ceil(inMs / 1000)) })
    .catch((err: unknown) => ctx.log.error({ err, tenant: tenantId, target }, 'monitor: webhook lane not queued; the sweep will queue it'));

/** A provider's limits with a margin for the request's travel (the provider counts what it receives). */
const periodOf = (rule: WebhookRate) => rule.perMs + Math.min(1000, rule.perMs / 10);

/** When the next attempt may start under the limits, given the recent attempts' times (oldest first). */
export function nextAllowed(recent: number[], rules: WebhookRate[], now: number): number {
  let at = now;
  for (const rule of rules) {
    const period = periodOf(rule);
    const inPeriod = recent.filter((t) => t > now - period);
    if (inPeriod.length >= rule.max) at = Math.max(at, inPeriod[inPeriod.length - rule.max]! + period);
  }
  return at;
}

/** The attempts' times a lane keeps: enough for its longest limit. */
function keptTimes(recent: number[], rules: WebhookRate[], now: number): number[] {
  const longest = Math.max(0, ...rules.map(periodOf));
  const most = Math.max(0, ...rules.map((r) => r.max));
  return recent.filter((t) => t > now - longest).slice(-most);
}

const parseRecent = (raw: string): number[] => {
  try {
    const list: unknown = JSON.parse(raw);
    return Array.isArray(list) ? list.filter((t): t is number => typeof t === 'number').sort((a, b) => a - b) : [];
  } catch {
    return [];
  }
};

/** The lane job: sends a webhook's due messages in order while its limits allow, then queues itself for the next. */
export async function runLane({ ctx, data, signal }: JobRun<Ctx>): Promise<void> {
  const tenantId = Number(data.tenant_id);
  const target = typeof data.target === 'string' ? data.target : '';
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0 || !target) return;
  // A message that arrived while the lane was being released is taken by a second round.
  for (let round = 0; round < 3 && !signal.aborted; round++) {
    if ((await drainLane(ctx, tenantId, target, signal)) !== 'again') return;
  }
}

type Head = { id: number; close_at: number; next_at: number; attempts: number };

const headOf = (ctx: Ctx, tenantId: number, target: string): Promise<Head | undefined> =>
  ctx.db
    .selectFrom('monitor_webhook_message')
    .select(['id', 'close_at', 'next_at', 'attempts'])
    .where('tenant_id', '=', tenantId)
    .where('target', '=', target)
    .where('status', 'in', LIVE)
    .orderBy('id')
    .executeTakeFirst();

async function drainLane(ctx: Ctx, tenantId: number, target: string, signal: AbortSignal): Promise<'done' | 'busy' | 'again'> {
  let lease = Date.now() + LEASE_MS;
  const claimed = await ctx.db
    .updateTable('monitor_webhook_lane')
    .set({ lease_until: lease })
    .where('tenant_id', '=', tenantId)
    .where('target', '=', target)
    .where('lease_until', '<', Date.now())
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return 'busy';
  let emptied = false;
  try {
    const webhook = await webhookFor(ctx, tenantId, target);
    for (let sent = 0; !signal.aborted; sent++) {
      const head = await headOf(ctx, tenantId, target);
      if (!head) {
        emptied = true;
        break;
      }
      if (!webhook) {
        await finish(ctx, head, { cancelled: M.alertRecipientGone });
        continue;
      }
      const now = Date.now();
      const lane = await ctx.db.selectFrom('monitor_webhook_lane').select('recent').where('tenant_id', '=', tenantId).where('target', '=', target).executeTakeFirstOrThrow();
      const rules = ctx.config.webhookRates[webhook.type] ?? [];
      const recent = parseRecent(lane.recent);
      const at = Math.max(head.close_at, head.next_at, nextAllowed(recent, rules, now));
      if (at > now || sent >= RUN_MAX) {
        await laneJob(ctx, tenantId, target, at - now);
        break;
      }
      // The attempt counts before it is made (a crash after sending still counted it), with the lease renewed.
      const renewed = await ctx.db
        .updateTable('monitor_webhook_lane')
        .set({ recent: JSON.stringify(keptTimes([...recent, now], rules, now)), lease_until: now + LEASE_MS, update_time: now })
        .where('tenant_id', '=', tenantId)
        .where('target', '=', target)
        .where('lease_until', '=', lease)
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) !== 1) return 'done';
      lease = now + LEASE_MS;
      await attempt(ctx, webhook, head);
      // The provider counts the message when it arrives, somewhere before the answer: the attempt counts from then.
      const ended = Date.now();
      await ctx.db
        .updateTable('monitor_webhook_lane')
        .set({ recent: JSON.stringify(keptTimes([...recent, ended], rules, ended)), update_time: ended })
        .where('tenant_id', '=', tenantId)
        .where('target', '=', target)
        .where('lease_until', '=', lease)
        .execute();
    }
  } finally {
    await ctx.db.updateTable('monitor_webhook_lane').set({ lease_until: 0 }).where('tenant_id', '=', tenantId).where('target', '=', target).where('lease_until', '=', lease).execute();
  }
  if (!emptied) return 'done';
  const head = await headOf(ctx, tenantId, target);
  return head && Math.max(head.close_at, head.next_at) <= Date.now() ? 'again' : 'done';
}

type Outcome = SendResult | { cancelled: string };

/** One attempt of the head message: its deliveries' alerts, summarised, to the webhook. */
async function attempt(ctx: Ctx, webhook: WebhookTarget, head: Head): Promise<void> {
  await ctx.db.updateTable('monitor_webhook_message').set({ status: 'sending', update_time: Date.now() }).where('id', '=', head.id).execute();
  const alerts: GroupedAlert[] = await ctx.db
    .selectFrom('monitor_delivery')
    .innerJoin('monitor_alert', 'monitor_alert.id', 'monitor_delivery.alert_id')
    .select(['monitor_alert.id as alert_id', 'monitor_alert.kind', 'monitor_alert.title', 'monitor_alert.text', 'monitor_alert.router_name', 'monitor_alert.at'])
    .where('monitor_delivery.message_id', '=', head.id)
    .where('monitor_delivery.status', 'in', ['pending', 'sending'])
    .orderBy('monitor_delivery.id')
    .execute();
  if (alerts.length === 0) return finish(ctx, head, { cancelled: M.alertRecipientGone });
  let outcome: Outcome;
  try {
    outcome = await sendWebhook(ctx.config, webhook, summaryOf(alerts, ctx.config.timezone));
  } catch (err) {
    ctx.log.error({ err, message: head.id }, 'monitor: webhook attempt failed unexpectedly');
    outcome = { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  await finish(ctx, head, outcome);
}

/** Records an attempt's outcome on the message and on every delivery it carries, in one transaction. */
async function finish(ctx: Ctx, head: Head, outcome: Outcome): Promise<void> {
  const now = Date.now();
  const attempts = head.attempts + 1;
  await ctx.db.transaction().execute(async (trx) => {
    const message = trx.updateTable('monitor_webhook_message').where('id', '=', head.id);
    const carried = trx.updateTable('monitor_delivery').where('message_id', '=', head.id).where('status', 'in', ['pending', 'sending']);
    if ('cancelled' in outcome) {
      const error = outcome.cancelled.slice(0, ERROR_MAX);
      await message.set({ status: 'cancelled', last_error: error, done_at: now, update_time: now }).execute();
      await carried.set({ status: 'cancelled', last_error: error, done_at: now, update_time: now, lease_until: 0 }).execute();
      return;
    }
    if (outcome.ok) {
      await message.set({ status: 'sent', attempts, done_at: now, update_time: now }).execute();
      // A delivery's last_error stays: its record says what failed before it went through.
      await carried.set((eb) => ({ status: 'sent', attempts: eb('attempts', '+', 1), done_at: now, update_time: now, lease_until: 0 })).execute();
      return;
    }
    const error = outcome.reason.slice(0, ERROR_MAX);
    if (attempts >= ctx.config.alertAttempts) {
      ctx.log.warn({ message: head.id, error }, 'monitor: webhook message given up');
      await message.set({ status: 'failed', attempts, last_error: error, done_at: now, update_time: now }).execute();
      await carried.set((eb) => ({ status: 'failed', attempts: eb('attempts', '+', 1), last_error: error, done_at: now, update_time: now, lease_until: 0 })).execute();
      return;
    }
    const nextAt = now + ctx.config.alertRetrySeconds * 2 ** (attempts - 1) * 1000;
    await message.set({ status: 'queued', attempts, last_error: error, next_at: nextAt, update_time: now }).execute();
    await carried.set((eb) => ({ status: 'pending', attempts: eb('attempts', '+', 1), last_error: error, next_at: nextAt, update_time: now, lease_until: 0 })).execute();
  });
}

/** Queues the lanes whose due message lost its run (a crash, a job that failed to queue). */
export async function sweepLanes(ctx: Ctx): Promise<void> {
  const lost = await ctx.db
    .selectFrom('monitor_webhook_message')
    .select(['tenant_id', 'target'])
    .distinct()
    .where('status', 'in', LIVE)
    .where('next_at', '<', Date.now() - LOST_AFTER_MS)
    .limit(SWEEP_BATCH)
    .execute();
  for (const lane of lost) await laneJob(ctx, lane.tenant_id, lane.target, 0);
}

/** Sent and given-up messages are kept as long as alerts (alerts.ts), and idle lanes as long. */
const KEEP_MS = 180 * 24 * 3600_000;

/** The daily purge of old messages and of lanes idle since (a removed webhook's). */
export async function purgeWebhookMessages({ ctx }: { ctx: Ctx }): Promise<void> {
  const before = Date.now() - KEEP_MS;
  await ctx.db.deleteFrom('monitor_webhook_message').where('status', 'not in', LIVE).where('update_time', '<', before).execute();
  await ctx.db
    .deleteFrom('monitor_webhook_lane')
    .where('update_time', '<', before)
    .where('lease_until', '<', Date.now())
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('monitor_webhook_message as m')
            .select('m.id')
            .whereRef('m.tenant_id', '=', 'monitor_webhook_lane.tenant_id')
            .whereRef('m.target', '=', 'monitor_webhook_lane.target'),
        ),
      ),
    )
    .execute();
}
