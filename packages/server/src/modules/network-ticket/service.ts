import {
  fmt,
  M,
  POP_REGIONS,
  TICKET_LIMITS,
  TICKET_STATUS,
  TICKET_TYPE_ACCESS_POP,
  type createTicket,
  type listTickets,
  type TicketAttributes,
  type TicketConfig,
  type TicketItem,
} from '@hublink/contract';
import type { z } from 'zod';
import type { Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { randomDayNumber } from '../../core/dayNumber';
import { invalid, notFound } from '../../core/errors';
import { allowedNetworks, ensureNetworkAllowed } from '../../core/networks';
import { contains, pageOf } from '../../core/paging';
import { lockTenant } from '../../core/tenantLock';
import { dayRange, formatTime } from '../../core/time';
import type { Db } from '../../db/connect';
import type { NetworkTicketTable } from '../../db/types';
import type { Selectable } from 'kysely';
import { callersNetwork } from '../../domain/networks';

type ListQuery = z.output<typeof listTickets.query>;
type CreateInput = z.output<typeof createTicket.body>;
type TicketRow = Selectable<NetworkTicketTable>;

/*
 * Network work orders (spec 2 §2): this module owns network_ticket and only reads network and
 * network_member. Every query is filtered by the tenant; a sub-account whose role lists networks sees
 * and touches only those networks' orders.
 */

// ---- ticket numbers ----

const RANDOM_DIGITS = 8;
const NUMBER_ATTEMPTS = 5;

/** 'T', the day (yyyyMMdd, UTC) and 8 random digits: readable over the phone, unique by the column's index. */
export const randomTicketNumber = (now = Date.now()): string => randomDayNumber('T', RANDOM_DIGITS, now);

// ---- reading ----

const EMPTY_ATTRIBUTES: TicketAttributes = { bandwidth: 0, pop: [], expired_time: 0, pop_conf: {} };

/** The stored JSON as the contract shapes it; a field missing or of another shape reads as empty. */
export function attributesOf(json: string): TicketAttributes {
  let raw: Partial<Record<keyof TicketAttributes, unknown>> = {};
  try {
    raw = JSON.parse(json) as typeof raw;
  } catch {
    return EMPTY_ATTRIBUTES;
  }
  const conf: Record<string, string[]> = {};
  if (raw.pop_conf && typeof raw.pop_conf === 'object') {
    for (const [region, names] of Object.entries(raw.pop_conf)) {
      if (Array.isArray(names)) conf[region] = names.filter((n): n is string => typeof n === 'string');
    }
  }
  return {
    bandwidth: typeof raw.bandwidth === 'number' ? raw.bandwidth : 0,
    pop: Array.isArray(raw.pop) ? raw.pop.filter((p): p is string => typeof p === 'string') : [],
    expired_time: typeof raw.expired_time === 'number' ? raw.expired_time : 0,
    pop_conf: conf,
  };
}

function itemOf(ctx: Ctx, r: TicketRow): TicketItem {
  const tz = ctx.config.timezone;
  return {
    network_ticket_number: r.network_ticket_number,
    network_number: r.network_number,
    network_ticket_type: r.network_ticket_type,
    network_ticket_status: r.network_ticket_status,
    service_name: r.service_name,
    create_time: formatTime(Number(r.create_time), tz),
    complete_time: r.network_ticket_status === TICKET_STATUS.completed && r.complete_time !== null ? formatTime(Number(r.complete_time), tz) : '',
    attributes: attributesOf(r.attributes),
  };
}

/**
 * Search matches the ticket number; network_number and the days of create_time filter; 10 a page,
 * newest first. A sub-account limited to networks sees those networks' orders only.
 */
export async function list(ctx: Ctx, actor: Actor, q: ListQuery): Promise<{ rows: TicketItem[]; count: number }> {
  const allowed = allowedNetworks(actor);
  const { from, to } = dayRange(q.start_time, q.end_time, ctx.config.timezone);
  const filtered = ctx.db
    .selectFrom('network_ticket')
    .where('tenant_id', '=', actor.tenantId)
    .$if(allowed !== null, (qb) => qb.where('network_number', 'in', allowed!))
    .$if(!!q.network_number, (qb) => qb.where('network_number', '=', q.network_number!))
    .$if(from !== undefined, (qb) => qb.where('create_time', '>=', from!))
    .$if(to !== undefined, (qb) => qb.where('create_time', '<', to!))
    .$if(!!q.search, (qb) => qb.where((eb) => contains(ctx.dialect, eb.ref('network_ticket_number'), q.search!)));
  const { rows, count } = await pageOf(filtered, q, (qb) => qb.selectAll().orderBy('create_time', 'desc').orderBy('id', 'desc'));
  return { rows: rows.map((r) => itemOf(ctx, r)), count };
}

/** The tenant's order by number: 204 when there is none, 403 when its network is outside the caller's role list. */
async function ticketOf(db: Db, actor: Actor, ticketNumber: string): Promise<TicketRow> {
  const row = await db
    .selectFrom('network_ticket')
    .selectAll()
    .where('tenant_id', '=', actor.tenantId)
    .where('network_ticket_number', '=', ticketNumber)
    .executeTakeFirst();
  if (!row) throw notFound(M.ticketNotFound);
  ensureNetworkAllowed(actor, row.network_number);
  return row;
}

export async function view(ctx: Ctx, actor: Actor, ticketNumber: string): Promise<TicketItem> {
  return itemOf(ctx, await ticketOf(ctx.db, actor, ticketNumber));
}

/** The tenant's network by number (read only): 403 outside the role list, 204 when there is none. */
const networkOf = (db: Db, actor: Actor, networkNumber: string) => callersNetwork(db, actor, networkNumber, ['id', 'network_name']);

/** The network's members by name, in the order they joined. */
function membersOf(db: Db, tenantId: number, networkId: number) {
  return db
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select(['m.router_name'])
    .where('nm.network_id', '=', networkId)
    .where('nm.tenant_id', '=', tenantId)
    .where('m.tenant_id', '=', tenantId)
    .orderBy('nm.id')
    .execute();
}

/** The wizard's choices (regions, validity in years, bandwidth bounds) and the network's members. */
export async function config(ctx: Ctx, actor: Actor, networkNumber: string): Promise<TicketConfig> {
  const net = await networkOf(ctx.db, actor, networkNumber);
  const bandwidths = TICKET_LIMITS.bandwidths;
  return {
    ticket: {
      bandwidth: { min: bandwidths[0], max: bandwidths[bandwidths.length - 1]! },
      expired_time: TICKET_LIMITS.years.map((value) => ({ value })),
      pop: POP_REGIONS.map((r) => ({ value: r.value, name: r.name })),
    },
    member: await membersOf(ctx.db, actor.tenantId, net.id),
  };
}

// ---- the tenant's changes ----

const OPEN = [TICKET_STATUS.pending, TICKET_STATUS.inProgress];

/**
 * Creates a pending access-POP order. Every member of pop_conf must be in the network; a network has
 * at most one open (pending or in progress) access-POP order. The tenant lock serialises creations.
 */
export async function create(ctx: Ctx, actor: Actor, input: CreateInput): Promise<string> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockTenant(ctx, trx, actor.tenantId);
    const net = await networkOf(trx, actor, input.network_number);
    const names = new Map((await membersOf(trx, actor.tenantId, net.id)).map((m) => [m.router_name.toLowerCase(), m.router_name]));
    const popConf: Record<string, string[]> = {};
    for (const region of input.ticket.pop) {
      popConf[region] = (input.pop_conf[region] ?? []).map((name) => {
        const known = names.get(name.toLowerCase());
        if (known === undefined) throw invalid(fmt(M.ticketConfMemberNotIn, { name }));
        return known;
      });
    }
    const open = await trx
      .selectFrom('network_ticket')
      .select('id')
      .where('tenant_id', '=', actor.tenantId)
      .where('network_number', '=', input.network_number)
      .where('network_ticket_type', '=', TICKET_TYPE_ACCESS_POP)
      .where('network_ticket_status', 'in', OPEN)
      .executeTakeFirst();
    if (open) throw invalid(M.ticketPendingExists);
    const attributes: TicketAttributes = { bandwidth: input.ticket.bandwidth, pop: input.ticket.pop, expired_time: input.ticket.expired_time, pop_conf: popConf };
    const now = Date.now();
    for (let attempt = 1; ; attempt++) {
      const number = randomTicketNumber(now);
      const taken = await trx.selectFrom('network_ticket').select('id').where('network_ticket_number', '=', number).executeTakeFirst();
      if (taken && attempt < NUMBER_ATTEMPTS) continue;
      if (taken) throw new Error('no free ticket number');
      await trx
        .insertInto('network_ticket')
        .values({
          tenant_id: actor.tenantId,
          network_ticket_number: number,
          network_number: input.network_number,
          network_ticket_type: input.network_ticket_type,
          network_ticket_status: TICKET_STATUS.pending,
          service_name: net.network_name,
          attributes: JSON.stringify(attributes),
          create_time: now,
          complete_time: null,
          update_time: now,
        })
        .execute();
      return number;
    }
  });
}

