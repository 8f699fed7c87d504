import { CODE, cancelTicket, createTicket, deleteTicket, fmt, listTickets, M, ticketConfig, ticketView, type Endpoint } from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../../test/networks';
import type { RoleAuth } from '../../core/actor';
import { cancelTicket as operatorCancel, completeTicket, startTicket } from './index';
import { randomTicketNumber } from './service';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** A tenant with a network of three members (m), a second network (other) and a member outside both (spare). */
async function tenantWith(t: TestApp) {
  const main = await newAccount(t);
  const m = await seedFreshMembers(t, main.account.id, 3);
  const [spare, lone] = await seedFreshMembers(t, main.account.id, 2);
  const net = await seedNetwork(t, main.account.id, { center: [m[0]!], point: [m[1]!, m[2]!], name: '总部网络' });
  const other = await seedNetwork(t, main.account.id, { center: [lone!] });
  return { main, m, spare: spare!, lone: lone!, net, other };
}

const send = (t: TestApp, e: Endpoint, token: string, input: Record<string, unknown>) =>
  t.call(e, e.method === 'GET' ? { token, query: input } : { token, body: input });

const ticketRows = (t: TestApp) => t.db.selectFrom('network_ticket').selectAll().orderBy('id').execute();

/** Expects a refusal with its code and message, and no change to the orders or the network tables. */
async function refused(t: TestApp, token: string, e: Endpoint, input: Record<string, unknown>, code: number, msg: string) {
  // An earlier order's completion still being handled (pop.created gives its network the resource) is not this call's change.
  await t.ctx.events.settle();
  const before = { ...(await networkTables(t)), tickets: await ticketRows(t) };
  const res = await send(t, e, token, input);
  expect({ path: e.path, input, code: res.code, msg: res.msg }).toEqual({ path: e.path, input, code, msg });
  expect({ ...(await networkTables(t)), tickets: await ticketRows(t) }).toEqual(before);
}

const order = (n: string, over: Record<string, unknown> = {}) => ({
  network_number: n,
  network_ticket_type: 1001,
  ticket: { pop: ['south', 'east'], expired_time: 1, bandwidth: 1 },
  pop_conf: {},
  ...over,
});

async function created(t: TestApp, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await send(t, createTicket, token, body);
  expect({ code: res.code, msg: res.msg }).toEqual({ code: CODE.ok, msg: M.ticketSubmitted });
  return (res.data as { network_ticket_number: string }).network_ticket_number;
}

/** Inserts an order straight into the table (any status, any time). */
async function seedTicket(t: TestApp, tenantId: number, networkNumber: string, over: { status?: number; create_time?: number; complete_time?: number | null } = {}) {
  const number = randomTicketNumber();
  const now = over.create_time ?? Date.now();
  await t.db
    .insertInto('network_ticket')
    .values({
      tenant_id: tenantId,
      network_ticket_number: number,
      network_number: networkNumber,
      network_ticket_type: 1001,
      network_ticket_status: over.status ?? 1,
      service_name: '',
      attributes: JSON.stringify({ bandwidth: 50, pop: ['north'], expired_time: 2, pop_conf: { north: [] } }),
      create_time: now,
      complete_time: over.complete_time ?? null,
      update_time: now,
    })
    .execute();
  return number;
}

const statusOf = async (t: TestApp, number: string) =>
  (await t.db.selectFrom('network_ticket').select('network_ticket_status').where('network_ticket_number', '=', number).executeTakeFirst())?.network_ticket_status;

const limitedTo = (networks: string[], edit: 0 | 1 = 1): RoleAuth => ({ ...FULL_ROLE, 'easylink.network': { create: 0, edit, delete: 1, network: networks } });

describe('ticket numbers', () => {
  it('are T, the day and 8 digits', () => {
    expect(randomTicketNumber(Date.UTC(2026, 10, 23, 1))).toMatch(/^T20261123\d{8}$/);
  });
});

