import { fmt, M, ROUTER_TYPE, type DomainEvent } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import type { EventMeta } from '../../core/events';
import type { JobRun } from '../../core/jobs';
import type { Db } from '../../db/connect';
import { memberWords, raiseAlert } from './alerts';

/*
 * The alert engine follows the gateway's member.online / member.offline / pop.connected events for
 * monitored devices of tenants with monitoring on. Flapping is absorbed by a debounce: an offline
 * event records the outage (monitor_state.offline_at) and queues a check after
 * HUBLINK_ALERT_DEBOUNCE_SECONDS; the check raises the offline alert only if that same outage is still
 * going and the member is still offline. An online event ends the outage; if its offline alert was
 * raised, it raises the recovery (online) alert. A member that drops and returns within the window
 * raises nothing. The two events reach the engine through separate subscribers, so they may come out
 * of order: each carries its time (`at`), and a change older than the newest one taken is ignored.
 */

export const OFFLINE_CHECK_JOB = 'monitor.offline-check';

/** A monitored hardware member of a tenant whose monitoring is on, with the switches; undefined otherwise. */
async function watched(db: Db, tenantId: number, memberId: number) {
  return db
    .selectFrom('monitor_router')
    .innerJoin('monitor_config', 'monitor_config.tenant_id', 'monitor_router.tenant_id')
    .innerJoin('member', 'member.id', 'monitor_router.member_id')
    .select(['member.router_name', 'member.note', 'member.online_status', 'monitor_config.router_online', 'monitor_config.router_offline', 'monitor_config.pop_connect'])
    .where('monitor_router.member_id', '=', memberId)
    .where('monitor_router.tenant_id', '=', tenantId)
    .where('member.tenant_id', '=', tenantId)
    .where('member.router_type', '=', ROUTER_TYPE.hardware)
    .where('monitor_config.enable', '=', 1)
    .executeTakeFirst();
}

/** member.offline: an outage begins; its alert waits for the debounce check. */
export async function onOffline(event: DomainEvent<'member.offline'>, ctx: Ctx): Promise<void> {
  const w = await watched(ctx.db, event.tenant_id, event.member_id);
  if (!w || w.router_offline !== 1) return;
  // A newer change already taken wins; an outage that was alerted stays alerted (its recovery is owed).
  const row = await ctx.db
    .insertInto('monitor_state')
    .values({ member_id: event.member_id, tenant_id: event.tenant_id, last_change_at: event.at, offline_at: event.at, alerted: 0 })
    .onConflict((oc) =>
      oc
        .column('member_id')
        .doUpdateSet({ last_change_at: event.at, offline_at: event.at })
        .where('monitor_state.last_change_at', '<', event.at),
    )
    .returning(['alerted'])
    .executeTakeFirst();
  if (!row || row.alerted === 1) return;
  const due = event.at + ctx.config.alertDebounceSeconds * 1000;
  await ctx.jobs.send(OFFLINE_CHECK_JOB, { tenant_id: event.tenant_id, member_id: event.member_id, at: event.at }, { delaySeconds: Math.max(0, Math.ceil((due - Date.now()) / 1000)) });
}

/** The debounce check: the outage that began at `at` is still going after the window, so it is raised. */
export async function checkOffline({ ctx, data }: JobRun<Ctx>): Promise<void> {
  const tenantId = Number(data.tenant_id);
  const memberId = Number(data.member_id);
  const at = Number(data.at);
  if (![tenantId, memberId, at].every(Number.isSafeInteger)) return;
  const w = await watched(ctx.db, tenantId, memberId);
  if (!w || w.router_offline !== 1 || w.online_status === 1) return;
  const words = memberWords(ctx, w, at);
  await raiseAlert(
    ctx,
    {
      tenantId,
      kind: 'router_offline',
      dedupeKey: `offline:${memberId}:${at}`,
      subject: w.router_name,
      memberId,
      routerName: w.router_name,
      text: fmt(M.alertTextOffline, words),
      at,
    },
    // Still the same outage, not alerted yet: mark it alerted with the alert, in one transaction.
    async (trx) => {
      const marked = await trx
        .updateTable('monitor_state')
        .set({ alerted: 1 })
        .where('member_id', '=', memberId)
        .where('tenant_id', '=', tenantId)
        .where('offline_at', '=', at)
        .where('alerted', '=', 0)
        .executeTakeFirst();
      return Number(marked.numUpdatedRows) === 1;
    },
  );
}

/** member.online: the outage ends; an alerted one raises its recovery alert. */
export async function onOnline(event: DomainEvent<'member.online'>, ctx: Ctx): Promise<void> {
  const state = await ctx.db.selectFrom('monitor_state').select(['alerted', 'last_change_at']).where('member_id', '=', event.member_id).where('tenant_id', '=', event.tenant_id).executeTakeFirst();
  if (!state || state.last_change_at >= event.at) return;
  const ended = (trx: Db) =>
    trx
      .updateTable('monitor_state')
      .set({ last_change_at: event.at, offline_at: null, alerted: 0 })
      .where('member_id', '=', event.member_id)
      .where('tenant_id', '=', event.tenant_id)
      .where('last_change_at', '<', event.at);
  const w = state.alerted === 1 ? await watched(ctx.db, event.tenant_id, event.member_id) : undefined;
  if (!w || w.router_online !== 1) {
    await ended(ctx.db).execute();
    return;
  }
  await raiseAlert(
    ctx,
    {
      tenantId: event.tenant_id,
      kind: 'router_online',
      dedupeKey: `online:${event.member_id}:${event.at}`,
      subject: w.router_name,
      memberId: event.member_id,
      routerName: w.router_name,
      text: fmt(M.alertTextOnline, memberWords(ctx, w, event.at)),
      at: event.at,
    },
    async (trx) => Number((await ended(trx).where('alerted', '=', 1).executeTakeFirst()).numUpdatedRows) === 1,
  );
}

/** pop.connected: raised at once (a session to a POP is news, not a flap); once per event. */
export async function onPopConnected(event: DomainEvent<'pop.connected'>, ctx: Ctx, meta: EventMeta): Promise<void> {
  const w = await watched(ctx.db, event.tenant_id, event.member_id);
  if (!w || w.pop_connect !== 1) return;
  await raiseAlert(ctx, {
    tenantId: event.tenant_id,
    kind: 'pop_connect',
    dedupeKey: `pop:${meta.eventId}`,
    subject: w.router_name,
    memberId: event.member_id,
    routerName: w.router_name,
    text: fmt(M.alertTextPop, { ...memberWords(ctx, w, event.at), pop: event.pop_name, area: event.area }),
    at: event.at,
  });
}
