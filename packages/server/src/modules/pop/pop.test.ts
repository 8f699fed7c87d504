import { CODE, frConfig, frOv, listFr, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../../test/networks';
import { completeOrder, frOfTicket } from '../../../test/pop';

type Main = Awaited<ReturnType<typeof newAccount>>;
const YEAR_MS = 365 * 86_400_000;

const areasOf = (t: TestApp, frId: number) =>
  t.db.selectFrom('network_fr_area').select(['region', 'name', 'bandwidth', 'routers', 'tenant_id']).where('network_fr_id', '=', frId).orderBy('id').execute();

describeEachDatabase('pop: resources from completed access-POP orders', (t) => {
  let main: Main;
  let net: { id: number; network_number: string };
  let members: string[];

  beforeAll(async () => {
    main = await newAccount(t());
    members = await seedFreshMembers(t(), main.account.id, 2);
    net = await seedNetwork(t(), main.account.id, { center: [members[0]!], point: [members[1]!] });
  });

  it('makes one resource with an area per region, valid for the order’s years, even when the event comes twice', async () => {
    const before = Date.now();
    const ticket = await completeOrder(t(), main.account.id, net.network_number, {
      bandwidth: '50',
      pop: ['south', 'east', 'east'],
      expired_time: 2,
      pop_conf: { south: [members[0]!], east: [members[1]!, members[1]!] },
    });
    const fr = await frOfTicket(t(), ticket);
    expect(fr).toMatchObject({ tenant_id: main.account.id, name: '华南·华东 50M', status: 1 });
    expect(fr.create_time).toBeGreaterThanOrEqual(before - 1000);
    expect(fr.expire_time - fr.create_time).toBeGreaterThanOrEqual(2 * YEAR_MS);
    expect(fr.expire_time - fr.create_time).toBeLessThanOrEqual(2 * YEAR_MS + 86_400_000);
    expect(await areasOf(t(), fr.id)).toEqual([
      { region: 'south', name: '华南', bandwidth: 50, routers: JSON.stringify([members[0]]), tenant_id: main.account.id },
      { region: 'east', name: '华东', bandwidth: 50, routers: JSON.stringify([members[1]]), tenant_id: main.account.id },
    ]);

    await completeOrder(t(), main.account.id, net.network_number, { pop: ['intl'] }, { ticketId: ticket });
    const made = await t().db.selectFrom('network_fr').select('id').where('ticket_id', '=', ticket).execute();
    expect(made).toHaveLength(1);
    expect(await areasOf(t(), fr.id)).toHaveLength(2);
    const created = await t().db.selectFrom('event').select('payload').where('type', '=', 'pop.created').where('tenant_id', '=', main.account.id).execute();
    expect(created.map((e) => JSON.parse(e.payload) as { network_fr_id: number }).filter((p) => p.network_fr_id === fr.id)).toHaveLength(1);
  });

  it('ignores other order types and orders whose attributes describe no order', async () => {
    const count = async () => (await t().db.selectFrom('network_fr').select('id').where('tenant_id', '=', main.account.id).execute()).length;
    const n = await count();
    await completeOrder(t(), main.account.id, net.network_number, {}, { type: 1002 });
    await completeOrder(t(), main.account.id, net.network_number, { pop: ['mars'] });
    await completeOrder(t(), main.account.id, net.network_number, { bandwidth: 'fast' });
    await completeOrder(t(), main.account.id, net.network_number, { pop: [] });
    expect(await count()).toBe(n);
    const dead = await t().db.selectFrom('event_delivery').select('state').where('state', '=', 'dead').execute();
    expect(dead).toEqual([]);
  });
});

describeEachDatabase('pop: network_fr/lists, config and ov', (t) => {
  let main: Main;
  let net: { id: number; network_number: string };
  let other: { id: number; network_number: string };
  let first: number;
  let second: number;

  beforeAll(async () => {
    main = await newAccount(t());
    const m = await seedFreshMembers(t(), main.account.id, 2);
    net = await seedNetwork(t(), main.account.id, { center: [m[0]!], name: '总部网络' });
    other = await seedNetwork(t(), main.account.id, { center: [m[1]!], name: '分部网络' });
    first = (await frOfTicket(t(), await completeOrder(t(), main.account.id, net.network_number, { pop: ['south', 'north', 'east'], bandwidth: 100 }))).id;
    second = (await frOfTicket(t(), await completeOrder(t(), main.account.id, other.network_number, { pop: ['intl'], bandwidth: 1, expired_time: 3 }))).id;
  });

  it('lists the tenant’s resources newest first, times in seconds, with their networks and areas', async () => {
    const res = await t().call(listFr, { token: main.token, query: { page: 1 } });
    expect(res.code).toBe(200);
    expect(res.count).toBe(2);
    const rows = res.data!;
    expect(rows.map((r) => r.network_fr_id)).toEqual([second, first]);
    const row = rows[1]!;
    expect(row).toMatchObject({
      name: '华南·华北·华东 100M',
      status: 1,
      network: [{ network_name: '总部网络', network_number: net.network_number }],
      area: [
        { name: '华南', bandwidth: 100 },
        { name: '华北', bandwidth: 100 },
        { name: '华东', bandwidth: 100 },
      ],
    });
    expect(Math.abs(row.create_time - Date.now() / 1000)).toBeLessThan(120);
    expect(row.expire_time - row.create_time).toBeGreaterThanOrEqual(365 * 86_400);
    expect([364, 365]).toContain(row.expire_day);
    expect(rows[0]!.expire_day).toBeGreaterThanOrEqual(3 * 365 - 1);
  });

  it('shows expired resources with 0 days left, searches by name and pages by 10', async () => {
    await t().db.updateTable('network_fr').set({ expire_time: Date.now() - 1000 }).where('id', '=', first).execute();
    try {
      const res = await t().call(listFr, { token: main.token, query: { search: '华东' } });
      expect(res.data!.map((r) => [r.network_fr_id, r.expire_day])).toEqual([[first, 0]]);
      expect((await t().call(listFr, { token: main.token, query: { page: 2 } })).data).toEqual([]);
      // config offers only what a network may use: valid and not expired
      expect((await t().call(frConfig, { token: main.token })).data!.map((c) => c.network_fr_id)).toEqual([second]);
    } finally {
      await t().db.updateTable('network_fr').set({ expire_time: Date.now() + 365 * 86_400_000 }).where('id', '=', first).execute();
    }
    await t().db.updateTable('network_fr').set({ status: 2 }).where('id', '=', second).execute();
    try {
      expect((await t().call(frConfig, { token: main.token })).data).toEqual([{ network_fr_id: first, shortname: '华南·华北·华东 100M', expire_day: expect.any(Number) as number, area_count: 3 }]);
    } finally {
      await t().db.updateTable('network_fr').set({ status: 1 }).where('id', '=', second).execute();
    }
  });

  it('answers the areas of a network’s resource, none without one', async () => {
    const res = await t().call(frOv, { token: main.token, query: { network_number: net.network_number } });
    expect(res.data!.map((a) => [a.name, a.region, a.bandwidth])).toEqual([
      ['华南', 'south', 100],
      ['华北', 'north', 100],
      ['华东', 'east', 100],
    ]);
    const bare = await seedNetwork(t(), main.account.id, {});
    expect((await t().call(frOv, { token: main.token, query: { network_number: bare.network_number } })).data).toEqual([]);
  });

  it('shows another tenant nothing of them', async () => {
    const b = await newAccount(t());
    expect(await t().call(listFr, { token: b.token })).toMatchObject({ code: 200, data: [], count: 0 });
    expect((await t().call(frConfig, { token: b.token })).data).toEqual([]);
    expect(await t().call(frOv, { token: b.token, query: { network_number: net.network_number } })).toMatchObject({ code: CODE.notFound, msg: M.networkNotFound });
  });

  it('lets a sub-account read them, and refuses the areas of a network outside its role', async () => {
    const all = await ramToken(t(), main.account.id, FULL_ROLE);
    expect((await t().call(listFr, { token: all })).count).toBe(2);
    const limited = await ramToken(t(), main.account.id, { ...FULL_ROLE, 'easylink.network': { create: 0, edit: 1, delete: 0, network: [other.network_number] } });
    expect(await t().call(frOv, { token: limited, query: { network_number: net.network_number } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedNetwork });
    expect((await t().call(frOv, { token: limited, query: { network_number: other.network_number } })).code).toBe(200);
  });
});
