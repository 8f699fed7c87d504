import { randomBytes } from 'node:crypto';
import {
  fmt,
  M,
  NETWORK_TYPE,
  ROUTER_TYPE,
  ROUTING_LINE,
  ROUTING_TYPE,
  type createNetwork,
  type editNetwork,
  type MemberType,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { chunks } from '../../core/chunks';
import { ApiError, forbidden, invalid, notFound } from '../../core/errors';
import { allowedNetworks } from '../../core/networks';
import { planOf } from '../../domain/plan';
import type { Db } from '../../db/connect';
import { lockTenant } from '../../core/tenantLock';
import { recordVersion, versionBaseline } from './historyRecord';
import { ensureCenters, ensureWithinQuota } from './quota';
import { networkOfTenant } from '../../domain/networks';

type CreateInput = z.output<typeof createNetwork.body>;
type EditInput = z.output<typeof editNetwork.body>;

/*
 * Changing networks of centers and points (spec 2): creating, editing, renaming and deleting them, and
 * adding or removing one member. Every change runs in one transaction with the tenant locked, and the
 * quota is checked on the result (quota.ts). The reads are in queries.ts.
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

// ---- changes ----

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

/** The tenant's members of these names, by their lower-case name. */
export async function membersByName(db: Db, tenantId: number, names: string[]): Promise<Map<string, { id: number; router_name: string; router_type: number }>> {
  const found = new Map<string, { id: number; router_name: string; router_type: number }>();
  for (const part of chunks(names)) {
    const rows = await db
      .selectFrom('member')
      .select(['id', 'router_key', 'router_name', 'router_type'])
      .where('tenant_id', '=', tenantId)
      .where(
        'router_key',
        'in',
        part.map((n) => n.toLowerCase()),
      )
      .execute();
    for (const r of rows) found.set(r.router_key, r);
  }
  return found;
}

/** The named members, each the tenant's own; software members only as points. */
async function resolveMembers(db: Db, tenantId: number, center: string[], point: string[]): Promise<Chosen[]> {
  const named = [...center.map((n) => ({ name: n, member_type: 'center' as const })), ...point.map((n) => ({ name: n, member_type: 'point' as const }))];
  const found = await membersByName(db, tenantId, named.map((n) => n.name));
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
  const net = await networkOfTenant(db, actor.tenantId, networkNumber, ['id', 'routing_type']);
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
