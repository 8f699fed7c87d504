import {
  CODE,
  fmt,
  FR_STATUS,
  M,
  parseCidr,
  overlaps,
  POOL_KEYS,
  POOL_LABELS,
  BACKUP_AREA_FROM,
  type Segment,
  type DomainEvent,
  type editIpPool as editIpPoolEndpoint,
  type IpPool,
  type setMemberOv as setMemberOvEndpoint,
  type setNetworkFr as setNetworkFrEndpoint,
} from '@hublink/contract';
import type { z } from 'zod';
import { ensurePoolsOffPrefixes } from './addressSpace';
import { centerLinkFrom, interconnectFrom, memberGateway, poolFrom } from './segmentsData';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { ApiError, invalid } from '../../core/errors';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import { recordVersion, versionBaseline } from './historyRecord';
import { networkOf } from './queries';
import { networkChanged } from './service';
import { changeNetwork, memberIn } from './settings';
import { networkOfTenant } from '../../domain/networks';

type FrInput = z.output<typeof setNetworkFrEndpoint.body>;
type OvInput = z.output<typeof setMemberOvEndpoint.body>;
type PoolInput = z.output<typeof editIpPoolEndpoint.body>;

/*
 * What a network does with POP resources (spec 2 §3–§5): its resource and line mode, its members' POP
 * areas and its IP address pools. The resources and their areas belong to the pop module; this module
 * reads them (tenant-scoped) and writes only network and network_member.
 */

/** The tenant's resource by id, when a network may use it (valid, not expired); 422 otherwise. */
async function usableFr(db: Db, tenantId: number, frId: number) {
  const fr = await db.selectFrom('network_fr').select(['id', 'status', 'expire_time']).where('id', '=', frId).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!fr) throw invalid(M.popFrNotFound);
  if (fr.status !== FR_STATUS.valid || fr.expire_time <= Date.now()) throw invalid(M.popFrUnusable);
  return fr;
}

const areasOf = (db: Db, tenantId: number, frId: number) =>
  db.selectFrom('network_fr_area').select(['id', 'name', 'routers']).where('tenant_id', '=', tenantId).where('network_fr_id', '=', frId).orderBy('id').execute();

/** The names a document gives the network's resource and its members' areas (networks as code). */
export async function popNamesOf(db: Db, tenantId: number, frId: number | null): Promise<{ frName: string | null; areas: Map<number, string> }> {
  if (frId === null) return { frName: null, areas: new Map() };
  const fr = await db.selectFrom('network_fr').select('name').where('id', '=', frId).where('tenant_id', '=', tenantId).executeTakeFirst();
  return { frName: fr?.name ?? null, areas: new Map((await areasOf(db, tenantId, frId)).map((a) => [a.id, a.name])) };
}

/** The tenant's resources by name (a name may be shared), each with its areas by name. */
export async function popsByName(db: Db, tenantId: number, name: string): Promise<{ id: number; areas: { id: number; name: string }[] }[]> {
  const frs = await db.selectFrom('network_fr').select('id').where('tenant_id', '=', tenantId).where('name', '=', name).orderBy('id').execute();
  return Promise.all(frs.map(async (fr) => ({ id: fr.id, areas: await areasOf(db, tenantId, fr.id) })));
}

/** The network's resource and pools, read under the lock changeNetwork holds. */
const popStateOf = (trx: Db, networkId: number) => trx.selectFrom('network').select(['network_fr_id', 'ip_pool']).where('id', '=', networkId).executeTakeFirstOrThrow();

/** A member's areas belong to one resource: another resource clears them. */
const clearAreas = (trx: Db, networkId: number) => trx.updateTable('network_member').set({ ov_main: 0, ov_backup: 0 }).where('network_id', '=', networkId).execute();

// ---- the network's resource and line mode ----

/**
 * Makes a usable resource of the tenant the network's, with its line mode. A network without a POP
 * pool answers 423 (the console opens the pool dialog) and changes nothing; another resource than
 * before clears the members' areas.
 */
