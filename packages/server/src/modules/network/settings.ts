import {
  fmt,
  M,
  metricOf,
  priorityOf,
  NETWORK_STATUS,
  ROUTING_LINE,
  ROUTING_TYPE,
  DEFAULT_ROUTE,
  type DomainEvent,
  type editRouting as editRoutingEndpoint,
  type MemberCommand,
  type NcpCiphers,
  type NetworkRouting,
  type setDefaultRoute as setDefaultRouteEndpoint,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { forbidden, invalid } from '../../core/errors';
import { planOf, type Plan } from '../../domain/plan';
import { previewPoint, savedAs } from '../../core/preview';
import { lockTenant } from '../../core/tenantLock';
import type { Db } from '../../db/connect';
import { recordVersion, versionBaseline } from './historyRecord';
import { networkStatusOf } from './quota';
import { networkOf } from './queries';
import { callersNetwork } from '../../domain/networks';

type RoutingInput = z.output<typeof editRoutingEndpoint.body>;
type DefaultRouteInput = z.output<typeof setDefaultRouteEndpoint.body>;

/*
 * The settings of the network detail (spec 2 §2, §7): routing, DNS, default route, ciphers, dial
 * mode, dynamic routing, and the commands queued for members' devices. Every change runs in one
 * transaction with the tenant locked (the network status and the centers it reads change under that
 * lock), is refused while the network is disabled (status 0, spec 2 §2 hides these dialogs then),
 * and emits network.changed 'settings' so the compiler rebuilds the members' configs. A command
 * changes no setting: it is queued in member_command and announced by member.command_queued.
 */

/** The account flags (spec 2 §2 feature flags) a setting needs. */
type Flag = 'auth_quagga' | 'auth_default_route';
const FLAG_REFUSAL: Record<Flag, string> = { auth_quagga: M.networkQuaggaNotOpen, auth_default_route: M.networkRouteNotOpen };

interface Target {
  id: number;
}

/**
 * Runs one change of a network's settings: 403 outside the caller's role list, 204 for no such
 * network of the tenant, 403 without the account flag, 422 while the network is disabled.
 */
export async function changeNetwork<T>(
  ctx: Ctx,
  actor: Actor,
  networkNumber: string,
  opts: { flag?: Flag; event: 'settings' | 'none' },
  change: (trx: Db, net: Target, plan: Plan) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    // Refuses a network outside the caller's role list (403) before reading anything.
    const net = await callersNetwork(trx, actor, networkNumber, ['id']);
    if (opts.flag) {
      const flag = opts.flag;
      const account = await trx.selectFrom('account').select(flag).where('id', '=', actor.tenantId).executeTakeFirstOrThrow();
      if (account[flag] !== 1) throw forbidden(FLAG_REFUSAL[flag]);
    }
    const plan = await planOf(trx, actor.tenantId);
    if (networkStatusOf(plan) === NETWORK_STATUS.disabled) throw invalid(M.networkSettingsDisabled);
    await versionBaseline(trx, actor.tenantId, net.id);
    // A preview (preview.ts) takes the network as it is and as the change leaves it, then rolls back.
    await previewPoint(trx, actor.tenantId, net.id, 'before');
    const out = await change(trx, net, plan);
    await previewPoint(trx, actor.tenantId, net.id, 'after');
    if (opts.event === 'settings') {
      await ctx.events.emit(trx, { type: 'network.changed', tenant_id: actor.tenantId, network_id: net.id, change: 'settings' });
    }
    // A save keeps what it did with the version it wrote (changes.ts).
    savedAs(trx, await recordVersion(trx, actor, actor.tenantId, net.id));
    return out;
  });
}

interface InNetwork {
  /** The network_member row. */
  id: number;
  member_id: number;
  member_type: string;
  router_name: string;
  online_status: number;
}

/** A member of the network by name (without regard to case); 422 when it is not in the network. */
export async function memberIn(trx: Db, tenantId: number, networkId: number, routerName: string): Promise<InNetwork> {
  const row = await trx
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select(['nm.id', 'nm.member_id', 'nm.member_type', 'm.router_name', 'm.online_status'])
    .where('nm.network_id', '=', networkId)
    .where('nm.tenant_id', '=', tenantId)
    .where('m.tenant_id', '=', tenantId)
    .where('m.router_key', '=', routerName.toLowerCase())
    .executeTakeFirst();
  if (!row) throw invalid(M.networkMemberNotIn);
  return row;
}

/** The network's centers with their lines, in the order they joined. */
function centersOf(db: Db, tenantId: number, networkId: number) {
  return db
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select(['nm.id', 'nm.member_id', 'nm.routing', 'm.router_name'])
    .where('nm.network_id', '=', networkId)
    .where('nm.tenant_id', '=', tenantId)
    .where('nm.member_type', '=', 'center')
    .orderBy('nm.id')
    .execute();
}

// ---- line main/backup ----

