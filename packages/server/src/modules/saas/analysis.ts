import { fmt, LIMITS, M, type analysisQuery, type AnalysisRow, type AnalysisView } from '@hublink/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import { formatTime, startOfDay } from '../../core/time';
import { findHardware } from './devices';

type AnalysisQuery = z.output<typeof analysisQuery>;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Epoch ms of 'yyyy-MM-dd HH:mm:ss' in the service's time zone (the contract checked the form). */
export function parseDateTime(value: string, timeZone: string): number {
  const [date, clock] = value.split(' ') as [string, string];
  const [h, m, s] = clock.split(':').map(Number) as [number, number, number];
  return startOfDay(date, timeZone) + ((h * 60 + m) * 60 + s) * 1000;
}

/** The earliest moment a range may start: the start of the day LIMITS.saasAnalysisDays ago (the pickers work in days). */
export function oldestStart(now: number, timeZone: string): number {
  return startOfDay(formatTime(now - LIMITS.saasAnalysisDays * DAY_MS, timeZone).slice(0, 10), timeZone);
}

const VIEWS: Record<AnalysisView, { kind: 'app' | 'orig'; top: boolean }> = {
  app_log: { kind: 'app', top: false },
  app_log_top: { kind: 'app', top: true },
  orig_scr_log: { kind: 'orig', top: false },
  orig_scr_log_top: { kind: 'orig', top: true },
};

/**
 * Bytes per application or source address of a device in the range, from the flow minutes. The
 * log views: names by download, at most LIMITS.saasLogRowsMax; the top views: the LIMITS.saasTop
 * largest by download and upload together.
 */
export async function analysis(ctx: Ctx, actor: Actor, view: AnalysisView, q: AnalysisQuery, now = Date.now()): Promise<AnalysisRow[]> {
  const tz = ctx.config.timezone;
  const from = parseDateTime(q.start_date, tz);
  const to = parseDateTime(q.end_date, tz);
  if (from < oldestStart(now, tz)) throw invalid(fmt(M.saasRangeTooOld, { n: LIMITS.saasAnalysisDays }));
  const d = await findHardware(ctx, actor, q.router_name);
  const { kind, top } = VIEWS[view];
  const down = sql<number | string>`sum(download)`;
  const up = sql<number | string>`sum(upload)`;
  const rows = await ctx.db
    .selectFrom('flow_minute')
    .select([
      'name',
      down.as('download_flow_sum'),
      up.as('upload_flow_sum'),
    ])
    .where('member_id', '=', d.id)
    .where('tenant_id', '=', actor.tenantId)
    .where('kind', '=', kind)
    .where('minute', '>=', Math.floor(from / MINUTE_MS) * MINUTE_MS)
    .where('minute', '<=', to)
    .groupBy('name')
    .orderBy(top ? sql`sum(download) + sum(upload)` : down, 'desc')
    .orderBy('name')
    .limit(top ? LIMITS.saasTop : LIMITS.saasLogRowsMax)
    .execute();
  return rows.map((r) => ({ name: r.name, download_flow_sum: Number(r.download_flow_sum), upload_flow_sum: Number(r.upload_flow_sum) }));
}