export async function setFr(ctx: Ctx, actor: Actor, input: FrInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { event: 'settings' }, async (trx, net) => {
    await usableFr(trx, actor.tenantId, input.network_fr_id);
    const state = await popStateOf(trx, net.id);
    if (poolFrom(state.ip_pool).pop === '') throw new ApiError(CODE.furtherAction, M.popPoolMissing);
    if (state.network_fr_id !== input.network_fr_id) await clearAreas(trx, net.id);
    await trx
      .updateTable('network')
      .set({ network_fr_id: input.network_fr_id, mode: input.mode, update_time: Date.now() })
      .where('id', '=', net.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  });
}

/** Renames the network from its POP config page (up to 32 characters there); the network must have a POP resource. */
export async function renameOnPop(ctx: Ctx, actor: Actor, networkNumber: string, name: string): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'none' }, async (trx, net) => {
    const state = await popStateOf(trx, net.id);
    if (state.network_fr_id === null) throw invalid(M.popNetworkNoFr);
    await trx.updateTable('network').set({ network_name: name, update_time: Date.now() }).where('id', '=', net.id).where('tenant_id', '=', actor.tenantId).execute();
    await networkChanged(ctx, trx, actor.tenantId, net.id, 'edited');
  });
}

// ---- a member's POP areas ----

/** Main and backup (0 for none; only with more than two areas) among the areas of the network's resource; main 0 clears both. */
export async function setMemberOv(ctx: Ctx, actor: Actor, input: OvInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { event: 'settings' }, async (trx, net) => {
    const state = await popStateOf(trx, net.id);
    if (state.network_fr_id === null) throw invalid(M.popNetworkNoFr);
    const m = await memberIn(trx, actor.tenantId, net.id, input.router_name);
    const ids = new Set((await areasOf(trx, actor.tenantId, state.network_fr_id)).map((a) => a.id));
    if (input.ov_id_main !== 0 && !ids.has(input.ov_id_main)) throw invalid(M.popAreaNotOfFr);
    if (input.ov_id_backup !== 0) {
      if (ids.size < BACKUP_AREA_FROM) throw invalid(M.popAreaBackupNeedsAreas);
      if (!ids.has(input.ov_id_backup)) throw invalid(M.popAreaNotOfFr);
    }
    await trx.updateTable('network_member').set({ ov_main: input.ov_id_main, ov_backup: input.ov_id_backup }).where('id', '=', m.id).execute();
  });
}

// ---- IP address pools ----

export async function ipPool(ctx: Ctx, actor: Actor, networkNumber: string): Promise<IpPool> {
  return poolFrom((await networkOf(ctx.db, actor, networkNumber)).ip_pool);
}

/** A center's segments as stored in network_member.gateway (read by segmentsData.ts, which segments.ts writes through). */
function segmentsOf(json: string): Segment[] {
  const { router, software } = memberGateway(json);
  return [router, software].filter((g) => g !== null).map((g) => ({ ip: g.gateway, mask: g.mask }));
}

/** The network's interconnect and twin-center segments where set, with what a refusal calls them. */
async function linkSegmentsOf(trx: Db, networkId: number): Promise<{ segment: Segment; what: string }[]> {
  const net = await trx.selectFrom('network').select(['interconnect_network', 'center_link_network']).where('id', '=', networkId).executeTakeFirstOrThrow();
  const interconnect = interconnectFrom(net.interconnect_network);
  const link = centerLinkFrom(net.center_link_network);
  return [
    ...(interconnect ? [{ segment: { ip: interconnect.gateway, mask: interconnect.mask }, what: M.segWhatInterconnect }] : []),
    ...(link.gateway ? [{ segment: { ip: link.gateway, mask: link.mask }, what: M.segWhatCenterLink }] : []),
  ];
}