describeEachDatabase('network work orders: the wizard’s config', (t) => {
  let main: Main;
  let m: string[];
  let net: { id: number; network_number: string };

  beforeAll(async () => {
    ({ main, m, net } = await tenantWith(t()));
  });

  it('answers the regions, the validity in years, the bandwidth bounds and the network’s members', async () => {
    const res = await send(t(), ticketConfig, main.token, { type: '1001', network_number: net.network_number });
    expect(res.code).toBe(CODE.ok);
    expect(res.data).toEqual({
      ticket: {
        bandwidth: { min: 1, max: 200 },
        expired_time: [{ value: 1 }, { value: 2 }, { value: 3 }],
        pop: [
          { value: 'south', name: '华南' },
          { value: 'north', name: '华北' },
          { value: 'east', name: '华东' },
          { value: 'intl', name: '国际' },
        ],
      },
      member: m.map((router_name) => ({ router_name })),
    });
  });

  it('answers 204 for an unknown network or another tenant’s, 422 for another type, 403 outside a role’s networks', async () => {
    const stranger = await newAccount(t());
    expect(await send(t(), ticketConfig, main.token, { network_number: 'NNOSUCH' })).toMatchObject({ code: CODE.notFound, msg: M.networkNotFound });
    expect(await send(t(), ticketConfig, stranger.token, { network_number: net.network_number })).toMatchObject({ code: CODE.notFound, msg: M.networkNotFound });
    expect(await send(t(), ticketConfig, main.token, { type: 1002, network_number: net.network_number })).toMatchObject({ code: CODE.invalid, msg: M.ticketTypeInvalid });
    const ram = await ramToken(t(), main.account.id, limitedTo(['NOTHIS']));
    expect(await send(t(), ticketConfig, ram, { network_number: net.network_number })).toMatchObject({ code: CODE.forbidden, msg: M.deniedNetwork });
    const viewer = await ramToken(t(), main.account.id, limitedTo([net.network_number], 0));
    expect((await send(t(), ticketConfig, viewer, { network_number: net.network_number })).code).toBe(CODE.ok);
  });
});