/** The routing type and, in main-backup mode, the main and backup lines' centers ('' when none is). */
export async function routing(ctx: Ctx, actor: Actor, networkNumber: string): Promise<NetworkRouting> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  if (net.routing_type !== ROUTING_TYPE.mainBackup) return { type: net.routing_type, main_router: '', secondary_router: '' };
  const centers = await centersOf(ctx.db, actor.tenantId, net.id);
  const main = centers.find((c) => c.routing === ROUTING_LINE.main);
  const secondary = centers.find((c) => c.member_id === net.routing_secondary_id && c.routing === ROUTING_LINE.backup);
  return { type: net.routing_type, main_router: main?.router_name ?? '', secondary_router: secondary?.router_name ?? '' };
}

/** A routing type and, for main-backup, its main and backup centers by name. */
export interface RoutingChoice {
  type: number;
  main_router?: string | undefined;
  secondary_router?: string | undefined;
}

/**
 * The rule of line main/backup, in the caller's change (the 线路主备 dialog, the twin-center link's
 * line mode, a rollback): needs two or more centers. Dual primary: every center is a main line.
 * Main-backup: the named main center is the main line, every other center a backup line, and the named
 * backup is remembered. Writes only what differs (so the audit entry shows just that); answers whether
 * anything did.
 */
export async function applyRouting(trx: Db, tenantId: number, networkId: number, input: RoutingChoice): Promise<boolean> {
  const centers = await centersOf(trx, tenantId, networkId);
  if (centers.length < 2) throw invalid(M.networkRoutingCenters);
  let mainId: number | null = null;
  let secondaryId: number | null = null;
  if (input.type === ROUTING_TYPE.mainBackup) {
    const center = async (name: string) => {
      const m = await memberIn(trx, tenantId, networkId, name);
      if (m.member_type !== 'center') throw invalid(M.networkRoutingNotCenter);
      return m;
    };
    const mainRow = await center(input.main_router ?? '');
    const secondaryRow = await center(input.secondary_router ?? '');
    if (mainRow.id === secondaryRow.id) throw invalid(M.networkRoutingSame);
    mainId = mainRow.id;
    secondaryId = secondaryRow.member_id;
  }
  const lineOf = (id: number) => (mainId === null || id === mainId ? ROUTING_LINE.main : ROUTING_LINE.backup);
  const moved = centers.filter((c) => c.routing !== lineOf(c.id));
  const net = await trx.selectFrom('network').select(['routing_type', 'routing_secondary_id']).where('id', '=', networkId).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  if (moved.length === 0 && net.routing_type === input.type && net.routing_secondary_id === secondaryId) return false;
  for (const line of [ROUTING_LINE.main, ROUTING_LINE.backup]) {
    const ids = moved.filter((c) => lineOf(c.id) === line).map((c) => c.id);
    if (ids.length > 0) await trx.updateTable('network_member').set({ routing: line }).where('id', 'in', ids).execute();
  }
  await trx
    .updateTable('network')
    .set({ routing_type: input.type, routing_secondary_id: secondaryId, update_time: Date.now() })
    .where('id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .execute();
  return true;
}

/** POST network/edit_routing: applyRouting as its own change. */
export async function editRouting(ctx: Ctx, actor: Actor, input: RoutingInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { event: 'settings' }, async (trx, net) => {
    await applyRouting(trx, actor.tenantId, net.id, input);
  });
}

// ---- DNS ----

/** Replaces the network's DNS list; at most the plan's dns_quantity rows. */
export async function setDns(ctx: Ctx, actor: Actor, networkNumber: string, dns: string[]): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'settings' }, async (trx, net, plan) => {
    if (dns.length > plan.dns_quantity) throw invalid(fmt(M.networkDnsLimit, { n: plan.dns_quantity }));
    await trx
      .updateTable('network')
      .set({ dns: JSON.stringify(dns), update_time: Date.now() })
      .where('id', '=', net.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  });
}

// ---- default route ----

/**
 * Off, advertise (with its metric) or receive; a member's metric stays as it was unless it advertises.
 * Two members may not advertise with one priority: the receivers could not choose between them. A
 * member saved again as it advertises already is no new conflict.
 */
export async function setDefaultRoute(ctx: Ctx, actor: Actor, input: DefaultRouteInput): Promise<void> {
  await changeNetwork(ctx, actor, input.network_number, { flag: 'auth_default_route', event: 'settings' }, async (trx, net) => {
    const m = await memberIn(trx, actor.tenantId, net.id, input.router_name);
    const metric = input.model === DEFAULT_ROUTE.advertise ? metricOf(input.metric) : undefined;
    if (metric !== undefined) await ensurePriorityFree(trx, actor.tenantId, net.id, m.id, metric);
    await trx
      .updateTable('network_member')
      .set({ default_route: input.model, ...(metric === undefined ? {} : { metric }) })
      .where('id', '=', m.id)
      .execute();
  });
}

