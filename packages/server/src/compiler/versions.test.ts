import type { NetworkChange } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';

/*
 * Member configuration versions through the module's event handlers: settings are written straight
 * into the tables (as the network module would), then network.changed (or member.deleted) is emitted
 * and awaited. Only members whose compiled configuration changed get a new version.
 */

describeEachDatabase('compiler versions', (t: () => TestApp) => {
  let tenantId: number;
  let net: { id: number; network_number: string };
  let c: string[];
  let p: string[];
  let s: string[];
  let ids: Map<string, number>;

  /** Every stored row of the network: version by member name. */
  async function versions(): Promise<Record<string, number>> {
    const rows = await t()
      .db.selectFrom('member_config as mc')
      .innerJoin('member as m', 'm.id', 'mc.member_id')
      .select(['m.router_name', 'mc.version'])
      .where('mc.network_id', '=', net.id)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.router_name, r.version]).sort());
  }

  async function changed(change: NetworkChange = 'settings') {
    await t().ctx.events.emit(t().db, { type: 'network.changed', tenant_id: tenantId, network_id: net.id, change });
    await t().ctx.events.settle();
  }

  const bumped = (before: Record<string, number>, names: string[]) => Object.fromEntries(Object.entries(before).map(([n, v]) => [n, names.includes(n) ? v + 1 : v]));

  const setMember = async (name: string, values: { fixed_port?: string; mode?: number; link_centers?: string | null }) =>
    t().db.updateTable('network_member').set(values).where('network_id', '=', net.id).where('member_id', '=', ids.get(name)!).execute();

  beforeAll(async () => {
    const main = await newAccount(t());
    tenantId = main.account.id;
    c = await seedFreshMembers(t(), tenantId, 2);
    p = await seedFreshMembers(t(), tenantId, 2);
    s = await seedFreshMembers(t(), tenantId, 1, { router_type: 2 });
    net = await seedNetwork(t(), tenantId, { center: c, point: [...p, ...s] });
    const rows = await t().db.selectFrom('member').select(['id', 'router_name']).where('tenant_id', '=', tenantId).execute();
    ids = new Map(rows.map((r) => [r.router_name, r.id]));
  });

  it('compiles every member at version 1 when the network changes', async () => {
    await changed('created');
    expect(await versions()).toEqual(Object.fromEntries([...c, ...p, ...s].map((n) => [n, 1]).sort()));
    const row = await t().db.selectFrom('member_config').selectAll().where('member_id', '=', ids.get(c[0]!)!).where('network_id', '=', net.id).executeTakeFirstOrThrow();
    expect(row.tenant_id).toBe(tenantId);
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(JSON.parse(row.openvpn) as object)).toContain('router.conf');
    expect((JSON.parse(row.config) as { member_type: string }).member_type).toBe('center');
  });

  it('touches no member when the network is renamed', async () => {
    const before = await versions();
    const times = await t().db.selectFrom('member_config').select(['id', 'update_time', 'hash']).where('network_id', '=', net.id).orderBy('id').execute();
    await t().db.updateTable('network').set({ network_name: '改名后的网络' }).where('id', '=', net.id).execute();
    await changed('edited');
    expect(await versions()).toEqual(before);
    expect(await t().db.selectFrom('member_config').select(['id', 'update_time', 'hash']).where('network_id', '=', net.id).orderBy('id').execute()).toEqual(times);
  });

  it('touches every member when the DNS changes', async () => {
    const before = await versions();
    await t().db.updateTable('network').set({ dns: JSON.stringify(['223.5.5.5']) }).where('id', '=', net.id).execute();
    await changed();
    expect(await versions()).toEqual(bumped(before, [...c, ...p, ...s]));
  });

  it("touches a point and its centers when the point's fixed port changes", async () => {
    const before = await versions();
    await setMember(p[0]!, { fixed_port: JSON.stringify({ router: { public_ip: '', public_port: 40000, static_port: 40000 }, software: null }) });
    await changed();
    expect(await versions()).toEqual(bumped(before, [p[0]!, ...c]));
  });

  it("touches a point and its centers when the point's dial mode changes", async () => {
    const before = await versions();
    await setMember(p[1]!, { mode: 3 });
    await changed();
    expect(await versions()).toEqual(bumped(before, [p[1]!, ...c]));
  });

  it("touches a center and the points of that service when its fixed port changes, not the other center", async () => {
    const before = await versions();
    await setMember(c[0]!, { fixed_port: JSON.stringify({ router: { public_ip: '203.0.113.5', public_port: 30000, static_port: 11194 }, software: null }) });
    await changed();
    // The hardware service's port: software clients dial the other one.
    expect(await versions()).toEqual(bumped(before, [c[0]!, ...p]));
  });

  it("touches a point and the center it left or joined when the point's links change, not the other center", async () => {
    const before = await versions();
    await setMember(p[0]!, { link_centers: JSON.stringify([ids.get(c[1]!)!]) });
    await changed();
    const left = bumped(before, [p[0]!, c[0]!]);
    expect(await versions()).toEqual(left);
    await setMember(p[0]!, { link_centers: null });
    await changed();
    expect(await versions()).toEqual(bumped(left, [p[0]!, c[0]!]));
  });

  it('changes nothing when nothing changed', async () => {
    const before = await versions();
    await changed();
    expect(await versions()).toEqual(before);
  });

  it('drops the row of a member who left and of a deleted member', async () => {
    const before = await versions();
    await t().db.deleteFrom('network_member').where('network_id', '=', net.id).where('member_id', '=', ids.get(p[1]!)!).execute();
    await changed('members');
    const { [p[1]!]: _left, ...rest } = before;
    expect(await versions()).toEqual(bumped(rest, c));

    await t().db.deleteFrom('member').where('id', '=', ids.get(s[0]!)!).execute();
    await t().ctx.events.emit(t().db, { type: 'member.deleted', tenant_id: tenantId, member_id: ids.get(s[0]!)!, network_ids: [net.id] });
    await t().ctx.events.settle();
    const { [s[0]!]: _deleted, ...left } = bumped(rest, c);
    expect(await versions()).toEqual(bumped(left, c));
  });

  it('keeps no rows of a deleted network', async () => {
    await t().db.deleteFrom('network').where('id', '=', net.id).execute();
    await changed('deleted');
    expect(await t().db.selectFrom('member_config').select('id').where('network_id', '=', net.id).execute()).toEqual([]);
  });
});
