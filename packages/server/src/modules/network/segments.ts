import {
  fixedPortOf,
  M,
  NETWORK_DEFAULTS,
  parseCidr,
  ROUTING_TYPE,
  segmentsOverlap,
  type CenterLinkNetwork,
  type CenterLinkView,
  type editCenterGateway as editCenterGatewayEndpoint,
  type NetworkPrefix,
  type PrefixPermission,
  type PrefixRowInput,
  type SegmentValue,
  type setCenterLink as setCenterLinkEndpoint,
  type setFixedPort as setFixedPortEndpoint,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { invalid } from '../../core/errors';
import type { Db } from '../../db/connect';
import { ensureOffPrefixes, ensurePrefixesOffVpn } from './addressSpace';
import { centerLinkFrom, centerLinkViewOf, interconnectFrom, linkCentersFrom, memberGateway, poolCidrs } from './segmentsData';
import { networkOf } from './queries';
import { applyRouting, changeNetwork, memberIn, type RoutingChoice } from './settings';

type FixedPortInput = z.output<typeof setFixedPortEndpoint.body>;
type CenterGatewayInput = z.output<typeof editCenterGatewayEndpoint.body>;
type CenterLinkInput = z.output<typeof setCenterLinkEndpoint.body>;

/*
 * The segment and link settings of the network detail (spec 2 §3, §4, §5): route prefixes, a center's
 * fixed ports and VPN segments, center interconnect, the twin-center link and point links. Each change
 * goes through changeNetwork (tenant lock, role list, 204, 422 while disabled) and emits
 * network.changed 'settings' only when something changed. Every VPN segment of a network (centers'
 * hardware and software segments, the interconnect and twin-center segments) is kept apart from the
 * others, from the network's IP pools and from its route prefixes, and route prefixes are kept out of
 * the VPN's addresses (addressSpace.ts); the tenant lock makes each check and its write one step.
 */

async function emitChanged(ctx: Ctx, trx: Db, tenantId: number, networkId: number) {
  await ctx.events.emit(trx, { type: 'network.changed', tenant_id: tenantId, network_id: networkId, change: 'settings' });
}

async function touch(trx: Db, tenantId: number, networkId: number, set: Record<string, string | number>) {
  await trx
    .updateTable('network')
    .set({ ...set, update_time: Date.now() })
    .where('id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .execute();
}

async function networkRow(trx: Db, tenantId: number, networkId: number) {
  return trx.selectFrom('network').selectAll().where('id', '=', networkId).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
}

async function centerCount(trx: Db, tenantId: number, networkId: number): Promise<number> {
  const r = await trx
    .selectFrom('network_member')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .where('member_type', '=', 'center')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A center of the network by name; 422 when it is not in the network or not a center. */
async function centerIn(trx: Db, tenantId: number, networkId: number, routerName: string) {
  const m = await memberIn(trx, tenantId, networkId, routerName);
  if (m.member_type !== 'center') throw invalid(M.segCenterOnly);
  return m;
}

// ---- segments apart ----

/** Which segment of the network a check leaves out: the one being replaced. */
type Own = { member: number } | 'interconnect' | 'center_link';

/**
 * Refuses `segments` that overlap another VPN segment of the network (422 M.segOverlap), one of its
 * IP pools (422 M.segOverlapPool) or one of its route prefixes (422 M.segOverlapPrefix); `own` is the
 * setting they replace.
 */
async function ensureApart(trx: Db, tenantId: number, networkId: number, own: Own, segments: SegmentValue[]) {
  const net = await networkRow(trx, tenantId, networkId);
  const others: SegmentValue[] = [];
  const members = await trx
    .selectFrom('network_member')
    .select(['id', 'gateway'])
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .where('member_type', '=', 'center')
    .execute();
  for (const m of members) {
    if (typeof own === 'object' && own.member === m.id) continue;
    const g = memberGateway(m.gateway);
    for (const s of [g.router, g.software]) if (s) others.push(s);
  }
  const interconnect = interconnectFrom(net.interconnect_network);
  if (own !== 'interconnect' && interconnect) others.push(interconnect);
  const link = centerLinkFrom(net.center_link_network);
  if (own !== 'center_link' && link.gateway) others.push({ gateway: link.gateway, mask: link.mask });
  for (const s of segments) if (others.some((o) => segmentsOverlap(s, o))) throw invalid(M.segOverlap);
  const pools = poolCidrs(net.ip_pool).flatMap((p) => {
    const c = parseCidr(p);
    return c ? [{ gateway: c.ip, mask: c.mask }] : [];
  });
  for (const s of segments) if (pools.some((p) => segmentsOverlap(s, p))) throw invalid(M.segOverlapPool);
  await ensureOffPrefixes(trx, tenantId, networkId, segments);
}

// ---- route prefixes ----

/** A network's prefix rows in their order, as stored. */
function prefixRows(db: Db, tenantId: number, networkId: number) {
  return db
    .selectFrom('network_prefix')
    .select(['ip', 'mask', 'name', 'permission', 'ge', 'le'])
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .orderBy('position')
    .execute();
}

export async function prefixes(ctx: Ctx, actor: Actor, networkNumber: string): Promise<NetworkPrefix[]> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  const rows = await prefixRows(ctx.db, actor.tenantId, net.id);
  return rows.map((r) => ({ ...r, permission: r.permission === 'deny' ? 'deny' : 'permit' }));
}

/**
 * Replaces the prefix list (auth.quagga required). A row's name must be a member of the network (kept
 * as the member spells it); permission, ge and le are kept only with auth.quagga_advanced. A list that
 * changes may not reach into the VPN's addresses (any row, permit or deny, with or without a member).
 */
export async function editPrefix(ctx: Ctx, actor: Actor, networkNumber: string, rows: PrefixRowInput[]): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { flag: 'auth_quagga', event: 'none' }, async (trx, net) => {
    const account = await trx.selectFrom('account').select('auth_quagga_advanced').where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
    const advanced = account.auth_quagga_advanced === 1;
    const next: NetworkPrefix[] = [];
    for (const r of rows) {
      const name = r.name === '' ? '' : (await memberIn(trx, actor.tenantId, net.id, r.name)).router_name;
      const permission: PrefixPermission = advanced && r.permission ? r.permission : 'permit';
      next.push({ ip: r.ip, mask: r.mask, name, permission, ge: advanced ? (r.ge ?? null) : null, le: advanced ? (r.le ?? null) : null });
    }
    const before = await prefixRows(trx, actor.tenantId, net.id);
    if (JSON.stringify(before) === JSON.stringify(next)) return;
    await ensurePrefixesOffVpn(trx, actor.tenantId, net.id, next);
    await trx.deleteFrom('network_prefix').where('network_id', '=', net.id).where('tenant_id', '=', actor.tenantId).execute();
    if (next.length > 0) {
      await trx
        .insertInto('network_prefix')
        .values(next.map((r, position) => ({ ...r, tenant_id: actor.tenantId, network_id: net.id, position })))
        .execute();
    }
    await emitChanged(ctx, trx, actor.tenantId, net.id);
  });
}

