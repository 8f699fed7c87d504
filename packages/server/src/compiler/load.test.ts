import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';
import { loadNetwork } from './load';

/** loadNetwork: one network of a tenant as the compiler's input, JSON columns read defensively. */
describeEachDatabase('compiler loadNetwork', (t: () => TestApp) => {
  let tenantId: number;
  let otherTenant: number;
  let net: { id: number; network_number: string };
  let c: string;
  let p: string;
  let s: string;

  beforeAll(async () => {
    tenantId = (await newAccount(t())).account.id;
    otherTenant = (await newAccount(t())).account.id;
    [c, p] = (await seedFreshMembers(t(), tenantId, 2)) as [string, string];
    [s] = (await seedFreshMembers(t(), tenantId, 1, { router_type: 2 })) as [string];
    net = await seedNetwork(t(), tenantId, { center: [c], point: [p, s] });
    const now = Date.now();
    const fr = await t()
      .db.insertInto('network_fr')
      .values({ tenant_id: tenantId, name: 'POP', create_time: now, expire_time: now + 1e9 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t()
      .db.insertInto('network_fr_area')
      .values([
        { tenant_id: tenantId, network_fr_id: fr.id, region: 'south', name: '华南', bandwidth: 10, host: 'pop1.example.net', port: 1194 },
        { tenant_id: tenantId, network_fr_id: fr.id, region: 'north', name: '华北', bandwidth: 10, host: '', port: 1195 },
      ])
      .execute();
    await t()
      .db.updateTable('network')
      .set({
        network_fr_id: fr.id,
        routing_type: 2,
        ncp_ciphers: 'sm',
        mode: 3,
        dns: JSON.stringify(['223.5.5.5', 7]),
        ip_pool: JSON.stringify({ center_network: '100.70.0.9/16', center_link_network: '', pop: 'nonsense', pop_software: '100.96.0.0/12' }),
      })
      .where('id', '=', net.id)
      .execute();
    await t().db.updateTable('member').set({ router_ipv4: '198.51.100.7' }).where('router_name', '=', c).execute();
    const centerRow = t().db.updateTable('network_member').where('network_id', '=', net.id).where('member_type', '=', 'center');
    await centerRow
      .set({
        gateway: JSON.stringify({ router: { gateway: '10.8.1.1', mask: 24 }, software: { gateway: 'x', mask: 24 } }),
        fixed_port: JSON.stringify({ router: { public_ip: '203.0.113.1', public_port: 30000, static_port: 11194 }, software: { public_port: 'a' } }),
        default_route: 1,
        metric: 60,
      })
      .execute();
    await t().db.updateTable('network_member').set({ fixed_port: '{broken', ov_main: 1, mode: 2 }).where('network_id', '=', net.id).where('member_type', '=', 'point').execute();
  });

  it('reads the network, its members in joining order and its POP areas', async () => {
    const loaded = await loadNetwork(t().db, tenantId, net.id);
    const areas = await t().db.selectFrom('network_fr_area').select('id').where('tenant_id', '=', tenantId).orderBy('id').execute();
    expect(loaded!.input).toEqual({
      network_number: net.network_number,
      routing_type: 2,
      ncp_ciphers: 'sm',
      mode: 3,
      dns: ['223.5.5.5'],
      prefixes: [],
      members: [
        {
          router_name: c,
          public_host: '198.51.100.7',
          router_type: 1,
          member_type: 'center',
          routing: 1,
          default_route: 1,
          metric: 60,
          quagga: 0,
          mode: 1,
          fixed_port: { router: { public_ip: '203.0.113.1', public_port: 30000, static_port: 11194 }, software: null },
          gateway: { router: { network: '10.8.1.0', mask: 24 }, software: null },
          ov: { main: 0, backup: 0, priority: 3 },
          link_centers: null,
        },
        ...[p, s].map((name, i) => ({
          router_name: name,
          public_host: '',
          router_type: i + 1,
          member_type: 'point',
          routing: 1,
          default_route: 0,
          metric: 30,
          quagga: 0,
          mode: 2,
          fixed_port: { router: null, software: null },
          gateway: { router: null, software: null },
          ov: { main: 1, backup: 0, priority: 3 },
          link_centers: null,
        })),
      ],
      pools: { center_network: { network: '100.70.0.0', mask: 16 }, center_link_network: null, pop: null, pop_software: { network: '100.96.0.0', mask: 12 } },
      center_link: null,
      interconnect: null,
      pop_areas: [
        {
          id: areas[0]!.id,
          name: '华南',
          host: 'pop1.example.net',
          port: 1194,
          relays: [
            { center: c, service: 'router', port: 1194 },
            { center: c, service: 'software', port: 1195 },
          ],
        },
        // No relay address: no ports.
        { id: areas[1]!.id, name: '华北', host: '', port: 1195, relays: [] },
      ],
    });
    expect([...loaded!.memberIds.keys()]).toEqual([c, p, s]);
  });

  it("keeps each center's relay ports, says where they forward, and gives another network's centers the next free ones", async () => {
    const [area] = await t().db.selectFrom('network_fr_area').select(['id', 'network_fr_id']).where('tenant_id', '=', tenantId).orderBy('id').execute();
    await loadNetwork(t().db, tenantId, net.id);
    const rowsOf = (networkId: number) =>
      t().db.selectFrom('pop_relay_port').select(['service', 'port', 'target_host', 'target_port']).where('network_id', '=', networkId).orderBy('port').execute();
    // The router service forwards to the center's fixed public port; the software service to its reported address.
    expect(await rowsOf(net.id)).toEqual([
      { service: 'router', port: 1194, target_host: '203.0.113.1', target_port: 30000 },
      { service: 'software', port: 1195, target_host: '198.51.100.7', target_port: 1195 },
    ]);
    const [c2] = (await seedFreshMembers(t(), tenantId, 1)) as [string];
    const other = await seedNetwork(t(), tenantId, { center: [c2], point: [] });
    await t().db.updateTable('network').set({ network_fr_id: area!.network_fr_id }).where('id', '=', other.id).execute();
    const { input } = (await loadNetwork(t().db, tenantId, other.id))!;
    expect(input.pop_areas[0]!.relays).toEqual([
      { center: c2, service: 'router', port: 1196 },
      { center: c2, service: 'software', port: 1197 },
    ]);
    // Loading again changes nothing; a center that moves keeps its ports with the new target.
    await t().db.updateTable('member').set({ router_ipv4: '198.51.100.8' }).where('router_name', '=', c).execute();
    await loadNetwork(t().db, tenantId, net.id);
    expect((await rowsOf(net.id)).map((r) => [r.port, r.target_host])).toEqual([
      [1194, '203.0.113.1'],
      [1195, '198.51.100.8'],
    ]);
    // The network leaves the resource: its ports go, the other's stay.
    await t().db.updateTable('network').set({ network_fr_id: null }).where('id', '=', other.id).execute();
    await loadNetwork(t().db, tenantId, other.id);
    expect(await rowsOf(other.id)).toEqual([]);
    expect(await rowsOf(net.id)).toHaveLength(2);
    await t().db.updateTable('member').set({ router_ipv4: '198.51.100.7' }).where('router_name', '=', c).execute();
  });

  it('reads the route prefixes in their order and the twin-center link when it is on', async () => {
    await t()
      .db.insertInto('network_prefix')
      .values([
        { tenant_id: tenantId, network_id: net.id, position: 1, ip: '10.30.0.0', mask: 16, name: p, permission: 'deny', ge: 20, le: 24 },
        { tenant_id: tenantId, network_id: net.id, position: 0, ip: '10.20.0.0', mask: 24, name: s, permission: 'permit', ge: null, le: null },
      ])
      .execute();
    const link = { gateway: '10.99.0.0', mask: 30, public_ip: '203.0.113.9', public_port: 31000, static_port: 11196, center_router_name: c };
    await t().db.updateTable('network').set({ center_link_network: JSON.stringify(link) }).where('id', '=', net.id).execute();
    // Stored but off: no link.
    expect((await loadNetwork(t().db, tenantId, net.id))!.input.center_link).toBeNull();
    await t().db.updateTable('network').set({ center_link: 1 }).where('id', '=', net.id).execute();
    const { input } = (await loadNetwork(t().db, tenantId, net.id))!;
    expect(input.prefixes).toEqual([
      { router_name: s, ip: '10.20.0.0', mask: 24, permission: 'permit', ge: null, le: null },
      { router_name: p, ip: '10.30.0.0', mask: 16, permission: 'deny', ge: 20, le: 24 },
    ]);
    expect(input.center_link).toEqual({
      gateway: { network: '10.99.0.0', mask: 30 },
      center_router_name: c,
      endpoint: { public_ip: '203.0.113.9', public_port: 31000, static_port: 11196 },
    });
  });

  it('reads the center interconnect and its segment when it is on', async () => {
    await t().db.updateTable('network').set({ interconnect_network: JSON.stringify({ gateway: '10.98.0.0', mask: 24 }) }).where('id', '=', net.id).execute();
    expect((await loadNetwork(t().db, tenantId, net.id))!.input.interconnect).toBeNull();
    await t().db.updateTable('network').set({ interconnect: 1 }).where('id', '=', net.id).execute();
    expect((await loadNetwork(t().db, tenantId, net.id))!.input.interconnect).toEqual({ segment: { network: '10.98.0.0', mask: 24 } });
    await t().db.updateTable('network').set({ interconnect_network: '' }).where('id', '=', net.id).execute();
    expect((await loadNetwork(t().db, tenantId, net.id))!.input.interconnect).toEqual({ segment: null });
  });

  it("reads a point's linked centers by name, dropping ids that are not its network's centers", async () => {
    const ids = (await loadNetwork(t().db, tenantId, net.id))!.memberIds;
    const linksOfP = async (stored: string | null) => {
      await t().db.updateTable('network_member').set({ link_centers: stored }).where('network_id', '=', net.id).where('member_id', '=', ids.get(p)!).execute();
      return (await loadNetwork(t().db, tenantId, net.id))!.input.members.find((m) => m.router_name === p)!.link_centers;
    };
    expect(await linksOfP(JSON.stringify([999_999, ids.get(c)!, ids.get(s)!]))).toEqual([c]);
    // Nothing left of the list, or no list: every center, so the point is never cut off.
    expect(await linksOfP(JSON.stringify([999_999, ids.get(s)!]))).toBeNull();
    expect(await linksOfP('[]')).toBeNull();
    expect(await linksOfP('{broken')).toBeNull();
    expect(await linksOfP(null)).toBeNull();
  });

  it("reads nothing of another tenant's network", async () => {
    expect(await loadNetwork(t().db, otherTenant, net.id)).toBeNull();
  });
});
