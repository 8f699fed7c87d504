import {
  LIMITS,
  M,
  NETWORK_DEFAULTS,
  NETWORK_SERVICE,
  type MemberDeviceState,
  type MemberType,
  type NetworkDetail,
  type NetworkDetailPaging,
  type NetworkLink,
  type NetworkMember,
  type SegmentValue,
} from '@hublink/contract';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { notFound } from '../../core/errors';
import { memberKey } from '../../domain/members';
import { ensureNetworkAllowed } from '../../core/networks';
import { planOf } from '../../domain/plan';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { popOfNetwork } from './popInfo';
import { networkStatusOf, quotaOf } from './quota';
import { centerLinkViewOf, interconnectFrom, linkCentersFrom, memberFixedPort, memberGateway } from './segmentsData';
import { networkOf } from './queries';

/*
 * What the network detail reads (spec 2 §2): the detail, the status it polls and the member list.
 * A network is read whole unless the caller pages it (networkDetailPaging, issue 34): then only the
 * order of every member is read (narrow rows), and the settings, links, online flags and device
 * states of the page alone.
 */

/** A member's place in the network: enough to order the members and pair points with centers. */
interface Slot {
  /** The row of network_member: the order members joined. */
  id: number;
  member_id: number;
  member_type: string;
  /** A point's linked centers (JSON member ids), null for every center. */
  link_centers: string | null;
}

/** What a link or the online map needs of a member. */
interface LinkEnd extends Slot {
  router_name: string;
  note: string;
  online_status: number;
}

interface MemberRow extends LinkEnd {
  router_type: number;
  routing: number;
  default_route: number;
  metric: number;
  quagga: number;
  mode: number;
  gateway: string;
  fixed_port: string;
  ov_main: number;
  ov_backup: number;
  ov_priority: number;
}

/** A point's link to one of its centers, before what the gateway reported is laid over it. */
interface LinkPair<T extends Slot = LinkEnd> {
  point: T;
  center: T;
}

/** Centers first, each position in the order its members joined. */
const byPosition = (a: Slot, b: Slot) => (a.member_type === b.member_type ? a.id - b.id : a.member_type === 'center' ? -1 : 1);

const LINK_END_COLUMNS = ['nm.id', 'nm.member_id', 'nm.member_type', 'm.router_name', 'm.note', 'm.online_status', 'nm.link_centers'] as const;
const SETTING_COLUMNS = ['m.router_type', 'nm.routing', 'nm.default_route', 'nm.metric', 'nm.quagga', 'nm.mode', 'nm.gateway', 'nm.fixed_port', 'nm.ov_main', 'nm.ov_backup', 'nm.ov_priority'] as const;

function networkMembers(db: Db, networkId: number) {
  return db.selectFrom('network_member as nm').innerJoin('member as m', 'm.id', 'nm.member_id').where('nm.network_id', '=', networkId);
}

/** A network's members with their settings (only those of `ids` when given), centers first, each position in the order they joined (sorted here: cheaper than SQLite's sorter for wide rows). */
async function membersOf(db: Db, networkId: number, only: { centers?: boolean; ids?: number[] } = {}): Promise<MemberRow[]> {
  if (only.ids?.length === 0) return [];
  const rows = await networkMembers(db, networkId)
    .select([...LINK_END_COLUMNS, ...SETTING_COLUMNS])
    .$if(only.centers === true, (qb) => qb.where('nm.member_type', '=', 'center'))
    .$if(only.ids !== undefined, (qb) => qb.where('nm.id', 'in', only.ids!))
    .execute();
  return rows.sort(byPosition);
}

/**
 * Only what links need, for the status poll and for paging: at 1,000 members, every column more costs
 * SQLite and better-sqlite3 about 0.2 ms.
 */
async function linkEndsOf(db: Db, networkId: number): Promise<LinkEnd[]> {
  return (await networkMembers(db, networkId).select(LINK_END_COLUMNS).execute()).sort(byPosition);
}

