import { createTicket, listFr, M, ticketView } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';
import { ops } from '../../test/ops';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** A network of two members and an access-POP order for it made through the console; answers the order's number. */
async function orderOf(t: TestApp, main: Main, body: { pop?: string[]; bandwidth?: number; south?: string[] } = {}) {
  const members = await seedFreshMembers(t, main.account.id, 2);
  const net = await seedNetwork(t, main.account.id, { center: [members[0]!], point: [members[1]!] });
  const res = await t.call(createTicket, {
    token: main.token,
    body: {
      network_number: net.network_number,
      network_ticket_type: 1001,
      ticket: { pop: body.pop ?? ['south', 'east'], expired_time: 1, bandwidth: body.bandwidth ?? 50 },
      pop_conf: { south: body.south ?? [members[0]!] },
    },
  });
  if (res.code !== 200) throw new Error(`create order: ${res.msg}`);
  return { number: res.data!.network_ticket_number, net, members };
}

const tickets = (t: TestApp) => t.db.selectFrom('network_ticket').selectAll().orderBy('id').execute();
const statusSeen = async (t: TestApp, main: Main, number: string) =>
  (await t.call(ticketView, { token: main.token, query: { network_ticket_number: number } })).data?.network_ticket_status;

describeEachDatabase('hublink ops orders', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
  });

  it('list shows every tenant’s orders, pending first then newest; --tenant and --status narrow it', async () => {
    const x = await orderOf(t(), a);
    const y = await orderOf(t(), a);
    expect((await ops(t(), ['orders', 'take', y.number])).code).toBe(0);
    const z = await orderOf(t(), a);
    const other = await orderOf(t(), b);

    const mine = await ops(t(), ['orders', 'list', '--tenant', a.username, '--json']);
    expect(mine.code, mine.err).toBe(0);
    const rows = mine.json<{ number: string; tenant: string; status: number; state: string; network_number: string }[]>();
    expect(rows.map((r) => r.number)).toEqual([z.number, x.number, y.number]);
    expect(rows[0]).toMatchObject({ tenant: a.username, network_number: z.net.network_number, type: '1001 access POP', status: 1, state: 'pending', order: '华南·华东 50M 1y' });
    expect(rows[2]).toMatchObject({ status: 2, state: 'in progress' });

    const all = (await ops(t(), ['orders', 'list', '--json'])).json<{ number: string }[]>().map((r) => r.number);
    expect(all).toEqual(expect.arrayContaining([x.number, y.number, z.number, other.number]));
    const taken = (await ops(t(), ['orders', 'list', '--status', '2', '--json'])).json<{ number: string }[]>().map((r) => r.number);
    expect(taken).toContain(y.number);
    expect(taken).not.toContain(x.number);
    expect((await ops(t(), ['orders', 'list', '--tenant', String(a.account.id), '--limit', '1', '--json'])).json<{ number: string }[]>().map((r) => r.number)).toEqual([z.number]);
    const table = await ops(t(), ['orders', 'list', '--tenant', a.username]);
    expect(table.out.split('\n')[0]).toMatch(/^number\s+tenant\s+network_number\s+type\s+status/);

    const bad = await ops(t(), ['orders', 'list', '--status', '5']);
    expect([bad.code, bad.err.split('\n')[0]]).toEqual([2, '--status: status must be at most 4']);
    const nobody = await ops(t(), ['orders', 'list', '--tenant', 'nobody-here']);
    expect([nobody.code, nobody.err.trim()]).toEqual([1, 'no tenant nobody-here']);
  });

  it('take starts a pending order, which the tenant sees; a second take or an unknown number is refused', async () => {
    const { number } = await orderOf(t(), a);
    const took = await ops(t(), ['orders', 'take', number]);
    expect([took.code, took.out.trim()], took.err).toEqual([0, `order ${number} is in progress`]);
    expect(await statusSeen(t(), a, number)).toBe(2);

    const before = await tickets(t());
    const again = await ops(t(), ['orders', 'take', number]);
    expect([again.code, again.err.trim()]).toEqual([1, M.ticketTransitionRefused]);
    const unknown = await ops(t(), ['orders', 'take', 'T2000010100000000']);
    expect([unknown.code, unknown.err.trim()]).toEqual([1, M.ticketNotFound]);
    const missing = await ops(t(), ['orders', 'take']);
    expect([missing.code, missing.err.split('\n')[0]]).toEqual([2, '<number>: a work order number is required']);
    expect(await tickets(t())).toEqual(before);
  });

  it('complete finishes an order in progress and its POP resource exists when the command returns; a pending order is refused', async () => {
    const { number, net, members } = await orderOf(t(), a, { pop: ['south', 'north'], bandwidth: 100 });
    const pending = await ops(t(), ['orders', 'complete', number]);
    expect([pending.code, pending.err.trim()]).toEqual([1, M.ticketTransitionRefused]);
    expect(await t().db.selectFrom('network_fr').select('id').where('tenant_id', '=', a.account.id).execute()).toHaveLength(0);

    expect((await ops(t(), ['orders', 'take', number])).code).toBe(0);
    const done = await ops(t(), ['orders', 'complete', number]);
    expect([done.code, done.out.trim()], done.err).toEqual([0, `order ${number} completed`]);
    expect(await statusSeen(t(), a, number)).toBe(3);

    const order = await t().db.selectFrom('network_ticket').select('id').where('network_ticket_number', '=', number).executeTakeFirstOrThrow();
    const fr = await t().db.selectFrom('network_fr').selectAll().where('ticket_id', '=', order.id).executeTakeFirstOrThrow();
    expect(fr).toMatchObject({ tenant_id: a.account.id, name: '华南·华北 100M', status: 1 });
    const areas = await t().db.selectFrom('network_fr_area').select(['region', 'bandwidth']).where('network_fr_id', '=', fr.id).orderBy('id').execute();
    expect(areas).toEqual([
      { region: 'south', bandwidth: 100 },
      { region: 'north', bandwidth: 100 },
    ]);
    const listed = await t().call(listFr, { token: a.token, query: { page: 1 } });
    expect(listed.data!.find((r) => r.network_fr_id === fr.id)).toMatchObject({ area: [{ name: '华南', bandwidth: 100 }, { name: '华北', bandwidth: 100 }], network: [{ network_number: net.network_number }] });
    // The network module gave the resource to the order's network and the order's member its area.
    const south = await t().db.selectFrom('network_fr_area').select('id').where('network_fr_id', '=', fr.id).where('region', '=', 'south').executeTakeFirstOrThrow();
    const dials = await t().db.selectFrom('network_member').innerJoin('member', 'member.id', 'network_member.member_id').select(['member.router_name', 'network_member.ov_main']).where('network_member.network_id', '=', net.id).execute();
    expect(dials.find((d) => d.router_name === members[0])?.ov_main).toBe(south.id);
  });

  it('reject cancels a pending order; a cancelled order cannot be rejected again', async () => {
    const { number } = await orderOf(t(), b);
    const rejected = await ops(t(), ['orders', 'reject', number]);
    expect([rejected.code, rejected.out.trim()], rejected.err).toEqual([0, `order ${number} cancelled`]);
    expect(await statusSeen(t(), b, number)).toBe(4);

    const before = await tickets(t());
    const again = await ops(t(), ['orders', 'reject', number]);
    expect([again.code, again.err.trim()]).toEqual([1, M.ticketTransitionRefused]);
    const long = await ops(t(), ['orders', 'reject', 'T'.repeat(40)]);
    expect([long.code, long.err.split('\n')[0]]).toEqual([2, `<number>: ${M.ticketNotFound}`]);
    expect(await tickets(t())).toEqual(before);
  });
});
