import { M } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import type { JobRun } from '../../core/jobs';
import { DELIVER_JOB } from './alerts';
import { queueWebhook, sweepLanes } from './dispatch';
import type { SendResult } from './providers';

/*
 * One delivery of an alert (a channel and a recipient) per job. The job claims its row (pending, or
 * sending under an expired lease), sends, and records the outcome: sent (logged when no mail server is
 * configured), or a failed attempt with its error, after which it queues itself again with a doubling
 * wait (HUBLINK_ALERT_RETRY_SECONDS) until HUBLINK_ALERT_ATTEMPTS are used and the delivery is
 * 'failed'. A recipient that is gone by then (a deleted or unverified contact, a removed webhook) is
 * 'cancelled'. Every delivery is its own job, so one failing mailbox or webhook holds up no other.
 * A webhook delivery is not sent by its job: the job puts it into its webhook's queue (dispatch.ts),
 * which groups the alerts of a window into one message and sends each webhook's messages in order
 * within its provider's limits; the delivery stays 'pending' under its message (message_id) until the
 * message's outcome is written onto it, with the same retries and waits.
 */

/** How long a claimed delivery is held before another run may take it (a crashed instance's). */
const LEASE_MS = 5 * 60_000;
/** A pending delivery this long past its time has lost its job (a crash between commit and queueing). */
const LOST_AFTER_MS = 60_000;
const SWEEP_BATCH = 500;
const ERROR_MAX = 1000;

type Outcome = SendResult | { cancelled: string };