const toMember = (r: MemberRow, areaNames: Map<number, string> = new Map()): NetworkMember => ({
  router_name: r.router_name,
  note: r.note,
  member_type: r.member_type as MemberType,
  router_type: r.router_type,
  online: r.online_status,
  routing: r.routing,
  ov_id: { main: r.ov_main, backup: r.ov_backup, main_name: areaNames.get(r.ov_main) ?? '', backup_name: areaNames.get(r.ov_backup) ?? '', priority: r.ov_priority },
  default_route: r.default_route,
  metric: r.metric,
  quagga: r.quagga,
  mode: r.mode,
  fixed_port: memberFixedPort(r.fixed_port),
  gateway: withCenterNote(memberGateway(r.gateway), r.note),
});

/** A center's segments as the member carries them: each with the center's note (spec 2 §3). */
function withCenterNote(g: ReturnType<typeof memberGateway>, note: string): NetworkMember['gateway'] {
  const of = (s: SegmentValue | null) => (s === null ? null : { ...s, center_router_name_note: note });
  return { router: of(g.router), software: of(g.software) };
}

/** The centers a point links to; a list naming none of them (all gone) means every center, as the compiler reads it. */
function linkedCenters<T extends Slot>(p: T, centers: T[]): T[] {
  const chosen = linkCentersFrom(p.link_centers);
  if (!chosen) return centers;
  const linked = centers.filter((c) => chosen.includes(c.member_id));
  return linked.length > 0 ? linked : centers;
}

/** Every point's link to each center it links to (every center unless set otherwise), points in their order. */
function linkPairs<T extends Slot>(ends: T[]): LinkPair<T>[] {
  const centers = ends.filter((m) => m.member_type === 'center');
  const pairs: LinkPair<T>[] = [];
  for (const point of ends) {
    if (point.member_type !== 'point') continue;
    for (const center of linkedCenters(point, centers)) pairs.push({ point, center });
  }
  return pairs;
}

/**
 * The links with the state the device gateway last reported (member_link), or down when it never did.
 * One query: the network's reports, or only its points' when a page names them.
 */
async function linksOf(ctx: Ctx, networkId: number, pairs: LinkPair[], paged: boolean): Promise<NetworkLink[]> {
  if (pairs.length === 0) return [];
  const points = [...new Set(pairs.map((p) => p.point.member_id))];
  const reported = await ctx.db
    .selectFrom('member_link')
    .select(['member_id', 'center_member_id', 'vpn_online', 'vpn_ip', 'vpn_online_time', 'path', 'path_area'])
    .where('network_id', '=', networkId)
    .$if(paged, (qb) => qb.where('member_id', 'in', points))
    .execute();
  type Reported = (typeof reported)[number];
  const byCenter = new Map<number, Map<number, Reported>>();
  for (const l of reported) {
    let ofCenter = byCenter.get(l.center_member_id);
    if (!ofCenter) byCenter.set(l.center_member_id, (ofCenter = new Map()));
    ofCenter.set(l.member_id, l);
  }
  return pairs.map(({ point: p, center: c }) => {
    const l = byCenter.get(c.member_id)?.get(p.member_id);
    return {
      router_name: p.router_name,
      router_name_note: p.note,
      center_router_name: c.router_name,
      center_router_name_note: c.note,
      vpn_online: l?.vpn_online ?? 0,
      vpn_ip: l?.vpn_ip ?? '',
      vpn_online_time: l?.vpn_online_time ? formatTime(l.vpn_online_time, ctx.config.timezone) : '',
      // Only what an up link's device said (issue 30): straight to the center, or through a POP area's relay.
      ...(l?.vpn_online && (l.path === 'center' || l.path === 'pop') ? { path: l.path, ...(l.path === 'pop' ? { pop_area: l.path_area } : {}) } : {}),
    };
  });
}

/** What one answer holds of a network: every member and link, or the pages asked for. */
interface Slice<T extends Slot = LinkEnd> {
  /** The members whose settings, flags and device states are sent. */
  members: T[];
  centers: T[];
  links: LinkPair<T>[];
  linkCount: number;
  memberCount: number;
  paged: boolean;
}