/** 422 M.networkRoutePriorityTaken when another member of the network advertises with `metric`. */
async function ensurePriorityFree(trx: Db, tenantId: number, networkId: number, memberRowId: number, metric: number): Promise<void> {
  const own = await trx.selectFrom('network_member').select(['default_route', 'metric']).where('id', '=', memberRowId).executeTakeFirstOrThrow();
  if (own.default_route === DEFAULT_ROUTE.advertise && own.metric === metric) return;
  const other = await trx
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select('m.router_name')
    .where('nm.network_id', '=', networkId)
    .where('nm.tenant_id', '=', tenantId)
    .where('nm.id', '!=', memberRowId)
    .where('nm.default_route', '=', DEFAULT_ROUTE.advertise)
    .where('nm.metric', '=', metric)
    .orderBy('nm.id')
    .executeTakeFirst();
  if (other) throw invalid(fmt(M.networkRoutePriorityTaken, { n: priorityOf(metric), name: other.router_name }));
}

// ---- ciphers, dial mode ----

export async function setCiphers(ctx: Ctx, actor: Actor, networkNumber: string, ciphers: NcpCiphers): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'settings' }, async (trx, net) => {
    await trx
      .updateTable('network')
      .set({ ncp_ciphers: ciphers, update_time: Date.now() })
      .where('id', '=', net.id)
      .where('tenant_id', '=', actor.tenantId)
      .execute();
  });
}

export async function setDialMode(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string, mode: number): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'settings' }, async (trx, net) => {
    const m = await memberIn(trx, actor.tenantId, net.id, routerName);
    await trx.updateTable('network_member').set({ mode }).where('id', '=', m.id).execute();
  });
}

// ---- dynamic routing ----

/** One member's dynamic routing on (1) or off (0). */
export async function setQuagga(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string, enable: number): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { flag: 'auth_quagga', event: 'settings' }, async (trx, net) => {
    const m = await memberIn(trx, actor.tenantId, net.id, routerName);
    await trx.updateTable('network_member').set({ quagga: enable }).where('id', '=', m.id).execute();
  });
}

/** Every member's dynamic routing on (1) or off (0). */
export async function setQuaggaAll(ctx: Ctx, actor: Actor, networkNumber: string, enable: number): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { flag: 'auth_quagga', event: 'settings' }, async (trx, net) => {
    await trx.updateTable('network_member').set({ quagga: enable }).where('network_id', '=', net.id).where('tenant_id', '=', actor.tenantId).execute();
  });
}

// ---- member commands ----

/** Rows of this many values per statement keep every database under its parameter limit. */
const CHUNK = 500;

/**
 * Queues one command of `kind` for each member; a member that already has the same command queued
 * on this network keeps that one (its update_time is renewed), so repeated clicks queue it once.
 */
async function queueCommands(ctx: Ctx, trx: Db, tenantId: number, networkId: number, memberIds: number[], kind: MemberCommand, payload: object): Promise<void> {
  const now = Date.now();
  const events: DomainEvent[] = [];
  for (let i = 0; i < memberIds.length; i += CHUNK) {
    const part = memberIds.slice(i, i + CHUNK);
    const queued = await trx
      .selectFrom('member_command')
      .select(['id', 'member_id'])
      .where('network_id', '=', networkId)
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .where('state', '=', 'queued')
      .where('member_id', 'in', part)
      .execute();
    if (queued.length > 0) {
      await trx
        .updateTable('member_command')
        .set({ payload: JSON.stringify(payload), update_time: now })
        .where(
          'id',
          'in',
          queued.map((q) => q.id),
        )
        .execute();
    }
    const has = new Set(queued.map((q) => q.member_id));
    const fresh = part.filter((id) => !has.has(id));
    if (fresh.length === 0) continue;
    const rows = await trx
      .insertInto('member_command')
      .values(fresh.map((member_id) => ({ tenant_id: tenantId, network_id: networkId, member_id, kind, payload: JSON.stringify(payload), create_time: now, update_time: now })))
      .returning(['id', 'member_id'])
      .execute();
    for (const r of rows) events.push({ type: 'member.command_queued', tenant_id: tenantId, member_id: r.member_id, network_id: networkId, command_id: r.id, kind });
  }
  if (events.length > 0) await ctx.events.emitAll(trx, events);
}

/** Kicks offline (kill) or restarts the service (restart) of a member that is online now. */
export async function commandOnline(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string, kind: 'kill' | 'restart'): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'none' }, async (trx, net) => {
    const m = await memberIn(trx, actor.tenantId, net.id, routerName);
    if (m.online_status !== 1) throw invalid(M.networkMemberOffline);
    await queueCommands(ctx, trx, actor.tenantId, net.id, [m.member_id], kind, {});
  });
}

/** Sends the network's config again to one member, or to every member without a name; offline ones get it when they connect. */
export async function resendConfig(ctx: Ctx, actor: Actor, networkNumber: string, routerName: string | undefined): Promise<void> {
  await changeNetwork(ctx, actor, networkNumber, { event: 'none' }, async (trx, net) => {
    const ids = routerName
      ? [(await memberIn(trx, actor.tenantId, net.id, routerName)).member_id]
      : (
          await trx
            .selectFrom('network_member')
            .select('member_id')
            .where('network_id', '=', net.id)
            .where('tenant_id', '=', actor.tenantId)
            .orderBy('id')
            .execute()
        ).map((r) => r.member_id);
    await queueCommands(ctx, trx, actor.tenantId, net.id, ids, 'resend_config', { network_number: networkNumber });
  });
}