describeEachDatabase('network work orders: creating', (t) => {
  it('creates a pending order with its attributes, the members named as stored; one open order per network', async () => {
    const { main, m, net } = await tenantWith(t());
    const n = net.network_number;
    const number = await created(t(), main.token, order(n, { pop_conf: { south: [m[0]!.toUpperCase(), m[1]], east: [] } }));
    const row = (await ticketRows(t())).find((r) => r.network_ticket_number === number)!;
    expect(row).toMatchObject({ tenant_id: main.account.id, network_number: n, network_ticket_type: 1001, network_ticket_status: 1, service_name: '总部网络', complete_time: null });
    expect(JSON.parse(row.attributes)).toEqual({ bandwidth: 1, pop: ['south', 'east'], expired_time: 1, pop_conf: { south: [m[0], m[1]], east: [] } });

    const view = await send(t(), ticketView, main.token, { network_ticket_number: number });
    expect(view.data).toMatchObject({ network_ticket_number: number, network_ticket_status: 1, complete_time: '', attributes: { pop_conf: { south: [m[0], m[1]], east: [] } } });

    await refused(t(), main.token, createTicket, order(n), CODE.invalid, M.ticketPendingExists);
    await startTicket(t().ctx, number);
    await refused(t(), main.token, createTicket, order(n), CODE.invalid, M.ticketPendingExists);
    await completeTicket(t().ctx, number);
    const again = await created(t(), main.token, order(n, { ticket: { pop: ['intl'], expired_time: '3', bandwidth: '200' } }));
    expect(again).not.toBe(number);
  });

  it('refuses each rule with its message and creates nothing', async () => {
    const { main, m, spare, lone, net } = await tenantWith(t());
    const n = net.network_number;
    const tok = main.token;
    const withTicket = (ticket: Record<string, unknown>) => order(n, { ticket: { pop: ['south'], expired_time: 1, bandwidth: 1, ...ticket } });
    await refused(t(), tok, createTicket, withTicket({ pop: [] }), CODE.invalid, M.ticketPopRequired);
    await refused(t(), tok, createTicket, withTicket({ pop: 'south' }), CODE.invalid, M.ticketPopRequired);
    await refused(t(), tok, createTicket, order(n, { ticket: undefined }), CODE.invalid, M.ticketPopRequired);
    await refused(t(), tok, createTicket, withTicket({ pop: ['west'] }), CODE.invalid, M.ticketPopInvalid);
    await refused(t(), tok, createTicket, withTicket({ pop: ['south', 'south'] }), CODE.invalid, M.ticketPopInvalid);
    for (const expired_time of [0, 4, 1.5, 'x', undefined]) await refused(t(), tok, createTicket, withTicket({ expired_time }), CODE.invalid, M.ticketExpiredInvalid);
    for (const bandwidth of [0, 30, 201, -1, 'fast', undefined]) await refused(t(), tok, createTicket, withTicket({ bandwidth }), CODE.invalid, M.ticketBandwidthInvalid);
    await refused(t(), tok, createTicket, order(n, { network_ticket_type: 1002 }), CODE.invalid, M.ticketTypeInvalid);
    await refused(t(), tok, createTicket, order(n, { pop_conf: { north: [m[0]] } }), CODE.invalid, M.ticketConfRegionInvalid);
    await refused(t(), tok, createTicket, order(n, { pop_conf: { moon: [m[0]] } }), CODE.invalid, M.ticketConfRegionInvalid);
    await refused(t(), tok, createTicket, order(n, { pop_conf: { south: [m[0]], east: [m[0]!.toUpperCase()] } }), CODE.invalid, fmt(M.ticketConfMemberTwice, { name: m[0]!.toUpperCase() }));
    await refused(t(), tok, createTicket, order(n, { pop_conf: { south: [m[1], m[1]] } }), CODE.invalid, fmt(M.ticketConfMemberTwice, { name: m[1]! }));
    await refused(t(), tok, createTicket, order(n, { pop_conf: { south: [spare] } }), CODE.invalid, fmt(M.ticketConfMemberNotIn, { name: spare }));
    await refused(t(), tok, createTicket, order(n, { pop_conf: { east: [lone] } }), CODE.invalid, fmt(M.ticketConfMemberNotIn, { name: lone }));
    await refused(t(), tok, createTicket, order(n, { pop_conf: { south: [''] } }), CODE.invalid, M.networkMemberNotIn);
    await refused(t(), tok, createTicket, order('NNOSUCH'), CODE.notFound, M.networkNotFound);
  });

  it('needs the edit right, the network in the role’s list, and the tenant’s own network', async () => {
    const { main, net, other } = await tenantWith(t());
    const stranger = await newAccount(t());
    await refused(t(), stranger.token, createTicket, order(net.network_number), CODE.notFound, M.networkNotFound);
    const noEdit = await ramToken(t(), main.account.id, limitedTo([], 0));
    await refused(t(), noEdit, createTicket, order(net.network_number), CODE.forbidden, M.deniedPermission);
    const elsewhere = await ramToken(t(), main.account.id, limitedTo([other.network_number]));
    await refused(t(), elsewhere, createTicket, order(net.network_number), CODE.forbidden, M.deniedNetwork);
    const allowed = await ramToken(t(), main.account.id, limitedTo([net.network_number]));
    await created(t(), allowed, order(net.network_number));
  });
});

