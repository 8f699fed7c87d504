import { fmt, M } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import type { JobRun } from '../../core/jobs';
import { formatTime } from '../../core/time';
import { raiseAlert } from './alerts';

/** Expired services looked at per run; the next run takes the rest. */
const BATCH = 500;
/** A service that expired longer ago than this when first seen is not announced any more (a long outage of the jobs). */
const LOOKBACK_MS = 7 * 24 * 3600_000;

const dedupeKeyOf = (s: { id: number; expired_time: number }) => `service:${s.id}:${s.expired_time}`;

/**
 * The recurring expiry check: one alert per service whose expired_time has passed, for tenants with
 * monitoring and service_expired on, and only for expiries after monitoring was switched on (an old
 * expiry is no news). The alert's key is the service and its expiry, so it is raised once; a service
 * the operator extends and that expires again is announced again.
 */
export async function raiseServiceExpiries({ ctx }: JobRun<Ctx>): Promise<void> {
  const now = Date.now();
  const due = await ctx.db
    .selectFrom('service')
    .innerJoin('monitor_config', 'monitor_config.tenant_id', 'service.tenant_id')
    .select(['service.id', 'service.tenant_id', 'service.service_name', 'service.expired_time'])
    .where('monitor_config.enable', '=', 1)
    .where('monitor_config.service_expired', '=', 1)
    .where('service.expired_time', '<=', now)
    .where('service.expired_time', '>', now - LOOKBACK_MS)
    .whereRef('service.expired_time', '>=', 'monitor_config.enable_time')
    .orderBy('service.expired_time')
    .execute();
  // The ones already raised are skipped here, and by the alert's unique key if a run overlaps another.
  const raised = new Set<string>();
  for (let i = 0; i < due.length; i += 500) {
    const part = due.slice(i, i + 500);
    const rows = await ctx.db
      .selectFrom('monitor_alert')
      .select(['tenant_id', 'dedupe_key'])
      .where('tenant_id', 'in', [...new Set(part.map((s) => s.tenant_id))])
      .where('dedupe_key', 'in', part.map(dedupeKeyOf))
      .execute();
    for (const r of rows) raised.add(`${r.tenant_id}/${r.dedupe_key}`);
  }
  for (const s of due.filter((x) => !raised.has(`${x.tenant_id}/${dedupeKeyOf(x)}`)).slice(0, BATCH)) {
    await raiseAlert(ctx, {
      tenantId: s.tenant_id,
      kind: 'service_expired',
      dedupeKey: dedupeKeyOf(s),
      subject: s.service_name,
      memberId: null,
      routerName: '',
      text: fmt(M.alertTextService, { name: s.service_name, time: formatTime(s.expired_time, ctx.config.timezone) }),
      at: s.expired_time,
    });
  }
}
