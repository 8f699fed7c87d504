import { randomBytes } from 'node:crypto';
import { RELAY_TIMING } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { credentialHash } from '../../domain/deviceCredentials';
import { notFound } from '../../core/errors';

/*
 * POP relays (issue 30), the operator's side: a relay of an area is registered with a token shown
 * once (only its hash is kept), listed with what it last reported, and removed. The device gateway
 * writes what a relay reports (gateway/relayTable.ts); the ports it forwards are the compiler's.
 */

export interface OperatorRelay {
  id: number;
  tenant: string;
  area_id: number;
  area: string;
  name: string;
  /** Epoch ms; null: never reported. */
  seen_time: number | null;
  live: boolean;
  address: string;
  sessions: number;
  bytes_in: number;
  bytes_out: number;
  /** Ports its table holds now. */
  ports: number;
}

/** A relay token: 'hlr_' and 32 base64url characters (192 random bits). */
export const newRelayToken = () => `hlr_${randomBytes(24).toString('base64url')}`;

/** Registers a relay for an area; answers its id and token (shown once). */
export async function addRelay(ctx: Ctx, areaId: number, name: string): Promise<{ id: number; token: string }> {
  const area = await ctx.db.selectFrom('network_fr_area').select(['id', 'tenant_id']).where('id', '=', areaId).executeTakeFirst();
  if (!area) throw notFound(`no POP area ${areaId}`);
  const token = newRelayToken();
  const row = await ctx.db
    .insertInto('pop_relay')
    .values({ tenant_id: area.tenant_id, area_id: area.id, name, token_hash: credentialHash(token), create_time: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}

/** Every relay (or one area's), by area then id, with its last report and whether it is live now. */
export async function listRelays(ctx: Ctx, opts: { areaId?: number; now?: number } = {}): Promise<OperatorRelay[]> {
  const now = opts.now ?? Date.now();
  const rows = await ctx.db
    .selectFrom('pop_relay as r')
    .innerJoin('network_fr_area as a', (j) => j.onRef('a.id', '=', 'r.area_id').onRef('a.tenant_id', '=', 'r.tenant_id'))
    .innerJoin('account as t', 't.id', 'r.tenant_id')
    .select(['r.id', 't.username as tenant', 'r.area_id', 'a.name as area', 'r.name', 'r.seen_time', 'r.address', 'r.sessions', 'r.bytes_in', 'r.bytes_out'])
    .$if(opts.areaId !== undefined, (qb) => qb.where('r.area_id', '=', opts.areaId!))
    .orderBy('r.area_id')
    .orderBy('r.id')
    .execute();
  const areaIds = [...new Set(rows.map((r) => r.area_id))];
  const ports = areaIds.length
    ? await ctx.db.selectFrom('pop_relay_port').select(['area_id', (eb) => eb.fn.countAll<number>().as('n')]).where('area_id', 'in', areaIds).groupBy('area_id').execute()
    : [];
  return rows.map((r) => {
    const seen = r.seen_time === null ? null : Number(r.seen_time);
    return {
      ...r,
      seen_time: seen,
      live: seen !== null && now - seen <= RELAY_TIMING.liveSeconds * 1000,
      bytes_in: Number(r.bytes_in),
      bytes_out: Number(r.bytes_out),
      ports: Number(ports.find((p) => p.area_id === r.area_id)?.n ?? 0),
    };
  });
}

/** Removes a relay: its token stops working at its next call. */
export async function removeRelay(ctx: Ctx, id: number): Promise<{ area_id: number }> {
  const row = await ctx.db.selectFrom('pop_relay').select(['id', 'area_id', 'tenant_id']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`no POP relay ${id}`);
  await ctx.db.deleteFrom('pop_relay').where('id', '=', row.id).where('tenant_id', '=', row.tenant_id).execute();
  return { area_id: row.area_id };
}
