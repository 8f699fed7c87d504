import { LIMITS, type saasConnect, type SaasConnectItem, type SaasTrafficPoint } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { contains, pageOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import { findHardware } from './devices';

type ConnectQuery = z.output<typeof saasConnect.query>;

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The dial-in records of a device: the sessions it reported (online_log rows it wrote through the
 * gateway), newest first. ip is the session's VPN address, origin where it came from; input and out
 * are the session's own counters, which the device reports at its end (issue 30). A session still up,
 * or one an older agent ended without counters, shows the bytes of the device's application flow
 * records in its minutes instead (application records cover all traffic once, source records again).
 */
export async function connects(ctx: Ctx, actor: Actor, q: ConnectQuery): Promise<{ rows: SaasConnectItem[]; count: number }> {
  const d = await findHardware(ctx, actor, q.router_name);
  const text = q.search?.toLowerCase();
  const filtered = ctx.db
    .selectFrom('online_log')
    .where('tenant_id', '=', actor.tenantId)
    .where('router_name', '=', d.router_name)
    .$if(!!text, (qb) => qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('vpn_ip'), text!), contains(ctx.dialect, eb.ref('orig'), text!)])));
  const { rows, count } = await pageOf(filtered, q, (qb) =>
    qb.select(['vpn_ip', 'orig', 'start_time', 'end_time', 'online_time', 'bytes_in', 'bytes_out']).orderBy('start_time', 'desc').orderBy('id', 'desc'),
  );
  const now = Date.now();
  const tz = ctx.config.timezone;
  const items: SaasConnectItem[] = [];
  for (const r of rows) {
    const start = Number(r.start_time);
    const end = r.end_time === null ? now : Number(r.end_time);
    const bytes =
      r.bytes_in !== null && r.bytes_out !== null
        ? { down: r.bytes_in, up: r.bytes_out }
        : await ctx.db
      .selectFrom('flow_minute')
      .select((eb) => [eb.fn.sum<number | string | null>('download').as('down'), eb.fn.sum<number | string | null>('upload').as('up')])
      .where('member_id', '=', d.id)
      .where('tenant_id', '=', actor.tenantId)
      .where('kind', '=', 'app')
      .where('minute', '>=', Math.floor(start / MINUTE_MS) * MINUTE_MS)
      .where('minute', '<=', end)
      .executeTakeFirst();
    items.push({
      ip: r.vpn_ip,
      origin: r.orig,
      input: Number(bytes?.down ?? 0),
      out: Number(bytes?.up ?? 0),
      session_date: formatTime(start, tz),
      online_time: r.end_time === null ? Math.max(0, Math.floor((now - start) / 1000)) : Number(r.online_time),
      stop_time: r.end_time === null ? '' : formatTime(Number(r.end_time), tz),
    });
  }
  return { rows: items, count };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The traffic chart: per-minute averages of the last LIMITS.saasTrafficHours, oldest first. */
export async function traffic(ctx: Ctx, actor: Actor, name: string): Promise<SaasTrafficPoint[]> {
  const d = await findHardware(ctx, actor, name);
  const rows = await ctx.db
    .selectFrom('traffic_minute')
    .select(['minute', 'down_sum', 'upload_sum', 'samples'])
    .where('member_id', '=', d.id)
    .where('tenant_id', '=', actor.tenantId)
    .where('minute', '>=', Date.now() - LIMITS.saasTrafficHours * HOUR_MS)
    .orderBy('minute')
    .execute();
  return rows.map((r) => {
    const n = Math.max(1, Number(r.samples));
    return { time: formatTime(Number(r.minute), ctx.config.timezone), down: round2(Number(r.down_sum) / n), upload: round2(Number(r.upload_sum) / n) };
  });
}
