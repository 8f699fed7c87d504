import { addNetworkMember, deleteNetwork, deleteRouter, noteRouter, removeNetworkMember, renameNetwork, routerPassword, updateRouterStatus } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { createNetworkThroughApi } from '../../../test/networks';
import { addMember } from './fixtures';

/** The member and network events of a tenant since `after`, as type and payload (what subscribers derive from them, such as config versions, left out). */
async function eventsOf(t: TestApp, tenantId: number, after = 0) {
  const rows = await t.db
    .selectFrom('event')
    .select(['id', 'type', 'payload'])
    .where('tenant_id', '=', tenantId)
    .where('id', '>', after)
    .where((eb) => eb.or([eb('type', 'like', 'member.%'), eb('type', '=', 'network.changed')]))
    .orderBy('id')
    .execute();
  return rows.map((r): Record<string, unknown> => ({ type: r.type, ...(JSON.parse(r.payload) as Record<string, unknown>) }));
}
const lastId = async (t: TestApp) => Number((await t.db.selectFrom('event').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);

describeEachDatabase('member and network changes emit their events', (t) => {
  it('adds, changes and deletes a member, and changes a network, each with its event', async () => {
    const a = await newAccount(t());
    const tenant = a.account.id;
    const one = await addMember(t(), a.token);
    const two = await addMember(t(), a.token);
    const hub = await addMember(t(), a.token, { router_type: 1, password: 'devsecret1' });
    const ids = Object.fromEntries(
      (await t().db.selectFrom('member').select(['id', 'router_name']).where('tenant_id', '=', tenant).execute()).map((m) => [m.router_name, m.id]),
    );
    expect(await eventsOf(t(), tenant)).toEqual([
      { type: 'member.created', tenant_id: tenant, member_id: ids[one], router_type: 2 },
      { type: 'member.created', tenant_id: tenant, member_id: ids[two], router_type: 2 },
      { type: 'member.created', tenant_id: tenant, member_id: ids[hub], router_type: 1 },
    ]);

    let since = await lastId(t());
    expect((await t().call(noteRouter, { token: a.token, body: { router_name: one, note: '财务' } })).code).toBe(200);
    expect((await t().call(routerPassword, { token: a.token, body: { router_name: one, password: 'newpass123' } })).code).toBe(200);
    expect((await t().call(updateRouterStatus, { token: a.token, body: { router_name: one } })).code).toBe(200);
    expect((await eventsOf(t(), tenant, since)).map((e) => [e.type, e.member_id, e.fields])).toEqual([
      ['member.changed', ids[one], ['note']],
      ['member.changed', ids[one], ['password']],
      ['member.changed', ids[one], ['status']],
    ]);

    since = await lastId(t());
    const number = await createNetworkThroughApi(t(), a.token, { center: [hub], point: [one] });
    const net = await t().db.selectFrom('network').select('id').where('network_number', '=', number).executeTakeFirstOrThrow();
    expect((await t().call(addNetworkMember, { token: a.token, body: { network_number: number, router_name: two, member_type: 'point' } })).code).toBe(200);
    expect((await t().call(removeNetworkMember, { token: a.token, body: { network_number: number, router_name: two } })).code).toBe(200);
    expect((await t().call(renameNetwork, { token: a.token, body: { network_number: number, network_name: '新名称' } })).code).toBe(200);
    expect((await t().call(deleteRouter, { token: a.token, body: { router_name: one } })).code).toBe(200);
    expect((await t().call(deleteNetwork, { token: a.token, body: { network_number: number } })).code).toBe(200);
    expect(await eventsOf(t(), tenant, since)).toEqual([
      { type: 'network.changed', tenant_id: tenant, network_id: net.id, change: 'created' },
      { type: 'network.changed', tenant_id: tenant, network_id: net.id, change: 'members' },
      { type: 'network.changed', tenant_id: tenant, network_id: net.id, change: 'members' },
      { type: 'network.changed', tenant_id: tenant, network_id: net.id, change: 'edited' },
      { type: 'member.deleted', tenant_id: tenant, member_id: ids[one], network_ids: [net.id] },
      { type: 'network.changed', tenant_id: tenant, network_id: net.id, change: 'deleted' },
    ]);
  });

  it('writes no event for a refused change', async () => {
    const a = await newAccount(t());
    const since = await lastId(t());
    expect((await t().call(noteRouter, { token: a.token, body: { router_name: 'nosuchmember', note: 'x' } })).code).not.toBe(200);
    expect((await t().call(renameNetwork, { token: a.token, body: { network_number: 'N000000000', network_name: 'x' } })).code).not.toBe(200);
    expect(await eventsOf(t(), a.account.id, since)).toEqual([]);
  });
});