// ---- a center's fixed ports and segments ----

export async function setFixedPort(ctx: Ctx, actor: Actor, input: FixedPortInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { event: 'none' }, async (trx, net) => {
    const m = await centerIn(trx, actor.tenantId, net.id, input.router_name);
    const value = JSON.stringify({ router: fixedPortOf(input.router_service), software: fixedPortOf(input.software_service) });
    const row = await trx.selectFrom('network_member').select('fixed_port').where('id', '=', m.id).executeTakeFirstOrThrow();
    if (row.fixed_port === value) return;
    await trx.updateTable('network_member').set({ fixed_port: value }).where('id', '=', m.id).execute();
    await emitChanged(ctx, trx, actor.tenantId, net.id);
  });
}

export async function editCenterGateway(ctx: Ctx, actor: Actor, input: CenterGatewayInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { event: 'none' }, async (trx, net) => {
    const m = await centerIn(trx, actor.tenantId, net.id, input.router_name);
    const router = { gateway: input.router_network.gateway, mask: input.router_network.mask };
    // The software segment is optional: with none, the compiler allocates one from the network's pool.
    const software = input.software_network === null ? null : { gateway: input.software_network.gateway, mask: input.software_network.mask };
    await ensureApart(trx, actor.tenantId, net.id, { member: m.id }, software === null ? [router] : [router, software]);
    const value = JSON.stringify({ router, software });
    const row = await trx.selectFrom('network_member').select('gateway').where('id', '=', m.id).executeTakeFirstOrThrow();
    if (row.gateway === value) return;
    await trx.updateTable('network_member').set({ gateway: value }).where('id', '=', m.id).execute();
    await emitChanged(ctx, trx, actor.tenantId, net.id);
  });
}

