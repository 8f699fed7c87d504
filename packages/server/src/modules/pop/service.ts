import { FR_STATUS, type FrArea, type FrChoice, type FrItem, type listFr } from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ensureNetworkAllowed } from '../../core/networks';
import { contains, pageOf } from '../../core/paging';
import type { Db } from '../../db/connect';
import { networkOfTenant } from '../../domain/networks';

type ListQuery = z.output<typeof listFr.query>;

/*
 * The tenant's POP resources (spec 2 §2 "POP resource list", §7 network_fr/*). Every query is scoped
 * by the tenant; the networks a resource serves are read from the network table (the network module's).
 */

const DAY_MS = 86_400_000;

/** Whole days left, 0 once expired. */
export const daysLeft = (expireTime: number, now = Date.now()) => Math.max(0, Math.floor((expireTime - now) / DAY_MS));

/** A resource a network may use: valid and not expired. */
export const usable = (fr: { status: number; expire_time: number }, now = Date.now()) => fr.status === FR_STATUS.valid && fr.expire_time > now;

async function areasOf(db: Db, tenantId: number, frIds: number[]) {
  if (frIds.length === 0) return [];
  return db
    .selectFrom('network_fr_area')
    .select(['id', 'network_fr_id', 'name', 'region', 'bandwidth'])
    .where('tenant_id', '=', tenantId)
    .where('network_fr_id', 'in', frIds)
    .orderBy('id')
    .execute();
}

/** Search matches the name; 10 a page, newest first; times in seconds (spec 2 §9). */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: FrItem[]; count: number }> {
  const filtered = ctx.db
    .selectFrom('network_fr')
    .where('tenant_id', '=', actor.tenantId)
    .$if(!!q.search, (qb) => qb.where((eb) => contains(ctx.dialect, eb.ref('name'), q.search!)));
  const { rows, count } = await pageOf(filtered, q, (qb) => qb.select(['id', 'name', 'status', 'create_time', 'expire_time']).orderBy('id', 'desc'));
  const ids = rows.map((r) => r.id);
  const [areas, networks] = await Promise.all([
    areasOf(ctx.db, actor.tenantId, ids),
    ids.length === 0
      ? []
      : ctx.db
          .selectFrom('network')
          .select(['network_fr_id', 'network_name', 'network_number'])
          .where('tenant_id', '=', actor.tenantId)
          .where('network_fr_id', 'in', ids)
          .orderBy('id')
          .execute(),
  ]);
  const now = Date.now();
  return {
    rows: rows.map((r) => ({
      network_fr_id: r.id,
      name: r.name,
      create_time: Math.floor(r.create_time / 1000),
      expire_time: Math.floor(r.expire_time / 1000),
      expire_day: daysLeft(r.expire_time, now),
      status: r.status,
      network: networks.filter((n) => n.network_fr_id === r.id).map((n) => ({ network_name: n.network_name, network_number: n.network_number })),
      area: areas.filter((a) => a.network_fr_id === r.id).map((a) => ({ name: a.name, bandwidth: a.bandwidth })),
    })),
    count,
  };
}

/** The resources a network may pick in the POP resource config: valid and not expired, newest first. */
export async function choices(ctx: Ctx, actor: Actor): Promise<FrChoice[]> {
  const now = Date.now();
  const rows = await ctx.db
    .selectFrom('network_fr')
    .select(['id', 'name', 'status', 'expire_time'])
    .where('tenant_id', '=', actor.tenantId)
    .where('status', '=', FR_STATUS.valid)
    .where('expire_time', '>', now)
    .orderBy('id', 'desc')
    .execute();
  const areas = await areasOf(ctx.db, actor.tenantId, rows.map((r) => r.id));
  return rows.map((r) => ({
    network_fr_id: r.id,
    shortname: r.name,
    expire_day: daysLeft(r.expire_time, now),
    area_count: areas.filter((a) => a.network_fr_id === r.id).length,
  }));
}

/** The areas of a network's POP resource (none without one); 204 for no such network of the tenant. */
export async function areasOfNetwork(ctx: Ctx, actor: Actor, networkNumber: string): Promise<FrArea[] | null> {
  ensureNetworkAllowed(actor, networkNumber);
  const net = await networkOfTenant(ctx.db, actor.tenantId, networkNumber, ['network_fr_id']);
  if (!net) return null;
  if (net.network_fr_id === null) return [];
  return (await areasOf(ctx.db, actor.tenantId, [net.network_fr_id])).map((a) => ({ id: a.id, name: a.name, region: a.region, bandwidth: a.bandwidth }));
}