const isPaged = (paging: NetworkDetailPaging) => paging.member_page !== undefined || paging.link_page !== undefined;

const pageOfList = <T>(list: T[], page: number, size: number) => list.slice((page - 1) * size, page * size);

/** The members' page and the links' page of networkDetailPaging (or everything, unpaged). */
function sliceOf<T extends Slot>(ends: T[], paging: NetworkDetailPaging): Slice<T> {
  const centers = ends.filter((m) => m.member_type === 'center');
  const pairs = linkPairs(ends);
  const counts = { linkCount: pairs.length, memberCount: ends.length };
  if (!isPaged(paging)) return { members: ends, centers, links: pairs, ...counts, paged: false };
  const size = paging.page_size ?? LIMITS.pageSize;
  const members = pageOfList(ends, paging.member_page ?? 1, size);
  const onPage = new Set(members);
  const links = paging.link_page !== undefined ? pageOfList(pairs, paging.link_page, size) : pairs.filter((p) => onPage.has(p.point));
  return { members, centers, links, ...counts, paged: true };
}

/** Every member's place alone (no names), in order: enough to page a big network. */
async function slotsOf(db: Db, networkId: number): Promise<Slot[]> {
  return (await db.selectFrom('network_member as nm').select(['nm.id', 'nm.member_id', 'nm.member_type', 'nm.link_centers']).where('nm.network_id', '=', networkId).execute()).sort(byPosition);
}

/**
 * The pages of a big network: every member's place read alone (no names: the join with the member
 * table costs more than the rest at 5,000 members), then the names and flags of what the pages show.
 */
async function pagedSlice(db: Db, networkId: number, paging: NetworkDetailPaging): Promise<Slice> {
  const s = sliceOf(await slotsOf(db, networkId), paging);
  const ids = [...new Set([...s.members, ...s.centers, ...s.links.map((l) => l.point)].map((x) => x.id))];
  const ends = ids.length === 0 ? [] : await networkMembers(db, networkId).select(LINK_END_COLUMNS).where('nm.id', 'in', ids).execute();
  const byId = new Map(ends.map((e) => [e.id, e]));
  // A member that left between the two reads is left out.
  const known = (xs: Slot[]) => xs.flatMap((x) => byId.get(x.id) ?? []);
  const links = s.links.flatMap((l) => {
    const point = byId.get(l.point.id);
    const center = byId.get(l.center.id);
    return point && center ? [{ point, center }] : [];
  });
  return { ...s, members: known(s.members), centers: known(s.centers), links };
}

/**
 * One member's view (status with router_name, the router detail's network panel): the member alone, its
 * links (as a point to its centers, or as a center from every point linked to it) paged, and how many of
 * them are up. A name that is not a member of the network gets an empty view.
 */
async function memberSlice(db: Db, networkId: number, routerName: string, paging: NetworkDetailPaging): Promise<Omit<Slice, 'memberCount'> & { linkUp: number }> {
  const me = await networkMembers(db, networkId).select(LINK_END_COLUMNS).where('m.router_key', '=', memberKey(routerName)).executeTakeFirst();
  if (!me) return { members: [], centers: [], links: [], linkCount: 0, paged: true, linkUp: 0 };
  const asCenter = me.member_type === 'center';
  const [centers, slots, up] = await Promise.all([
    networkMembers(db, networkId).select(LINK_END_COLUMNS).where('nm.member_type', '=', 'center').execute(),
    // Every member's place only for a center, whose points are among them; a point's other ends are the centers.
    asCenter ? slotsOf(db, networkId) : [],
    db
      .selectFrom('member_link')
      .select(['member_id', 'center_member_id'])
      .where('network_id', '=', networkId)
      .where(asCenter ? 'center_member_id' : 'member_id', '=', me.member_id)
      .where('vpn_online', '=', 1)
      .execute(),
  ]);
  centers.sort(byPosition);
  // The other ends: a point's centers, or the points linked to this center (their names read for the page only).
  const others: Slot[] = asCenter ? slots.filter((p) => p.member_type === 'point' && linkedCenters(p, centers).some((c) => c.id === me.id)) : linkedCenters(me, centers);
  const page = paging.link_page !== undefined ? pageOfList(others, paging.link_page, paging.page_size ?? LIMITS.pageSize) : others;
  const named = asCenter && page.length > 0 ? await networkMembers(db, networkId).select(LINK_END_COLUMNS).where('nm.id', 'in', page.map((p) => p.id)).execute() : centers;
  const byId = new Map(named.map((e) => [e.id, e]));
  const links = page.flatMap((o) => {
    const other = byId.get(o.id);
    return other ? [asCenter ? { point: other, center: me } : { point: me, center: other }] : [];
  });
  const linked = new Set(others.map((o) => o.member_id));
  const linkUp = up.filter((l) => linked.has(asCenter ? l.member_id : l.center_member_id)).length;
  return { members: [me], centers: [], links, linkCount: others.length, paged: true, linkUp };
}

