import { LIMITS, LOG_EXPORT_COLUMNS, LOG_EXPORT_FILES, M, type exportLogs, type LogExportFile } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { forbidden, invalid } from '../../core/errors';
import { formatTime } from '../../core/time';
import { connectColumns, connectRows, connectSessionColumns, connectSessionRows, onlineColumns, onlineRows, softwareLoginColumns, softwareLoginRows, toConnect, toConnectSession, toOnline, toSoftwareLogin } from './service';
import { buildSheet } from './workbook';

type ExportQuery = z.output<typeof exportLogs.query>;
type Cells = (string | number)[];

/** The rows of one log as the page lists them (same filters, newest first), at most LIMITS.logExportRowsMax. */
async function cellsOf(ctx: Ctx, actor: Actor, q: ExportQuery): Promise<Cells[]> {
  const max = LIMITS.logExportRowsMax;
  switch (q.type) {
    case 'software_login': {
      if (actor.ramId !== null || actor.role !== null) throw forbidden(M.deniedMainOnly);
      const rows = await softwareLoginRows(ctx, actor, q).select(softwareLoginColumns).orderBy('create_time', 'desc').orderBy('id', 'desc').limit(max).execute();
      return rows.map((raw) => {
        const r = toSoftwareLogin(ctx, raw);
        return [r.router_name, r.ip, r.os, r.version, r.sys_brand, r.sys_model, r.sys_version, r.create_time];
      });
    }
    case 'online':
    case 'pop_online': {
      const pop = q.type === 'pop_online';
      const now = Date.now();
      const rows = await onlineRows(ctx, actor, { ...q, mode: pop ? 'pop' : 'p2p' }).select(onlineColumns).orderBy('start_time', 'desc').orderBy('id', 'desc').limit(max).execute();
      return rows.map((raw) => {
        const r = toOnline(ctx, raw, now);
        const peer = pop ? [r.pop_name, r.area] : [r.network_number, r.link_router_name];
        return [r.router_name, ...peer, r.orig, r.vpn_ip, r.start_time, r.end_time || M.logOngoing, r.online_time];
      });
    }
    case 'connect_p2p':
    case 'connect_pop': {
      const pop = q.type === 'connect_pop';
      const now = Date.now();
      const rows = await connectSessionRows(ctx, actor, { ...q, mode: pop ? 'pop' : 'p2p' }).select(connectSessionColumns).orderBy('o.start_time', 'desc').orderBy('o.id', 'desc').limit(max).execute();
      return rows.map((raw) => {
        const r = toConnectSession(ctx, raw, now);
        const peer = pop ? [r.pop_name, r.area] : [r.network_number, r.link_router_name];
        return [r.router_name, ...peer, r.remote_ip, r.remote_port, r.version, r.orig, r.vpn_ip, r.start_time, r.end_time || M.logOngoing, r.online_time];
      });
    }
    case 'connect': {
      const rows = await connectRows(ctx, actor, q).select(connectColumns).orderBy('create_time', 'desc').orderBy('id', 'desc').limit(max).execute();
      return rows.map((raw) => {
        const r = toConnect(ctx, raw);
        return [r.router_name, r.remote_ip, r.remote_port, r.version, r.online === 1 ? M.logConnectUp : M.logConnectDown, r.create_time];
      });
    }
  }
}

/** One log as .xlsx in base64 with its Chinese header row; 422 with M.exportEmpty when nothing matches (as /router/export). */
export async function exportLog(ctx: Ctx, actor: Actor, q: ExportQuery): Promise<LogExportFile> {
  const rows = await cellsOf(ctx, actor, q);
  if (rows.length === 0) throw invalid(M.exportEmpty);
  const body = await buildSheet(LOG_EXPORT_COLUMNS[q.type], rows);
  const day = formatTime(Date.now(), ctx.config.timezone).slice(0, 10).replaceAll('-', '');
  return { file_name: `${LOG_EXPORT_FILES[q.type]}-${day}.xlsx`, data: body.toString('base64') };
}
