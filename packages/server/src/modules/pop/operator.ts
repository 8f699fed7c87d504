import { popRegionName, type PopRegion } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { lockTenant } from '../../core/tenantLock';

/*
 * The operator's side of POP resources (the `hublink ops pops` commands): every tenant's resources,
 * one made without an order, its areas added and removed, its validity moved. Resources and areas are
 * named by id; refusals are ApiErrors with the sentence to print.
 */

export interface OperatorArea {
  id: number;
  region: string;
  name: string;
  /** Mbps */
  bandwidth: number;
  host: string;
  port: number;
}

export interface OperatorResource {
  id: number;
  tenant_id: number;
  /** The tenant's username. */
  tenant: string;
  name: string;
  status: number;
  /** Epoch ms. */
  create_time: number;
  expire_time: number;
  /** The access-POP order (network_ticket.id) that made it; null for one the operator made. */
  ticket_id: number | null;
  areas: OperatorArea[];
  /** The numbers of the networks using it. */
  networks: string[];
}

/** Every tenant's resources (or one tenant's), newest first, at most `limit`, with their areas and networks. */
export async function listAllResources(ctx: Ctx, opts: { tenantId?: number; limit: number }): Promise<OperatorResource[]> {
  const rows = await ctx.db
    .selectFrom('network_fr as f')
    .innerJoin('account as a', 'a.id', 'f.tenant_id')
    .select(['f.id', 'f.tenant_id', 'a.username as tenant', 'f.name', 'f.status', 'f.create_time', 'f.expire_time', 'f.ticket_id'])
    .$if(opts.tenantId !== undefined, (qb) => qb.where('f.tenant_id', '=', opts.tenantId!))
    .orderBy('f.id', 'desc')
    .limit(opts.limit)
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [areas, networks] = await Promise.all([
    ctx.db.selectFrom('network_fr_area').select(['id', 'network_fr_id', 'tenant_id', 'region', 'name', 'bandwidth', 'host', 'port']).where('network_fr_id', 'in', ids).orderBy('id').execute(),
    ctx.db.selectFrom('network').select(['network_fr_id', 'tenant_id', 'network_number']).where('network_fr_id', 'in', ids).orderBy('id').execute(),
  ]);
  // Both joins keep to the resource's tenant: network.network_fr_id has no foreign key.
  return rows.map((r) => ({
    ...r,
    create_time: Number(r.create_time),
    expire_time: Number(r.expire_time),
    areas: areas
      .filter((a) => a.network_fr_id === r.id && a.tenant_id === r.tenant_id)
      .map((a) => ({ id: a.id, region: a.region, name: a.name, bandwidth: a.bandwidth, host: a.host, port: a.port })),
    networks: networks.filter((n) => n.network_fr_id === r.id && n.tenant_id === r.tenant_id).map((n) => n.network_number),
  }));
}

/**
 * A resource the operator makes for a tenant without an order (no areas yet: `addArea`), announced
 * as `pop.created` like one from an order; with no network named the network module leaves it to the
 * tenant's POP resource config.
 */
export async function createResource(ctx: Ctx, r: { tenantId: number; name: string; status: number; expireTime: number }): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const fr = await trx
      .insertInto('network_fr')
      .values({ tenant_id: r.tenantId, name: r.name, status: r.status, create_time: Date.now(), expire_time: r.expireTime, ticket_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.events.emit(trx, { type: 'pop.created', tenant_id: r.tenantId, network_fr_id: fr.id, network_number: null });
    return fr.id;
  });
}

async function resourceOf(ctx: Ctx, id: number) {
  const fr = await ctx.db.selectFrom('network_fr').select(['id', 'tenant_id']).where('id', '=', id).executeTakeFirst();
  if (!fr) throw notFound(`no POP resource ${id}`);
  return fr;
}

export interface NewArea {
  region: PopRegion;
  /** Default: the region's name. */
  name?: string;
  bandwidth: number;
  /** Where the area's POP answers ('' until known) and its port (default 1194). */
  host?: string;
  port?: number;
}

/** Adds an area to a resource: one area a region, since the console's POP config has one column a region. */
export async function addArea(ctx: Ctx, frId: number, a: NewArea): Promise<number> {
  const fr = await resourceOf(ctx, frId);
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, fr.tenant_id);
    const taken = await trx.selectFrom('network_fr_area').select('id').where('network_fr_id', '=', fr.id).where('tenant_id', '=', fr.tenant_id).where('region', '=', a.region).executeTakeFirst();
    if (taken) throw invalid(`POP resource ${fr.id} already has an area in ${a.region} (area ${taken.id})`);
    const area = await trx
      .insertInto('network_fr_area')
      .values({
        tenant_id: fr.tenant_id,
        network_fr_id: fr.id,
        region: a.region,
        name: a.name ?? popRegionName(a.region),
        bandwidth: a.bandwidth,
        ...(a.host ? { host: a.host } : {}),
        ...(a.port ? { port: a.port } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return area.id;
  });
}

/**
 * Deletes an area no member dials (as main or backup area); the tenant lock keeps a member from being
 * given it meanwhile (the network module takes it before changing a member's areas).
 */
export async function removeArea(ctx: Ctx, areaId: number): Promise<{ network_fr_id: number }> {
  const area = await ctx.db.selectFrom('network_fr_area').select(['id', 'tenant_id', 'network_fr_id']).where('id', '=', areaId).executeTakeFirst();
  if (!area) throw notFound(`no POP area ${areaId}`);
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, area.tenant_id);
    const dialling = await trx
      .selectFrom('network_member as nm')
      .innerJoin('network as n', 'n.id', 'nm.network_id')
      .select('n.network_number')
      .where('nm.tenant_id', '=', area.tenant_id)
      .where((eb) => eb.or([eb('nm.ov_main', '=', area.id), eb('nm.ov_backup', '=', area.id)]))
      .execute();
    if (dialling.length > 0) {
      const networks = [...new Set(dialling.map((d) => d.network_number))].join(', ');
      throw invalid(`${dialling.length} network member(s) dial area ${area.id} (network ${networks}): move them to another area first`);
    }
    await trx.deleteFrom('network_fr_area').where('id', '=', area.id).where('tenant_id', '=', area.tenant_id).execute();
  });
  return { network_fr_id: area.network_fr_id };
}

/** Moves a resource's expiry. */
export async function renewResource(ctx: Ctx, frId: number, expireTime: number): Promise<void> {
  const fr = await resourceOf(ctx, frId);
  await ctx.db.updateTable('network_fr').set({ expire_time: expireTime }).where('id', '=', fr.id).where('tenant_id', '=', fr.tenant_id).execute();
}