/** The members and centers of a slice, each once. */
const membersAndCenters = (s: Pick<Slice, 'members' | 'centers'>) => [...new Set([...s.members, ...s.centers])];

export async function info(ctx: Ctx, actor: Actor, networkNumber: string, paging: NetworkDetailPaging = {}): Promise<NetworkDetail> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  // Whole, every member's settings are read at once; paged, the pages first, then their members' settings.
  const whole = isPaged(paging) ? undefined : membersOf(ctx.db, net.id);
  const [plan, pop, slice] = await Promise.all([
    planOf(ctx.db, actor.tenantId),
    popOfNetwork(ctx.db, actor.tenantId, net.network_fr_id),
    whole ? whole.then((all) => sliceOf(all, paging)) : pagedSlice(ctx.db, net.id, paging),
  ]);
  const [rows, links] = await Promise.all([
    whole ?? membersOf(ctx.db, net.id, { ids: membersAndCenters(slice).map((m) => m.id) }),
    linksOf(ctx, net.id, slice.links, slice.paged),
  ]);
  const byId = new Map(rows.map((r) => [r.id, toMember(r, pop.areaNames)]));
  const memberOf = (e: LinkEnd) => byId.get(e.id);
  // A member that left between the two reads is left out rather than sent half-known.
  const present = (m: NetworkMember | undefined): m is NetworkMember => m !== undefined;
  return {
    network_number: net.network_number,
    network_name: net.network_name,
    network_status: networkStatusOf(plan),
    network_service: plan.network_level === NETWORK_SERVICE.basic ? NETWORK_SERVICE.basic : NETWORK_SERVICE.standard,
    network_type: net.network_type,
    network_level: plan.network_level,
    member_count: slice.memberCount,
    member: slice.members.map(memberOf).filter(present),
    centers: slice.centers.map(memberOf).filter(present),
    link: links,
    link_count: slice.linkCount,
    network_config: { ...quotaOf(plan), dns_quantity: plan.dns_quantity },
    ncp_ciphers: net.ncp_ciphers,
    network_dns: JSON.parse(net.dns) as string[],
    network_fr: pop.fr,
    mode: net.mode,
    network_center_link: net.center_link,
    network_center_link_show: slice.centers.length >= NETWORK_DEFAULTS.centerLinkMinCenters ? 1 : 0,
    network_center_link_network: centerLinkViewOf(net),
    network_interconnect: { enable: net.interconnect, segment: interconnectFrom(net.interconnect_network) },
    create_time: formatTime(net.create_time, ctx.config.timezone),
  };
}

/** Each member's online flag by name (a loop: Object.fromEntries costs five times more at 1,000 members). */
function onlineOf(members: LinkEnd[]): Record<string, number> {
  const online: Record<string, number> = {};
  for (const m of members) online[m.router_name] = m.online_status;
  return online;
}

