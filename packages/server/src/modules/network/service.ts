import { randomBytes } from 'node:crypto';
import {
  fmt,
  M,
  NETWORK_DEFAULTS,
  NETWORK_SERVICE,
  NETWORK_TYPE,
  ROUTER_TYPE,
  ROUTING_LINE,
  ROUTING_TYPE,
  type createNetwork,
  type editNetwork,
  type listNetworks,
  type MemberType,
  type NetworkDetail,
  type NetworkItem,
  type MemberDeviceState,
  type NetworkLink,
  type NetworkMember,
  type NetworkQuota,
  type SegmentValue,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { chunks } from '../../core/chunks';
import { ApiError, forbidden, invalid, notFound } from '../../core/errors';
import { allowedNetworks, ensureNetworkAllowed } from '../../core/networks';
import { planOf } from '../../core/plan';
import { contains, countOf, offsetOf, pageOf, totalOf } from '../../core/paging';
import { formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import { lockTenant } from '../../core/tenantLock';
import { recordVersion, versionBaseline } from './historyRecord';
import { popOfNetwork } from './popInfo';
import { ensureCenters, ensureWithinQuota, networkStatusOf, quotaOf } from './quota';
import { centerLinkViewOf, interconnectFrom, linkCentersFrom, memberFixedPort, memberGateway } from './segmentsData';

type ListQuery = z.output<typeof listNetworks.query>;
type CreateInput = z.output<typeof createNetwork.body>;
type EditInput = z.output<typeof editNetwork.body>;

/*
 * Networks of centers and points (spec 2). Every query is filtered by the tenant; reads also hide
 * the networks outside a sub-account's role list (core/networks.ts: the guard applies it to
 * permission routes, but GET routes with access 'user' pass the guard). Changes run in one
 * transaction with the tenant locked, and the quota is checked on the result (quota.ts).
 */

// ---- network numbers ----

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const NUMBER_LENGTH = 11;
const NUMBER_ATTEMPTS = 5;

/** 'N' and 11 random base32 characters (55 bits): unique across tenants, not guessable in order. */
export function randomNetworkNumber(): string {
  const bytes = randomBytes(NUMBER_LENGTH);
  let s = 'N';
  for (const b of bytes) s += BASE32[b % BASE32.length];
  return s;
}

// ---- reading ----

/** The tenant's network by number; 403 outside the caller's role list, 204 when there is none. */
export async function networkOf(db: Db, actor: Actor, networkNumber: string) {
  ensureNetworkAllowed(actor, networkNumber);
  const net = await db
    .selectFrom('network')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('network_number', '=', networkNumber)
    .executeTakeFirst();
  if (!net) throw notFound(M.networkNotFound);
  return net;
}

/** What a link or the online map needs of a member. */
interface LinkEnd {
  /** The row of network_member: the order members joined. */
  id: number;
  member_id: number;
  member_type: string;
  router_name: string;
  note: string;
  online_status: number;
  /** A point's linked centers (JSON member ids), null for every center. */
  link_centers: string | null;
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

/** Centers first, each position in the order its members joined. */
const byPosition = (a: LinkEnd, b: LinkEnd) => (a.member_type === b.member_type ? a.id - b.id : a.member_type === 'center' ? -1 : 1);

const LINK_END_COLUMNS = ['nm.id', 'nm.member_id', 'nm.member_type', 'm.router_name', 'm.note', 'm.online_status', 'nm.link_centers'] as const;

function networkMembers(db: Db, networkId: number) {
  return db.selectFrom('network_member as nm').innerJoin('member as m', 'm.id', 'nm.member_id').where('nm.network_id', '=', networkId);
}

/** A network's members with their settings, centers first, each position in the order they joined (sorted here: cheaper than SQLite's sorter for wide rows). */
async function membersOf(db: Db, networkId: number, onlyCenters = false): Promise<MemberRow[]> {
  const rows = await networkMembers(db, networkId)
    .select([...LINK_END_COLUMNS, 'm.router_type', 'nm.routing', 'nm.default_route', 'nm.metric', 'nm.quagga', 'nm.mode', 'nm.gateway', 'nm.fixed_port', 'nm.ov_main', 'nm.ov_backup', 'nm.ov_priority'])
    .$if(onlyCenters, (qb) => qb.where('nm.member_type', '=', 'center'))
    .execute();
  return rows.sort(byPosition);
}

/**
 * Only what links need, for the status poll: at 1,000 members, every column more costs SQLite and
 * better-sqlite3 about 0.2 ms.
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

/**
 * Every point's link to each center it links to (every center unless set otherwise), with the state
 * the device gateway last reported (member_link) or down when it never did. One query whatever the
 * network's size.
 */
async function linksOf(ctx: Ctx, networkId: number, ends: LinkEnd[] | Promise<LinkEnd[]>): Promise<NetworkLink[]> {
  const [reported, members] = await Promise.all([
    ctx.db.selectFrom('member_link').select(['member_id', 'center_member_id', 'vpn_online', 'vpn_ip', 'vpn_online_time', 'path', 'path_area']).where('network_id', '=', networkId).execute(),
    ends,
  ]);
  type Reported = (typeof reported)[number];
  const byCenter = new Map<number, Map<number, Reported>>();
  for (const l of reported) {
    let points = byCenter.get(l.center_member_id);
    if (!points) byCenter.set(l.center_member_id, (points = new Map()));
    points.set(l.member_id, l);
  }
  const centers = members.filter((m) => m.member_type === 'center');
  const links: NetworkLink[] = [];
  for (const p of members) {
    if (p.member_type !== 'point') continue;
    for (const c of linkedCenters(p, centers)) {
      const l = byCenter.get(c.member_id)?.get(p.member_id);
      links.push({
        router_name: p.router_name,
        router_name_note: p.note,
        center_router_name: c.router_name,
        center_router_name_note: c.note,
        vpn_online: l?.vpn_online ?? 0,
        vpn_ip: l?.vpn_ip ?? '',
        vpn_online_time: l?.vpn_online_time ? formatTime(l.vpn_online_time, ctx.config.timezone) : '',
        // Only what an up link's device said (issue 30): straight to the center, or through a POP area's relay.
        ...(l?.vpn_online && (l.path === 'center' || l.path === 'pop') ? { path: l.path, ...(l.path === 'pop' ? { pop_area: l.path_area } : {}) } : {}),
      });
    }
  }
  return links;
}

/** The centers a point links to; a list naming none of them (all gone) means every center, as the compiler reads it. */
function linkedCenters(p: LinkEnd, centers: LinkEnd[]): LinkEnd[] {
  const chosen = linkCentersFrom(p.link_centers);
  if (!chosen) return centers;
  const linked = centers.filter((c) => chosen.includes(c.member_id));
  return linked.length > 0 ? linked : centers;
}

/**
 * Search matches the name or the number; 10 a page, newest first; a role with networks sees those
 * only. The page's query brings along each network's member count, its resource's name, the plan's
 * use (the status), and without a search the total: one round trip on PostgreSQL, a second only to
 * count the matches of a search that fills its page.
 */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: NetworkItem[]; count: number }> {
  const allowed = allowedNetworks(actor);
  const filtered = ctx.db
    .selectFrom('network')
    .where('network.tenant_id', '=', actor.tenantId)
    .$if(allowed !== null, (qb) => qb.where('network.network_number', 'in', allowed!))
    .$if(!!q.search, (qb) =>
      qb.where((eb) => eb.or([contains(ctx.dialect, eb.ref('network.network_name'), q.search!), contains(ctx.dialect, eb.ref('network.network_number'), q.search!)])),
    );
  const columns = (qb: typeof filtered) =>
    qb
      .innerJoin('account', 'account.id', 'network.tenant_id')
      .select(['network.id', 'network.network_number', 'network.network_name', 'network.network_type', 'network.create_time', 'account.network_router_use', 'account.network_router_count'])
      .select((eb) => [
        eb.selectFrom('network_member as nm').select((c) => c.fn.countAll<number>().as('n')).whereRef('nm.network_id', '=', 'network.id').as('member_count'),
        eb.selectFrom('network_fr as fr').select('fr.name').whereRef('fr.id', '=', 'network.network_fr_id').whereRef('fr.tenant_id', '=', 'network.tenant_id').as('fr_name'),
      ])
      .orderBy('network.id', 'desc');
  const page = q.search
    ? pageOf(filtered, q, columns)
    : (async () => {
        const offset = offsetOf(q.page, q.limit);
        const rows = await columns(filtered)
          .select(() => filtered.select((eb) => eb.fn.countAll<number>().as('n')).as('total'))
          .limit(q.limit)
          .offset(offset)
          .execute();
        return { rows, count: rows.length > 0 ? Number(rows[0]!.total) : await totalOf(0, offset, q.limit, () => countOf(filtered)) };
      })();
  const { rows, count } = await page;
  return {
    rows: rows.map((r) => ({
      network_number: r.network_number,
      network_name: r.network_name,
      network_type: r.network_type,
      member_count: Number(r.member_count ?? 0),
      fr_name: r.fr_name ?? '',
      network_status: networkStatusOf(r),
      create_time: formatTime(r.create_time, ctx.config.timezone),
    })),
    count,
  };
}

/** Every network the caller may see, by name, for selects (roles, LDAP). */
export async function select(ctx: Ctx, actor: Actor): Promise<{ network_number: string; network_name: string }[]> {
  const allowed = allowedNetworks(actor);
  return ctx.db
    .selectFrom('network')
    .select(['network_number', 'network_name'])
    .where('tenant_id', '=', actor.tenantId)
    .$if(allowed !== null, (qb) => qb.where('network_number', 'in', allowed!))
    .orderBy('network_name')
    .orderBy('id')
    .execute();
}

export async function config(ctx: Ctx, actor: Actor): Promise<NetworkQuota> {
  return quotaOf(await planOf(ctx.db, actor.tenantId));
}

export async function info(ctx: Ctx, actor: Actor, networkNumber: string): Promise<NetworkDetail> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  const [plan, members] = await Promise.all([planOf(ctx.db, actor.tenantId), membersOf(ctx.db, net.id)]);
  const links = await linksOf(ctx, net.id, members);
  const pop = await popOfNetwork(ctx.db, actor.tenantId, net.network_fr_id);
  const centers = members.filter((m) => m.member_type === 'center').length;
  return {
    network_number: net.network_number,
    network_name: net.network_name,
    network_status: networkStatusOf(plan),
    network_service: plan.network_level === NETWORK_SERVICE.basic ? NETWORK_SERVICE.basic : NETWORK_SERVICE.standard,
    network_type: net.network_type,
    network_level: plan.network_level,
    member_count: members.length,
    member: members.map((m) => toMember(m, pop.areaNames)),
    link: links,
    network_config: { ...quotaOf(plan), dns_quantity: plan.dns_quantity },
    ncp_ciphers: net.ncp_ciphers,
    network_dns: JSON.parse(net.dns) as string[],
    network_fr: pop.fr,
    mode: net.mode,
    network_center_link: net.center_link,
    network_center_link_show: centers >= NETWORK_DEFAULTS.centerLinkMinCenters ? 1 : 0,
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
async function deviceStateOf(ctx: Ctx, tenantId: number, networkId: number, ends: LinkEnd[] | Promise<LinkEnd[]>): Promise<Record<string, MemberDeviceState>> {
  const [configs, commands, members] = await Promise.all([
    ctx.db.selectFrom('member_config').select(['member_id', 'version', 'applied_version', 'applied_error']).where('network_id', '=', networkId).where('tenant_id', '=', tenantId).execute(),
    // Each member's latest command, in one query.
    ctx.db
      .selectFrom('member_command')
      .select(['member_id', 'kind', 'state', 'error', 'update_time'])
      .where('id', 'in', (eb) =>
        eb.selectFrom('member_command as latest').select((c) => c.fn.max('latest.id').as('id')).where('latest.network_id', '=', networkId).where('latest.tenant_id', '=', tenantId).groupBy('latest.member_id'),
      )
      .where('tenant_id', '=', tenantId)
      .execute(),
    ends,
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

/** What the detail page polls: the status, every expected link, each member's online flag and device state. */
export async function status(
  ctx: Ctx,
  actor: Actor,
  networkNumber: string,
): Promise<{ network_status: number; link: NetworkLink[]; online: Record<string, number>; device: Record<string, MemberDeviceState> }> {
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
  const members = linkEndsOf(ctx.db, net.id);
  const [link, device, ends] = await Promise.all([linksOf(ctx, net.id, members), deviceStateOf(ctx, actor.tenantId, net.id, members), members]);
  return { network_status: networkStatusOf(net), link, online: onlineOf(ends), device };
}

export async function members(ctx: Ctx, actor: Actor, networkNumber: string, memberType?: MemberType): Promise<NetworkMember[]> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  return (await membersOf(ctx.db, net.id, memberType === 'center')).filter((m) => !memberType || m.member_type === memberType).map((m) => toMember(m));
}

// ---- changing ----

interface Chosen {
  id: number;
  router_name: string;
  member_type: MemberType;
}

/** The same member named twice (centers and points together, case-insensitively). */
function ensureOnce(center: string[], point: string[]): void {
  const seen = new Set<string>();
  for (const name of [...center, ...point]) {
    const key = name.toLowerCase();
    if (seen.has(key)) throw invalid(fmt(M.networkMemberTwice, { name }));
    seen.add(key);
  }
}

/** The named members, each the tenant's own; software members only as points. */
async function resolveMembers(db: Db, tenantId: number, center: string[], point: string[]): Promise<Chosen[]> {
  const named = [...center.map((n) => ({ name: n, member_type: 'center' as const })), ...point.map((n) => ({ name: n, member_type: 'point' as const }))];
  const found = new Map<string, { id: number; router_name: string; router_type: number }>();
  for (const part of chunks(named)) {
    const rows = await db
      .selectFrom('member')
      .select(['id', 'router_key', 'router_name', 'router_type'])
      .where('tenant_id', '=', tenantId)
      .where(
        'router_key',
        'in',
        part.map((n) => n.name.toLowerCase()),
      )
      .execute();
    for (const r of rows) found.set(r.router_key, r);
  }
  return named.map((n) => {
    const m = found.get(n.name.toLowerCase());
    if (!m) throw invalid(fmt(M.networkMemberMissing, { name: n.name }));
    if (n.member_type === 'center' && m.router_type === ROUTER_TYPE.software) throw invalid(M.networkSoftwareCenter);
    return { id: m.id, router_name: m.router_name, member_type: n.member_type };
  });
}

/** The line a center joins on: in a main-backup network the main line is chosen, so a new center is a backup. */
const lineOf = (routingType: number, memberType: MemberType) =>
  memberType === 'center' && routingType === ROUTING_TYPE.mainBackup ? ROUTING_LINE.backup : ROUTING_LINE.main;

export async function insertMembers(db: Db, tenantId: number, networkId: number, chosen: Chosen[], now: number, routingType: number = ROUTING_TYPE.dual): Promise<void> {
  for (const part of chunks(chosen)) {
    await db
      .insertInto('network_member')
      .values(
        part.map((c) => ({
          tenant_id: tenantId,
          network_id: networkId,
          member_id: c.id,
          member_type: c.member_type,
          routing: lineOf(routingType, c.member_type),
          create_time: now,
        })),
      )
      .execute();
  }
}

/** Forgets the reported state of links that no longer exist: a point's to its former centers and the reverse. */
async function dropLinks(db: Db, networkId: number, notPoints: number[], notCenters: number[]): Promise<void> {
  for (const part of chunks(notPoints)) {
    await db.deleteFrom('member_link').where('network_id', '=', networkId).where('member_id', 'in', part).execute();
  }
  for (const part of chunks(notCenters)) {
    await db.deleteFrom('member_link').where('network_id', '=', networkId).where('center_member_id', 'in', part).execute();
  }
}

/** The network's row, locked with the tenant (the tenant lock is taken first). */
async function networkForChange(db: Db, actor: Actor, networkNumber: string) {
  const net = await db
    .selectFrom('network')
    .select(['id', 'routing_type'])
    .where('tenant_id', '=', actor.tenantId)
    .where('network_number', '=', networkNumber)
    .executeTakeFirst();
  if (!net) throw notFound(M.networkNotFound);
  return net;
}

/**
 * Builds a hub network of the named centers and points; returns its number. A number taken by
 * another network in the meantime (the unique index says so) is replaced and the build retried.
 */
export async function create(ctx: Ctx, actor: Actor, input: CreateInput, nextNumber: () => string = randomNetworkNumber): Promise<string> {
  // A role limited to networks cannot create one (spec 1 §5; the role form clears the flag, and
  // this holds for a role stored any other way too).
  if (allowedNetworks(actor)) throw forbidden(M.deniedPermission);
  ensureOnce(input.center, input.point);
  for (let attempt = 1; ; attempt++) {
    const number = nextNumber();
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await lockTenant(ctx, trx, actor.tenantId);
        const plan = await planOf(trx, actor.tenantId);
        const chosen = await resolveMembers(trx, actor.tenantId, input.center, input.point);
        ensureCenters(plan, input.center.length, 0);
        const now = Date.now();
        const net = await trx
          .insertInto('network')
          .values({
            tenant_id: actor.tenantId,
            network_number: number,
            network_name: input.network_name,
            network_type: NETWORK_TYPE.hub,
            create_time: now,
            update_time: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await insertMembers(trx, actor.tenantId, net.id, chosen, now);
        await ensureWithinQuota(trx, actor.tenantId, plan, plan.network_router_use);
        await networkChanged(ctx, trx, actor.tenantId, net.id, 'created');
        await recordVersion(trx, actor, actor.tenantId, net.id);
      });
      return number;
    } catch (e) {
      if (e instanceof ApiError || attempt >= NUMBER_ATTEMPTS) throw e;
      const taken = await ctx.db.selectFrom('network').select('id').where('network_number', '=', number).executeTakeFirst();
      if (!taken) throw e;
    }
  }
}

/**
 * Saves the manage-members page: the name and the whole member list. Members that stay keep their
 * settings (a changed position is updated); the others leave with their links' state.
 */
export async function edit(ctx: Ctx, actor: Actor, input: EditInput): Promise<void> {
  ensureOnce(input.center, input.point);
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const net = await networkForChange(trx, actor, input.network_number);
    await versionBaseline(trx, actor.tenantId, net.id);
    const plan = await planOf(trx, actor.tenantId);
    const chosen = await resolveMembers(trx, actor.tenantId, input.center, input.point);
    const current = await trx.selectFrom('network_member').select(['member_id', 'member_type']).where('network_id', '=', net.id).execute();
    ensureCenters(plan, input.center.length, current.filter((c) => c.member_type === 'center').length);

    const was = new Map(current.map((c) => [c.member_id, c.member_type]));
    const next = new Map(chosen.map((c) => [c.id, c.member_type]));
    const removed = current.filter((c) => !next.has(c.member_id)).map((c) => c.member_id);
    const added = chosen.filter((c) => !was.has(c.id));
    const moved = chosen.filter((c) => was.has(c.id) && was.get(c.id) !== c.member_type);

    for (const part of chunks(removed)) {
      await trx.deleteFrom('network_member').where('network_id', '=', net.id).where('member_id', 'in', part).execute();
    }
    for (const type of ['center', 'point'] as const) {
      for (const part of chunks(moved.filter((m) => m.member_type === type).map((m) => m.id))) {
        await trx
          .updateTable('network_member')
          .set({ member_type: type, routing: lineOf(net.routing_type, type) })
          .where('network_id', '=', net.id)
          .where('member_id', 'in', part)
          .execute();
      }
    }
    await insertMembers(trx, actor.tenantId, net.id, added, Date.now(), net.routing_type);
    const leftPoints = current.filter((c) => c.member_type === 'point' && next.get(c.member_id) !== 'point').map((c) => c.member_id);
    const leftCenters = current.filter((c) => c.member_type === 'center' && next.get(c.member_id) !== 'center').map((c) => c.member_id);
    await dropLinks(trx, net.id, leftPoints, leftCenters);
    await trx
      .updateTable('network')
      .set({ network_name: input.network_name, update_time: Date.now() })
      .where('id', '=', net.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
    await ensureWithinQuota(trx, actor.tenantId, plan, plan.network_router_use);
    await networkChanged(ctx, trx, actor.tenantId, net.id, removed.length + added.length + moved.length > 0 ? 'members' : 'edited');
    await recordVersion(trx, actor, actor.tenantId, net.id);
  });
}

export async function rename(ctx: Ctx, actor: Actor, networkNumber: string, name: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    // The tenant lock numbers the network's versions in order.
    await lockTenant(ctx, trx, actor.tenantId);
    const found = await networkForChange(trx, actor, networkNumber);
    await versionBaseline(trx, actor.tenantId, found.id);
    const net = await trx
      .updateTable('network')
      .set({ network_name: name, update_time: Date.now() })
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', found.id)
      .returning('id')
      .executeTakeFirst();
    if (!net) throw notFound(M.networkNotFound);
    await networkChanged(ctx, trx, actor.tenantId, net.id, 'edited');
    await recordVersion(trx, actor, actor.tenantId, net.id);
  });
}

/** network.changed, in the change's transaction (the compiler will rebuild the network's configs from it). */
export function networkChanged(ctx: Ctx, trx: Db, tenantId: number, networkId: number, change: 'created' | 'edited' | 'deleted' | 'members' | 'links') {
  return ctx.events.emit(trx, { type: 'network.changed', tenant_id: tenantId, network_id: networkId, change });
}

/** Deletes a network with its member list and link state; roles naming it stay as they are. */
export async function remove(ctx: Ctx, actor: Actor, networkNumber: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    // The member rows that cascade change the tenant's network use.
    await lockTenant(ctx, trx, actor.tenantId);
    const net = await trx.deleteFrom('network').where('tenant_id', '=', actor.tenantId).where('network_number', '=', networkNumber).returning('id').executeTakeFirst();
    if (!net) throw notFound(M.networkNotFound);
    await networkChanged(ctx, trx, actor.tenantId, net.id, 'deleted');
  });
}

