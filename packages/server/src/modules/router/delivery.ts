import { LIMITS, M } from '@hublink/contract';
import { sql } from 'kysely';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { notFound } from '../../core/errors';
import { allowedNetworks } from '../../core/networks';
import { offsetOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { networkOfTenant } from '../../domain/networks';

/*
 * Confirmed delivery in a network (issue 18): the members whose device has not acknowledged its current
 * config, and the network's last change (the newest config version made) with how long its members took
 * to acknowledge it. The network page asks every 10 s, so each part is read by an index of its own
 * (migration 0047): the last change's time, the members behind (few once a change has gone out), and
 * the last change's members only when what is known of them moved (issue 34).
 */

/** Word for word the predicate of the partial index member_config_network_behind. */
const notAcked = sql<boolean>`(member_config.applied_version < member_config.version or member_config.applied_error <> '')`;

type LastChange = { time: string; members: number; acknowledged: number; p50_seconds: number | null; p95_seconds: number | null };

/**
 * A network's last change as last computed, kept while its time and its count of members behind stay
 * the same, for at most KEEP_MS: then a change's thousands of rows are read again only when an
 * acknowledgement (or a failure) came in, or once a minute (a device that acknowledged the same version
 * again moves its time and no count).
 */
const KEEP_MS = 60_000;
const KEPT_NETWORKS = 2_000;
type Kept = { last: number; behindInLast: number; at: number; change: LastChange };
const keptByDb = new WeakMap<Db, Map<number, Kept>>();

const configsOf = (db: Db, networkId: number, tenantId: number) =>
  db.selectFrom('member_config').where('member_config.network_id', '=', networkId).where('member_config.tenant_id', '=', tenantId);

function keptOf(db: Db): Map<number, Kept> {
  let kept = keptByDb.get(db);
  if (!kept) keptByDb.set(db, (kept = new Map()));
  return kept;
}

export async function delivery(ctx: Ctx, actor: Actor, networkNumber: string, paging: { behind_page?: number; page_size?: number } = {}, now = Date.now()) {
  const { db } = ctx;
  const allowed = allowedNetworks(actor);
  if (allowed !== null && !allowed.includes(networkNumber)) throw notFound(M.networkNotFound);
  const net = await networkOfTenant(db, actor.tenantId, networkNumber, ['id']);
  if (!net) throw notFound(M.networkNotFound);
  const configs = configsOf(db, net.id, actor.tenantId);
  const newest = await configs.select('member_config.update_time').orderBy('member_config.update_time', 'desc').limit(1).executeTakeFirst();
  const last = newest ? Number(newest.update_time) : 0;
  const size = paging.page_size ?? LIMITS.pageSize;
  const [counts, behindRows] = await Promise.all([
    configs
      .where(notAcked)
      .select((eb) => [eb.fn.countAll<number>().as('behind'), eb.fn.sum<number>(eb.case().when('member_config.update_time', '=', last).then(1).else(0).end()).as('in_last')])
      .executeTakeFirstOrThrow(),
    // The CROSS JOIN keeps SQLite's planner on the network's configs: with an inner join it walked the
    // tenant's every member by the tenant's index (6 ms at 100,000 members).
    configs
      .crossJoin('member')
      .whereRef('member.id', '=', 'member_config.member_id')
      .where('member.tenant_id', '=', actor.tenantId)
      .where(notAcked)
      .select(['member.router_name', 'member.online_status', 'member_config.version', 'member_config.applied_version', 'member_config.applied_error'])
      .orderBy('member.router_type')
      .orderBy('member.router_name')
      .$if(paging.behind_page !== undefined, (qb) => qb.limit(size).offset(offsetOf(paging.behind_page!, size)))
      .execute(),
  ]);
  const behind = behindRows.map((r) => ({ router_name: r.router_name, online: r.online_status, config_version: r.version, applied_version: r.applied_version, applied_error: r.applied_error }));
  const behindCount = Number(counts.behind);
  if (!newest) return { behind, behind_count: behindCount, last_change: null };
  const behindInLast = Number(counts.in_last ?? 0);
  const kept = keptOf(db);
  const known = kept.get(net.id);
  if (known && known.last === last && known.behindInLast === behindInLast && now - known.at < KEEP_MS) return { behind, behind_count: behindCount, last_change: known.change };
  const change = await lastChange(ctx, configs, last);
  kept.delete(net.id);
  if (kept.size >= KEPT_NETWORKS) kept.delete(kept.keys().next().value!);
  kept.set(net.id, { last, behindInLast, at: now, change });
  return { behind, behind_count: behindCount, last_change: change };
}

/** The members of the change made at `last` and how long those that acknowledged it took. */
async function lastChange(ctx: Ctx, configs: ReturnType<typeof configsOf>, last: number): Promise<LastChange> {
  const rows = await configs.where('member_config.update_time', '=', last).select(['member_config.applied_time', sql<number>`case when ${notAcked} then 0 else 1 end`.as('acked')]).execute();
  const took = rows
    .filter((r) => Number(r.acked) === 1 && r.applied_time !== null)
    .map((r) => Math.max(0, Number(r.applied_time) - last))
    .sort((a, b) => a - b);
  const p50 = percentile(took, 0.5);
  const p95 = percentile(took, 0.95);
  return {
    time: formatTime(last, ctx.config.timezone),
    members: rows.length,
    acknowledged: took.length,
    p50_seconds: p50 === null ? null : seconds(p50),
    p95_seconds: p95 === null ? null : seconds(p95),
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** Seconds with one decimal. */
const seconds = (ms: number) => Math.round(ms / 100) / 10;