/** Each member's config version, what its device applied, and its latest command (members with neither are left out). */
async function deviceStateOf(ctx: Ctx, tenantId: number, networkId: number, members: LinkEnd[], paged: boolean): Promise<Record<string, MemberDeviceState>> {
  if (members.length === 0) return {};
  const ids = members.map((m) => m.member_id);
  const [configs, commands] = await Promise.all([
    ctx.db
      .selectFrom('member_config')
      .select(['member_id', 'version', 'applied_version', 'applied_error'])
      .where('network_id', '=', networkId)
      .where('tenant_id', '=', tenantId)
      .$if(paged, (qb) => qb.where('member_id', 'in', ids))
      .execute(),
    // Each member's latest command, in one query.
    ctx.db
      .selectFrom('member_command')
      .select(['member_id', 'kind', 'state', 'error', 'update_time'])
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('member_command as latest')
          .select((c) => c.fn.max('latest.id').as('id'))
          .where('latest.network_id', '=', networkId)
          .where('latest.tenant_id', '=', tenantId)
          .$if(paged, (qb) => qb.where('latest.member_id', 'in', ids))
          .groupBy('latest.member_id'),
      )
      .where('tenant_id', '=', tenantId)
      .execute(),
  ]);
  const nameOf = new Map(members.map((m) => [m.member_id, m.router_name]));
  const out: Record<string, MemberDeviceState> = {};
  const entry = (memberId: number) => {
    const name = nameOf.get(memberId);
    if (name === undefined) return undefined;
    return (out[name] ??= { config_version: 0, applied_version: 0, applied_error: '', command: null });
  };
  for (const c of configs) {
    const e = entry(c.member_id);
    if (e) Object.assign(e, { config_version: c.version, applied_version: c.applied_version, applied_error: c.applied_error });
  }
  for (const c of commands) {
    const e = entry(c.member_id);
    if (e) e.command = { kind: c.kind, state: c.state, error: c.error, update_time: formatTime(Number(c.update_time), ctx.config.timezone) };
  }
  return out;
}

/** What the detail page polls: the status, the links, each member's online flag and device state (of the pages asked for, with the centers; or of one member with router_name). */
export async function status(
  ctx: Ctx,
  actor: Actor,
  networkNumber: string,
  view: NetworkDetailPaging & { router_name?: string } = {},
): Promise<{ network_status: number; link: NetworkLink[]; link_count: number; link_up?: number; online: Record<string, number>; device: Record<string, MemberDeviceState> }> {
  // The network and the tenant's plan in one read; then every read of its members at once.
  ensureNetworkAllowed(actor, networkNumber);
  const net = await ctx.db
    .selectFrom('network')
    .innerJoin('account', 'account.id', 'network.tenant_id')
    .select(['network.id', 'account.network_router_use', 'account.network_router_count'])
    .where('network.tenant_id', '=', actor.tenantId)
    .where('network.network_number', '=', networkNumber)
    .executeTakeFirst();
  if (!net) throw notFound(M.networkNotFound);
  const one = view.router_name !== undefined ? await memberSlice(ctx.db, net.id, view.router_name, view) : undefined;
  const slice = one ?? (isPaged(view) ? await pagedSlice(ctx.db, net.id, view) : sliceOf(await linkEndsOf(ctx.db, net.id), view));
  const shown = slice.paged ? membersAndCenters(slice) : slice.members;
  const [link, device] = await Promise.all([linksOf(ctx, net.id, slice.links, slice.paged), deviceStateOf(ctx, actor.tenantId, net.id, shown, slice.paged)]);
  return { network_status: networkStatusOf(net), link, link_count: slice.linkCount, ...(one ? { link_up: one.linkUp } : {}), online: onlineOf(shown), device };
}

export async function members(ctx: Ctx, actor: Actor, networkNumber: string, memberType?: MemberType): Promise<NetworkMember[]> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  return (await membersOf(ctx.db, net.id, { centers: memberType === 'center' })).filter((m) => !memberType || m.member_type === memberType).map((m) => toMember(m));
}