/** Adds one member at a position with the rules of create. */
export async function addMember(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string, memberType: MemberType): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const net = await networkForChange(trx, actor, networkNumber);
    await versionBaseline(trx, actor.tenantId, net.id);
    const plan = await planOf(trx, actor.tenantId);
    const [chosen] = await resolveMembers(trx, actor.tenantId, memberType === 'center' ? [routerName] : [], memberType === 'point' ? [routerName] : []);
    const current = await trx.selectFrom('network_member').select(['member_id', 'member_type']).where('network_id', '=', net.id).execute();
    if (current.some((c) => c.member_id === chosen!.id)) throw invalid(M.networkMemberExists);
    const centers = current.filter((c) => c.member_type === 'center').length;
    if (memberType === 'center') ensureCenters(plan, centers + 1, centers);
    await insertMembers(trx, actor.tenantId, net.id, [chosen!], Date.now(), net.routing_type);
    await ensureWithinQuota(trx, actor.tenantId, plan, plan.network_router_use);
    await networkChanged(ctx, trx, actor.tenantId, net.id, 'members');
    await recordVersion(trx, actor, actor.tenantId, net.id);
  });
}

/** Removes one member; the last one stays (deleting the network empties it). */
export async function removeMember(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const net = await networkForChange(trx, actor, networkNumber);
    await versionBaseline(trx, actor.tenantId, net.id);
    const row = await trx
      .selectFrom('network_member as nm')
      .innerJoin('member as m', 'm.id', 'nm.member_id')
      .select('nm.member_id')
      .where('nm.network_id', '=', net.id)
      .where('m.tenant_id', '=', actor.tenantId)
      .where('m.router_key', '=', routerName.toLowerCase())
      .executeTakeFirst();
    if (!row) throw invalid(M.networkMemberNotIn);
    const left = await trx
      .selectFrom('network_member')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('network_id', '=', net.id)
      .executeTakeFirstOrThrow();
    if (Number(left.n) <= 1) throw invalid(M.networkLastMember);
    await trx.deleteFrom('network_member').where('network_id', '=', net.id).where('member_id', '=', row.member_id).execute();
    await dropLinks(trx, net.id, [row.member_id], [row.member_id]);
    await networkChanged(ctx, trx, actor.tenantId, net.id, 'members');
    await recordVersion(trx, actor, actor.tenantId, net.id);
  });
}
