import { isIP } from 'node:net';
import { CODE, FR_STATUS, RELAY_LIMITS, RELAY_TIMING, relayReport, type RelayTable } from '@hublink/contract';
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../core/context';
import { credentialHash } from '../domain/deviceCredentials';
import { ApiError, invalid, ok } from '../core/errors';

/*
 * POST /api/device/v1/relay/sync (issue 30): a POP relay (`hublink relay`) posts its load with its
 * token and gets its area's forwarding table back; the post is its liveness too. The table is the
 * area's relay ports (pop_relay_port, kept by the compiler) whose center has a known address, while
 * the area's POP resource is valid. Limits: a relay's calls per minute, and failed tokens per address
 * (the global rate limit leaves the device routes alone).
 */

const SYNC_LIMIT = { name: 'relay-sync', max: RELAY_LIMITS.syncPerMinute, windowSeconds: 60, message: 'too many relay calls' };
const BAD_TOKEN_LIMIT = { name: 'relay-bad-token', max: RELAY_LIMITS.badTokenPerIp, windowSeconds: 900, message: 'too many failed relay tokens' };
const BEARER = /^Bearer (\S{1,64})$/;

const refused = () => new ApiError(CODE.tokenInvalid, 'relay token missing or invalid');

export function relayRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.post('/relay/sync', { schema: { hide: true }, bodyLimit: 4096 }, async (req) => {
    const attempt = await ctx.limiter.reserve([BAD_TOKEN_LIMIT, req.ip]);
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    const relay = token
      ? await ctx.db.selectFrom('pop_relay').select(['id', 'tenant_id', 'area_id']).where('token_hash', '=', credentialHash(token)).executeTakeFirst()
      : undefined;
    if (!relay) throw refused();
    await attempt.release();
    await ctx.limiter.hit(SYNC_LIMIT, String(relay.id));
    const report = relayReport.safeParse(req.body);
    if (!report.success) throw invalid(report.error.issues[0]?.message ?? 'bad report');
    const now = Date.now();
    await ctx.db
      .updateTable('pop_relay')
      .set({ seen_time: now, address: req.ip.slice(0, 64), sessions: report.data.sessions, bytes_in: report.data.bytes_in, bytes_out: report.data.bytes_out })
      .where('id', '=', relay.id)
      .where('tenant_id', '=', relay.tenant_id)
      .execute();
    return ok(await tableOf(ctx, relay.tenant_id, relay.area_id, now));
  });
}

/** The area's forwarding table: empty while its resource is not valid. */
export async function tableOf(ctx: Ctx, tenantId: number, areaId: number, now = Date.now()): Promise<RelayTable> {
  const area = await ctx.db
    .selectFrom('network_fr_area as a')
    .innerJoin('network_fr as f', (j) => j.onRef('f.id', '=', 'a.network_fr_id').onRef('f.tenant_id', '=', 'a.tenant_id'))
    .select(['a.name', 'f.status', 'f.expire_time'])
    .where('a.id', '=', areaId)
    .where('a.tenant_id', '=', tenantId)
    .executeTakeFirst();
  const base = { area: area?.name ?? '', poll_seconds: RELAY_TIMING.pollSeconds };
  if (!area || area.status !== FR_STATUS.valid || Number(area.expire_time) <= now) return { ...base, forwards: [] };
  const rows = await ctx.db
    .selectFrom('pop_relay_port as p')
    .innerJoin('network as n', (j) => j.onRef('n.id', '=', 'p.network_id').onRef('n.tenant_id', '=', 'p.tenant_id'))
    .innerJoin('member as m', (j) => j.onRef('m.id', '=', 'p.center_member_id').onRef('m.tenant_id', '=', 'p.tenant_id'))
    .select(['p.port', 'p.target_host', 'p.target_port', 'p.service', 'n.network_number', 'm.router_name'])
    .where('p.area_id', '=', areaId)
    .where('p.tenant_id', '=', tenantId)
    .orderBy('p.port')
    .execute();
  return {
    ...base,
    forwards: rows
      // A center whose address is not known yet (its name stands in) cannot be forwarded to.
      .filter((r) => isIP(r.target_host) !== 0)
      .map((r) => ({ port: r.port, host: r.target_host, target_port: r.target_port, label: `${r.network_number}/${r.router_name}/${r.service}` })),
  };
}