// ---- center interconnect ----

/** On needs two or more centers; off always works. */
export async function enableInterconnect(ctx: Ctx, actor: Actor, networkNumber: string, enable: number): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'none' }, async (trx, net) => {
    if (enable === 1 && (await centerCount(trx, actor.tenantId, net.id)) < NETWORK_DEFAULTS.centerLinkMinCenters) throw invalid(M.segLinkCenters);
    const row = await networkRow(trx, actor.tenantId, net.id);
    if (row.interconnect === enable) return;
    await touch(trx, actor.tenantId, net.id, { interconnect: enable });
    await emitChanged(ctx, trx, actor.tenantId, net.id);
  });
}

export async function editInterconnectSegment(ctx: Ctx, actor: Actor, networkNumber: string, segment: SegmentValue): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'none' }, async (trx, net) => {
    await ensureApart(trx, actor.tenantId, net.id, 'interconnect', [segment]);
    const value = JSON.stringify({ gateway: segment.gateway, mask: segment.mask });
    const row = await networkRow(trx, actor.tenantId, net.id);
    if (row.interconnect_network === value) return;
    await touch(trx, actor.tenantId, net.id, { interconnect_network: value });
    await emitChanged(ctx, trx, actor.tenantId, net.id);
  });
}

// ---- twin-center link ----

export async function centerLinkNetwork(ctx: Ctx, actor: Actor, networkNumber: string): Promise<CenterLinkView> {
  return centerLinkViewOf(await networkOf(ctx.db, actor, networkNumber));
}

/**
 * The routing a twin-center line mode stands for: dual primary, or main-backup with the link's server
 * as the main line and the other twin center as the backup: the first other center to have joined,
 * the one the compiler links the server to.
 */
async function lineModeRouting(trx: Db, tenantId: number, networkId: number, lineMode: number, server: { member_id: number; router_name: string }): Promise<RoutingChoice> {
  if (lineMode !== ROUTING_TYPE.mainBackup) return { type: ROUTING_TYPE.dual };
  const other = await trx
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select('m.router_name')
    .where('nm.network_id', '=', networkId)
    .where('nm.tenant_id', '=', tenantId)
    .where('nm.member_type', '=', 'center')
    .where('nm.member_id', '!=', server.member_id)
    .orderBy('nm.id')
    .executeTakeFirstOrThrow();
  return { type: ROUTING_TYPE.mainBackup, main_router: server.router_name, secondary_router: other.router_name };
}

/**
 * enable 1 stores the link and turns it on (two or more centers, the server one of them), and with a
 * line mode sets the network's routing in the same change (one version, one audit entry); enable 0
 * turns it off and keeps what was set, so the dialog shows it again.
 */