/**
 * Replaces the network's pools (the contract checks each and that none overlaps another). None may
 * overlap a segment of a member of the network, its interconnect or twin-center segment either, and
 * a pool that comes into use (set, changed, or the default of one cleared) may not cover a route
 * prefix. The POP pool is required while the network has a resource, and with fr_id (the POP
 * resource config's 423 path: that resource must be usable).
 */
export async function editIpPool(ctx: Ctx, actor: Actor, input: PoolInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { event: 'settings' }, async (trx, net) => {
    if (input.fr_id !== undefined) await usableFr(trx, actor.tenantId, input.fr_id);
    const state = await popStateOf(trx, net.id);
    if (state.network_fr_id !== null && input.pop === '') throw invalid(M.popPoolPopRequired);
    const members = await trx
      .selectFrom('network_member as nm')
      .innerJoin('member as m', 'm.id', 'nm.member_id')
      .select(['m.router_name', 'nm.gateway'])
      .where('nm.network_id', '=', net.id)
      .where('nm.tenant_id', '=', actor.tenantId)
      .orderBy('nm.id')
      .execute();
    const pool: IpPool = { pop: input.pop, center_link_network: input.center_link_network, center_network: input.center_network, pop_software: input.pop_software, other: input.other };
    const links = await linkSegmentsOf(trx, net.id);
    for (const k of POOL_KEYS) {
      const c = parseCidr(pool[k]);
      if (!c) continue;
      for (const m of members) {
        if (segmentsOf(m.gateway).some((s) => overlaps(c, s))) {
          throw invalid(fmt(M.popPoolOverlap, { a: POOL_LABELS[k], b: fmt(M.popPoolMember, { name: m.router_name }) }));
        }
      }
      const link = links.find((l) => overlaps(c, l.segment));
      if (link) throw invalid(fmt(M.popPoolOverlap, { a: POOL_LABELS[k], b: link.what }));
    }
    await ensurePoolsOffPrefixes(trx, actor.tenantId, net.id, poolFrom(state.ip_pool), pool);
    await trx
      .updateTable('network')
      .set({ ip_pool: JSON.stringify(pool), update_time: Date.now() })
      .where('id', '=', net.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  });
}

// ---- a new resource from an access-POP order ----

/**
 * `pop.created`: the resource becomes the network's when it has none; members the order put in a
 * region (the area's routers) that have no main area get that area. A network that already has a
 * resource keeps it (the user switches in the POP resource config). Idempotent: a redelivery finds
 * the network's resource set.
 */
export async function assignCreatedPop(event: DomainEvent<'pop.created'>, ctx: Ctx): Promise<void> {
  if (!event.network_number) return;
  const networkNumber = event.network_number;
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, event.tenant_id);
    const net = await networkOfTenant(trx, event.tenant_id, networkNumber, ['id', 'network_fr_id']);
    if (!net || net.network_fr_id !== null) return;
    const areas = await areasOf(trx, event.tenant_id, event.network_fr_id);
    if (areas.length === 0) return;
    await versionBaseline(trx, event.tenant_id, net.id);
    await trx.updateTable('network').set({ network_fr_id: event.network_fr_id, update_time: Date.now() }).where('id', '=', net.id).execute();
    for (const area of areas) {
      const names = routersOf(area.routers);
      if (names.length === 0) continue;
      const members = trx
        .selectFrom('member')
        .select('id')
        .where('tenant_id', '=', event.tenant_id)
        .where('router_key', 'in', names.map((n) => n.toLowerCase()));
      await trx.updateTable('network_member').set({ ov_main: area.id }).where('network_id', '=', net.id).where('ov_main', '=', 0).where('member_id', 'in', members).execute();
    }
    await ctx.events.emit(trx, { type: 'network.changed', tenant_id: event.tenant_id, network_id: net.id, change: 'settings' });
    await recordVersion(trx, null, event.tenant_id, net.id);
  });
}

function routersOf(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string').slice(0, 1000) : [];
  } catch {
    return [];
  }
}
