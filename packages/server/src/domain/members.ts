import { ROUTER_TYPE } from '@hublink/contract';
import type { Db } from '../db/connect';
import { chunks } from '../core/chunks';
import type { Ctx } from '../core/context';
import { planOf } from './plan';

/*
 * Members as every writer of the `member` table sees them. The router module owns the table; the
 * directory sync (ldap) and the sign-in sources (auth-source) add, change and remove software members
 * through these too, so the quota, the kept counts and the member events are the same whoever writes.
 * Writers hold the tenant's lock (core/tenantLock.ts) around adds and deletes.
 */

/** A member's name as the tenant's unique key (router_key): trimmed and lower-cased. */
export const memberKey = (name: string) => name.trim().toLowerCase();

/** Members of the tenant by kind, from the counts the database keeps (migration 0006). */
export async function countByType(db: Db, tenantId: number): Promise<{ hardware: number; software: number }> {
  const rows = await db.selectFrom('member_count').select(['router_type', 'n']).where('tenant_id', '=', tenantId).execute();
  const n = (type: number) => Number(rows.find((r) => r.router_type === type)?.n ?? 0);
  return { hardware: n(ROUTER_TYPE.hardware), software: n(ROUTER_TYPE.software) };
}

/** The tenant's plan limit on members (hardware and software together). */
export const memberLimit = async (db: Db, tenantId: number): Promise<number> => (await planOf(db, tenantId)).network_router_count;

/** Places left under the plan: 0 when full (or over, after the plan was lowered). */
export async function placesLeft(db: Db, tenantId: number): Promise<{ left: number; max: number }> {
  const [max, used] = await Promise.all([memberLimit(db, tenantId), countByType(db, tenantId)]);
  return { left: Math.max(0, max - used.hardware - used.software), max };
}

// The member events, written in the transaction of the change (docs/architecture.md).

export async function memberChanged(ctx: Ctx, trx: Db, tenantId: number, memberId: number, ...fields: string[]) {
  await ctx.events.emit(trx, { type: 'member.changed', tenant_id: tenantId, member_id: memberId, fields });
}

export async function membersCreated(ctx: Ctx, trx: Db, tenantId: number, members: { id: number; router_type: number }[]) {
  await ctx.events.emitAll(
    trx,
    members.map((m) => ({ type: 'member.created', tenant_id: tenantId, member_id: m.id, router_type: m.router_type })),
  );
}

/** A member as it is added; its key, times and online state are filled in by createMembers. */
export interface NewMember {
  router_name: string;
  router_type: number;
  note: string;
  secret_hash: string;
  /** Who made it: 'console', 'import', the directory's or a sign-in source's type. */
  source: string;
  area_number?: string | null;
  phone?: string | null;
  /** 1 enabled (the default), 0 disabled. */
  status?: number;
  /** The person's display name, where a sign-in source knows it. */
  name?: string;
}

/** 13 values a row: 200 rows a statement stay under SQLite's limit of 32,766 parameters. */
const INSERT_ROWS = 200;

/**
 * Adds members of the tenant and announces each (member.created), in the caller's transaction: every
 * member insert goes through here. The caller holds the tenant's lock and has checked names and the
 * quota. Answers the new rows (id, kind, key), matched by key rather than by order.
 */
export async function createMembers(ctx: Ctx, trx: Db, tenantId: number, members: readonly NewMember[], now = Date.now()) {
  const added: { id: number; router_type: number; router_key: string }[] = [];
  for (const part of chunks(members, INSERT_ROWS)) {
    const rows = await trx
      .insertInto('member')
      .values(
        part.map((m) => ({
          tenant_id: tenantId,
          router_name: m.router_name,
          router_key: memberKey(m.router_name),
          router_type: m.router_type,
          note: m.note,
          secret_hash: m.secret_hash,
          area_number: m.area_number ?? null,
          phone: m.phone ?? null,
          status: m.status ?? 1,
          ...(m.name === undefined ? {} : { name: m.name }),
          source: m.source,
          online_time: null,
          create_time: now,
          update_time: now,
        })),
      )
      .returning(['id', 'router_type', 'router_key'])
      .execute();
    added.push(...rows.map((r) => ({ id: Number(r.id), router_type: r.router_type, router_key: r.router_key })));
  }
  await membersCreated(ctx, trx, tenantId, added);
  return added;
}

/** Call before the delete: each event names the networks the member was in, which the delete takes with it. */
export async function membersDeleted(ctx: Ctx, trx: Db, tenantId: number, memberIds: number[]) {
  const networks = new Map<number, number[]>(memberIds.map((id) => [id, []]));
  for (const part of chunks(memberIds)) {
    const rows = await trx.selectFrom('network_member').select(['member_id', 'network_id']).where('tenant_id', '=', tenantId).where('member_id', 'in', part).execute();
    for (const r of rows) networks.get(r.member_id)?.push(r.network_id);
  }
  await ctx.events.emitAll(
    trx,
    [...networks].map(([id, network_ids]) => ({ type: 'member.deleted', tenant_id: tenantId, member_id: id, network_ids })),
  );
}

/** Deletes members of the tenant with their events (they leave every network by cascade); the caller holds the tenant's lock. */
export async function deleteMembers(ctx: Ctx, trx: Db, tenantId: number, memberIds: number[]): Promise<void> {
  if (memberIds.length === 0) return;
  await membersDeleted(ctx, trx, tenantId, memberIds);
  for (const part of chunks(memberIds)) await trx.deleteFrom('member').where('tenant_id', '=', tenantId).where('id', 'in', part).execute();
}