export async function runDelivery({ ctx, data }: JobRun<Ctx>): Promise<void> {
  const id = Number(data.delivery_id);
  if (!Number.isInteger(id) || id <= 0) return;
  const now = Date.now();
  const claimed = await ctx.db
    .updateTable('monitor_delivery')
    .set({ status: 'sending', lease_until: now + LEASE_MS, update_time: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb.and([eb('status', '=', 'pending'), eb('next_at', '<=', now + 1000)]), eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)])]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return;
  const delivery = await ctx.db
    .selectFrom('monitor_delivery')
    .innerJoin('monitor_alert', 'monitor_alert.id', 'monitor_delivery.alert_id')
    .select([
      'monitor_delivery.id',
      'monitor_delivery.tenant_id',
      'monitor_delivery.channel',
      'monitor_delivery.target',
      'monitor_delivery.contact_id',
      'monitor_delivery.attempts',
      'monitor_alert.id as alert_id',
      'monitor_alert.kind',
      'monitor_alert.title',
      'monitor_alert.text',
      'monitor_alert.router_name',
      'monitor_alert.member_id',
      'monitor_alert.at',
    ])
    .where('monitor_delivery.id', '=', id)
    .executeTakeFirstOrThrow();
  if (delivery.channel === 'webhook') return queueWebhook(ctx, delivery);

  let outcome: Outcome;
  try {
    outcome = await send(ctx, delivery);
  } catch (err) {
    ctx.log.error({ err, delivery: id }, 'monitor: delivery attempt failed unexpectedly');
    outcome = { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  await record(ctx, delivery, outcome);
}

type DeliveryRow = {
  id: number;
  tenant_id: number;
  channel: string;
  target: string;
  contact_id: number | null;
  attempts: number;
  alert_id: number;
  kind: string;
  title: string;
  text: string;
  router_name: string;
  member_id: number | null;
  at: number;
};

async function send(ctx: Ctx, d: DeliveryRow): Promise<Outcome> {
  switch (d.channel) {
    case 'portal':
      // The message module writes it into the message centre, once per alert (at least once here).
      await ctx.events.emit(ctx.db, { type: 'alert.raised', tenant_id: d.tenant_id, alert_id: d.alert_id, title: d.title, content: htmlOf(d.text) });
      return { ok: true };
    case 'email':
      return sendMail(ctx, d);
    default:
      return { cancelled: `unknown channel ${d.channel}` };
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const htmlOf = (text: string) => `<p>${escapeHtml(text)}</p>`;

async function sendMail(ctx: Ctx, d: DeliveryRow): Promise<Outcome> {
  if (d.contact_id !== null) {
    // A contact deleted, re-addressed or unverified since the alert gets nothing.
    const contact = await ctx.db.selectFrom('monitor_contact').select(['email', 'email_verify']).where('id', '=', d.contact_id).where('tenant_id', '=', d.tenant_id).executeTakeFirst();
    if (!contact || contact.email_verify !== 1 || contact.email.toLowerCase() !== d.target.toLowerCase()) return { cancelled: M.alertRecipientGone };
  }
  const startedAt = Date.now();
  const status = await ctx.outbox.deliver({ channel: 'email', to: d.target, subject: d.title, body: `${d.text}\n\n${M.alertMailFooter}`, code: '' });
  if (status === 'failed') {
    // The outbox row keeps the mail server's answer; the newest for this address and subject is this one.
    const row = await ctx.db
      .selectFrom('outbox')
      .select('error')
      .where('recipient', '=', d.target)
      .where('subject', '=', d.title)
      .where('create_time', '>=', startedAt)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return { ok: false, reason: row?.error ? `${M.alertMailFailed}: ${row.error}` : M.alertMailFailed };
  }
  return status === 'logged' ? { cancelled: 'logged' } : { ok: true };
}

/** Records an attempt's outcome; a failed one is queued again after its wait, or given up. */
async function record(ctx: Ctx, d: DeliveryRow, outcome: Outcome): Promise<void> {
  const now = Date.now();
  const attempts = d.attempts + 1;
  const mine = ctx.db.updateTable('monitor_delivery').where('id', '=', d.id).where('status', '=', 'sending');
  if ('cancelled' in outcome) {
    // 'logged': no mail server is configured; the mail is in the outbox and the log, as every mail then.
    const status = outcome.cancelled === 'logged' ? 'logged' : 'cancelled';
    await mine.set({ status, attempts, last_error: status === 'logged' ? null : outcome.cancelled.slice(0, ERROR_MAX), done_at: now, update_time: now, lease_until: 0 }).execute();
    return;
  }
  if (outcome.ok) {
    // last_error stays: the delivery's record says what failed before it went through.
    await mine.set({ status: 'sent', attempts, done_at: now, update_time: now, lease_until: 0 }).execute();
    return;
  }
  const error = outcome.reason.slice(0, ERROR_MAX);
  if (attempts >= ctx.config.alertAttempts) {
    ctx.log.warn({ delivery: d.id, channel: d.channel, error }, 'monitor: alert delivery given up');
    await mine.set({ status: 'failed', attempts, last_error: error, done_at: now, update_time: now, lease_until: 0 }).execute();
    return;
  }
  const waitSeconds = ctx.config.alertRetrySeconds * 2 ** (attempts - 1);
  await mine.set({ status: 'pending', attempts, last_error: error, next_at: now + waitSeconds * 1000, update_time: now, lease_until: 0 }).execute();
  await ctx.jobs.send(DELIVER_JOB, { delivery_id: d.id }, { delaySeconds: waitSeconds });
}

/** Queues the deliveries whose job was lost (pending long past their time, or a lease that ran out). */
export async function sweepDeliveries({ ctx }: JobRun<Ctx>): Promise<void> {
  const now = Date.now();
  const lost = await ctx.db
    .selectFrom('monitor_delivery')
    .select('id')
    .where((eb) => eb.or([eb.and([eb('status', '=', 'pending'), eb('next_at', '<', now - LOST_AFTER_MS)]), eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)])]))
    // A webhook delivery waiting under its message is the webhook queue's (its own sweep, below).
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('monitor_webhook_message as m')
            .select('m.id')
            .whereRef('m.id', '=', 'monitor_delivery.message_id')
            .where('m.status', 'in', ['queued', 'sending'])
            .where('monitor_delivery.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('id')
    .limit(SWEEP_BATCH)
    .execute();
  for (const { id } of lost) await ctx.jobs.send(DELIVER_JOB, { delivery_id: id });
  await sweepLanes(ctx);
}