describeEachDatabase('network work orders: the list and the detail', (t) => {
  let main: Main;
  let net: { id: number; network_number: string };
  let other: { id: number; network_number: string };
  const numbers: Record<string, string> = {};

  beforeAll(async () => {
    ({ main, net, other } = await tenantWith(t()));
    const day = (d: string) => Date.parse(`${d}T04:00:00Z`);
    numbers.old = await seedTicket(t(), main.account.id, net.network_number, { create_time: day('2026-01-05'), status: 4 });
    numbers.done = await seedTicket(t(), main.account.id, net.network_number, { create_time: day('2026-02-10'), status: 3, complete_time: day('2026-02-12') });
    numbers.doing = await seedTicket(t(), main.account.id, other.network_number, { create_time: day('2026-03-01'), status: 2, complete_time: day('2026-03-02') });
    for (let i = 0; i < 9; i++) await seedTicket(t(), main.account.id, other.network_number, { create_time: day('2026-04-01') + i });
    const stranger = await newAccount(t());
    await seedTicket(t(), stranger.account.id, net.network_number, { create_time: day('2026-02-10') });
  });

  const list = async (token: string, query: Record<string, unknown> = {}) => {
    const res = await send(t(), listTickets, token, query);
    expect(res.code).toBe(CODE.ok);
    return { rows: res.data as { network_ticket_number: string; complete_time: string; network_ticket_status: number }[], count: (res as { count?: number }).count };
  };

  it('pages 10 a page, newest first, with complete_time only for completed orders', async () => {
    const first = await list(main.token);
    expect(first.count).toBe(12);
    expect(first.rows).toHaveLength(10);
    const second = await list(main.token, { page: 2 });
    expect(second.rows.map((r) => r.network_ticket_number)).toEqual([numbers.done, numbers.old]);
    expect(second.rows[0]).toMatchObject({ network_ticket_status: 3, complete_time: expect.stringMatching(/^2026-02-12 \d\d:00:00$/) });
    const doing = (await list(main.token, { search: numbers.doing })).rows;
    expect(doing).toMatchObject([{ network_ticket_number: numbers.doing, complete_time: '' }]);
  });

  it('searches the ticket number and filters the network and the days of creation', async () => {
    expect((await list(main.token, { search: numbers.done!.slice(-8) })).rows.map((r) => r.network_ticket_number)).toEqual([numbers.done]);
    expect((await list(main.token, { network_number: net.network_number })).rows.map((r) => r.network_ticket_number)).toEqual([numbers.done, numbers.old]);
    expect((await list(main.token, { start_time: '2026-02-01', end_time: '2026-03-01' })).rows.map((r) => r.network_ticket_number)).toEqual([numbers.doing, numbers.done]);
    expect((await list(main.token, { end_time: '2026-01-31' })).rows.map((r) => r.network_ticket_number)).toEqual([numbers.old]);
    expect(await send(t(), listTickets, main.token, { start_time: '2026-03-01', end_time: '2026-02-01' })).toMatchObject({ code: CODE.invalid, msg: M.ticketRangeInvalid });
    expect(await send(t(), listTickets, main.token, { start_time: '2026-02-30' })).toMatchObject({ code: CODE.invalid, msg: M.ticketDateInvalid });
  });

  it('shows a sub-account limited to networks only their orders, and the detail of no other', async () => {
    const ram = await ramToken(t(), main.account.id, limitedTo([net.network_number]));
    const mine = await list(ram);
    expect(mine.rows.map((r) => r.network_ticket_number)).toEqual([numbers.done, numbers.old]);
    expect((await send(t(), ticketView, ram, { network_ticket_number: numbers.done })).code).toBe(CODE.ok);
    expect(await send(t(), ticketView, ram, { network_ticket_number: numbers.doing })).toMatchObject({ code: CODE.forbidden, msg: M.deniedNetwork });
  });

  it('answers 204 for an unknown order or another tenant’s', async () => {
    const stranger = await newAccount(t());
    expect(await send(t(), ticketView, main.token, { network_ticket_number: 'TNOSUCH' })).toMatchObject({ code: CODE.notFound, msg: M.ticketNotFound });
    expect(await send(t(), ticketView, stranger.token, { network_ticket_number: numbers.done })).toMatchObject({ code: CODE.notFound, msg: M.ticketNotFound });
    expect((await list(stranger.token)).rows).toEqual([]);
  });
});

