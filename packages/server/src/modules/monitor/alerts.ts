import { fmt, M, type AlertKind } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';

/** The job that makes one delivery (deliveries.ts). */
export const DELIVER_JOB = 'monitor.deliver';

const KIND_LABEL: Record<AlertKind, string> = {
  router_offline: M.alertKindRouterOffline,
  router_online: M.alertKindRouterOnline,
  pop_connect: M.alertKindPopConnect,
  service_expired: M.alertKindServiceExpired,
};

const TITLE_MAX = 255;

export interface AlertInput {
  tenantId: number;
  kind: AlertKind;
  /** What makes this alert one of a kind: a second raise with the same key does nothing. */
  dedupeKey: string;
  /** The member (or service) the alert names, for its title. */
  subject: string;
  memberId: number | null;
  routerName: string;
  text: string;
  /** When it happened, epoch ms. */
  at: number;
}

/** Words of an alert about a member: its name, its note in brackets when it has one, the time. */
export function memberWords(ctx: Ctx, member: { router_name: string; note: string }, at: number) {
  return { name: member.router_name, note: member.note ? fmt(M.alertNote, { note: member.note }) : '', time: formatTime(at, ctx.config.timezone) };
}

/**
 * Records an alert and one delivery per channel and recipient in one transaction: the portal message
 * always, an email to the account's own address and to every verified contact when email is on, the
 * webhooks that take its kind when webhooks are on. `guard` runs first in the same transaction (the engine's state
 * change); when it answers false nothing is raised. After commit each delivery is queued as a job; one
 * that fails to queue is picked up by the sweep. Answers the alert's id, or null when it was not raised.
 */
export async function raiseAlert(ctx: Ctx, input: AlertInput, guard?: (trx: Db) => Promise<boolean>): Promise<number | null> {
  const raised = await ctx.db.transaction().execute(async (trx) => {
    if (guard && !(await guard(trx))) return null;
    const now = Date.now();
    const title = fmt(M.alertTitle, { kind: KIND_LABEL[input.kind], name: input.subject }).slice(0, TITLE_MAX);
    const alert = await trx
      .insertInto('monitor_alert')
      .values({
        tenant_id: input.tenantId,
        dedupe_key: input.dedupeKey,
        kind: input.kind,
        member_id: input.memberId,
        router_name: input.routerName,
        title,
        text: input.text,
        at: input.at,
        create_time: now,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'dedupe_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!alert) return null;
    const targets = await recipients(trx, input.tenantId, input.kind);
    const rows = await trx
      .insertInto('monitor_delivery')
      .values(
        targets.map((t) => ({
          tenant_id: input.tenantId,
          alert_id: alert.id,
          channel: t.channel,
          target: t.target,
          contact_id: t.contactId,
          status: 'pending',
          last_error: null,
          next_at: now,
          create_time: now,
          update_time: now,
          done_at: null,
        })),
      )
      .returning('id')
      .execute();
    return { alertId: alert.id, deliveries: rows.map((r) => r.id) };
  });
  if (!raised) return null;
  for (const id of raised.deliveries) {
    await ctx.jobs.send(DELIVER_JOB, { delivery_id: id }).catch((err: unknown) => ctx.log.error({ err, delivery: id }, 'monitor: delivery not queued; the sweep will queue it'));
  }
  return raised.alertId;
}

interface Recipient {
  channel: 'portal' | 'email' | 'webhook';
  target: string;
  contactId: number | null;
}

/** Where an alert of the tenant goes now, by its configuration. */
async function recipients(trx: Db, tenantId: number, kind: AlertKind): Promise<Recipient[]> {
  const cfg = await trx.selectFrom('monitor_config').select(['email_confirm', 'webhook_confirm']).where('tenant_id', '=', tenantId).executeTakeFirst();
  const out: Recipient[] = [{ channel: 'portal', target: 'portal', contactId: null }];
  if (cfg?.email_confirm === 1) {
    const seen = new Set<string>();
    const account = await trx.selectFrom('account').select('email').where('id', '=', tenantId).executeTakeFirst();
    if (account?.email) {
      seen.add(account.email.toLowerCase());
      out.push({ channel: 'email', target: account.email, contactId: null });
    }
    const contacts = await trx.selectFrom('monitor_contact').select(['id', 'email', 'email_key']).where('tenant_id', '=', tenantId).where('email_verify', '=', 1).orderBy('id').execute();
    for (const c of contacts) {
      if (seen.has(c.email_key)) continue;
      seen.add(c.email_key);
      out.push({ channel: 'email', target: c.email, contactId: c.id });
    }
  }
  if (cfg?.webhook_confirm === 1) {
    // Each webhook that takes this kind of alert; the target is the webhook's uuid.
    const hooks = await trx.selectFrom('monitor_hook').select(['uuid', 'kinds']).where('tenant_id', '=', tenantId).orderBy('id').execute();
    for (const h of hooks) if (h.kinds.split(',').includes(kind)) out.push({ channel: 'webhook', target: h.uuid, contactId: null });
  }
  return out;
}

/** Alerts (with their deliveries) are kept this long. */
const KEEP_MS = 180 * 24 * 3600_000;

/** The daily purge of old alerts. */
export async function purgeAlerts({ ctx }: { ctx: Ctx }): Promise<void> {
  await ctx.db.deleteFrom('monitor_alert').where('create_time', '<', Date.now() - KEEP_MS).execute();
}