/** Deletes a pending (1) or cancelled (4) order. */
export async function remove(ctx: Ctx, actor: Actor, ticketNumber: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await ticketOf(trx, actor, ticketNumber);
    if (row.network_ticket_status !== TICKET_STATUS.pending && row.network_ticket_status !== TICKET_STATUS.cancelled) throw invalid(M.ticketDeleteRefused);
    const gone = await trx
      .deleteFrom('network_ticket')
      .where('id', '=', row.id)
      .where('network_ticket_status', '=', row.network_ticket_status)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw invalid(M.ticketDeleteRefused);
  });
}

/** The tenant cancels an order in progress (2) or completed (3): it becomes cancelled (4). */
export async function cancelByTenant(ctx: Ctx, actor: Actor, ticketNumber: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await ticketOf(trx, actor, ticketNumber);
    if (row.network_ticket_status !== TICKET_STATUS.inProgress && row.network_ticket_status !== TICKET_STATUS.completed) throw invalid(M.ticketCancelRefused);
    const moved = await trx
      .updateTable('network_ticket')
      .set({ network_ticket_status: TICKET_STATUS.cancelled, update_time: Date.now() })
      .where('id', '=', row.id)
      .where('network_ticket_status', '=', row.network_ticket_status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw invalid(M.ticketCancelRefused);
  });
}