describeEachDatabase('network work orders: delete and cancel', (t) => {
  /** A tenant with one order in each status: pending (1), in progress (2), completed (3), cancelled (4). */
  async function orderOfEachStatus() {
    const { main, net } = await tenantWith(t());
    const numbers: string[] = [];
    for (const status of [1, 2, 3, 4]) numbers.push(await seedTicket(t(), main.account.id, net.network_number, { status }));
    const [pending, doing, done, cancelled] = numbers as [string, string, string, string];
    return { main, pending, doing, done, cancelled };
  }

  it('deletes pending and cancelled orders only', async () => {
    const { main, pending, doing, done, cancelled } = await orderOfEachStatus();
    for (const n of [doing, done]) await refused(t(), main.token, deleteTicket, { network_ticket_number: n }, CODE.invalid, M.ticketDeleteRefused);
    for (const n of [pending, cancelled]) {
      expect(await send(t(), deleteTicket, main.token, { network_ticket_number: n })).toMatchObject({ code: CODE.ok, msg: M.deleted });
      expect(await statusOf(t(), n)).toBeUndefined();
    }
    await refused(t(), main.token, deleteTicket, { network_ticket_number: pending }, CODE.notFound, M.ticketNotFound);
  });

  it('cancels orders in progress and completed only', async () => {
    const { main, pending, doing, done, cancelled } = await orderOfEachStatus();
    for (const n of [pending, cancelled]) await refused(t(), main.token, cancelTicket, { network_ticket_number: n }, CODE.invalid, M.ticketCancelRefused);
    for (const n of [doing, done]) {
      expect(await send(t(), cancelTicket, main.token, { network_ticket_number: n })).toMatchObject({ code: CODE.ok, msg: M.cancelled });
      expect(await statusOf(t(), n)).toBe(4);
    }
  });

  it('needs the edit right and the order’s network in the role’s list; another tenant’s order is not found', async () => {
    const { main, net, other } = await tenantWith(t());
    const stranger = await newAccount(t());
    const pending = await seedTicket(t(), main.account.id, net.network_number, { status: 1 });
    const doing = await seedTicket(t(), main.account.id, net.network_number, { status: 2 });
    const noEdit = await ramToken(t(), main.account.id, limitedTo([], 0));
    const elsewhere = await ramToken(t(), main.account.id, limitedTo([other.network_number]));
    for (const [e, n] of [
      [deleteTicket, pending],
      [cancelTicket, doing],
    ] as const) {
      await refused(t(), stranger.token, e, { network_ticket_number: n }, CODE.notFound, M.ticketNotFound);
      await refused(t(), noEdit, e, { network_ticket_number: n }, CODE.forbidden, M.deniedPermission);
      await refused(t(), elsewhere, e, { network_ticket_number: n }, CODE.forbidden, M.deniedNetwork);
    }
  });
});

describeEachDatabase('network work orders: the operator’s transitions', (t) => {
  const completions = async (tenantId: number) => {
    await t().ctx.events.settle();
    const rows = await t().db.selectFrom('event').select('payload').where('tenant_id', '=', tenantId).where('type', '=', 'network_ticket.completed').orderBy('id').execute();
    return rows.map((r) => JSON.parse(r.payload) as Record<string, unknown>);
  };

  it('starts, completes (with complete_time and network_ticket.completed carrying the attributes) and cancels', async () => {
    const { main, m, net } = await tenantWith(t());
    const number = await created(t(), main.token, order(net.network_number, { pop_conf: { east: [m[2]] } }));
    await startTicket(t().ctx, number);
    expect(await statusOf(t(), number)).toBe(2);
    expect(await completions(main.account.id)).toEqual([]);
    await completeTicket(t().ctx, number);
    const row = (await ticketRows(t())).find((r) => r.network_ticket_number === number)!;
    expect(row.network_ticket_status).toBe(3);
    expect(Number(row.complete_time)).toBeGreaterThan(0);
    expect(await completions(main.account.id)).toEqual([
      {
        tenant_id: main.account.id,
        ticket_id: row.id,
        network_number: net.network_number,
        network_ticket_type: 1001,
        attributes: { bandwidth: 1, pop: ['south', 'east'], expired_time: 1, pop_conf: { south: [], east: [m[2]] } },
      },
    ]);
    const view = await send(t(), ticketView, main.token, { network_ticket_number: number });
    expect((view.data as { complete_time: string }).complete_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await operatorCancel(t().ctx, number);
    expect(await statusOf(t(), number)).toBe(4);
  });

  it('refuses every other move and an unknown order, changing nothing', async () => {
    const { main, net } = await tenantWith(t());
    const pending = await seedTicket(t(), main.account.id, net.network_number, { status: 1 });
    const doing = await seedTicket(t(), main.account.id, net.network_number, { status: 2 });
    const cancelled = await seedTicket(t(), main.account.id, net.network_number, { status: 4 });
    const before = await ticketRows(t());
    for (const [move, n] of [
      [completeTicket, pending],
      [startTicket, doing],
      [startTicket, cancelled],
      [completeTicket, cancelled],
      [operatorCancel, cancelled],
    ] as const) {
      await expect(move(t().ctx, n)).rejects.toMatchObject({ code: CODE.invalid, message: M.ticketTransitionRefused });
    }
    await expect(startTicket(t().ctx, 'TNOSUCH')).rejects.toMatchObject({ code: CODE.notFound, message: M.ticketNotFound });
    expect(await ticketRows(t())).toEqual(before);
    expect(await completions(main.account.id)).toEqual([]);
  });
});