export async function setCenterLink(ctx: Ctx, actor: Actor, input: CenterLinkInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { event: 'none' }, async (trx, net) => {
    const row = await networkRow(trx, actor.tenantId, net.id);
    if (input.enable === 0) {
      if (row.center_link === 0) return;
      await touch(trx, actor.tenantId, net.id, { center_link: 0 });
      await emitChanged(ctx, trx, actor.tenantId, net.id);
      return;
    }
    if ((await centerCount(trx, actor.tenantId, net.id)) < NETWORK_DEFAULTS.centerLinkMinCenters) throw invalid(M.segLinkCenters);
    const server = await centerIn(trx, actor.tenantId, net.id, input.center_router_name!);
    const gateway = input.gateway ?? '';
    if (gateway) await ensureApart(trx, actor.tenantId, net.id, 'center_link', [{ gateway, mask: input.mask! }]);
    const value: CenterLinkNetwork = {
      gateway,
      mask: gateway ? input.mask! : 0,
      public_ip: input.public_ip ?? '',
      public_port: input.public_port ?? 0,
      static_port: input.static_port ?? 0,
      center_router_name: server.router_name,
    };
    const text = JSON.stringify(value);
    let changed = false;
    if (row.center_link !== 1 || row.center_link_network !== text) {
      await touch(trx, actor.tenantId, net.id, { center_link: 1, center_link_network: text });
      changed = true;
    }
    if (input.line_mode !== undefined) {
      const routing = await lineModeRouting(trx, actor.tenantId, net.id, input.line_mode, server);
      if (await applyRouting(trx, actor.tenantId, net.id, routing)) changed = true;
    }
    if (changed) await emitChanged(ctx, trx, actor.tenantId, net.id);
  });
}

// ---- point links ----

/** Every point of the network with the centers it links to (every center unless set otherwise). */
export async function pointLinks(ctx: Ctx, actor: Actor, networkNumber: string): Promise<{ link_config: Record<string, string[]> }> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  const rows = await ctx.db
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select(['nm.id', 'nm.member_id', 'nm.member_type', 'nm.link_centers', 'm.router_name'])
    .where('nm.network_id', '=', net.id)
    .where('nm.tenant_id', '=', actor.tenantId)
    .orderBy('nm.id')
    .execute();
  const centers = rows.filter((r) => r.member_type === 'center');
  const link_config: Record<string, string[]> = {};
  for (const p of rows.filter((r) => r.member_type !== 'center')) {
    const chosen = linkCentersFrom(p.link_centers);
    const names = chosen ? centers.filter((c) => chosen.includes(c.member_id)).map((c) => c.router_name) : [];
    link_config[p.router_name] = names.length > 0 ? names : centers.map((c) => c.router_name);
  }
  return { link_config };
}

/** Replaces the point links: a point left out, or linked to every center, links to every center. */
export async function setPointLinks(ctx: Ctx, actor: Actor, networkNumber: string, config: Record<string, string[]>): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'none' }, async (trx, net) => {
    const all = await trx
      .selectFrom('network_member')
      .select(['id', 'member_id', 'member_type', 'link_centers'])
      .where('network_id', '=', net.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
    const centers = all.filter((r) => r.member_type === 'center').map((r) => r.member_id);
    const next = new Map<number, string | null>(all.filter((r) => r.member_type !== 'center').map((r) => [r.id, null]));
    for (const [pointName, centerNames] of Object.entries(config)) {
      const point = await memberIn(trx, actor.tenantId, net.id, pointName);
      if (point.member_type === 'center') throw invalid(M.segPointLinkNotPoint);
      const ids = new Set<number>();
      for (const name of centerNames) {
        const c = await memberIn(trx, actor.tenantId, net.id, name);
        if (c.member_type !== 'center') throw invalid(M.segPointLinkNotCenter);
        ids.add(c.member_id);
      }
      const chosen = centers.filter((id) => ids.has(id));
      next.set(point.id, chosen.length === centers.length ? null : JSON.stringify(chosen));
    }
    const changed = all.filter((r) => next.has(r.id) && next.get(r.id) !== r.link_centers);
    for (const r of changed) await trx.updateTable('network_member').set({ link_centers: next.get(r.id) ?? null }).where('id', '=', r.id).execute();
    if (changed.length > 0) await emitChanged(ctx, trx, actor.tenantId, net.id);
  });
}
