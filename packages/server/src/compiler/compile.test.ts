import { describe, expect, it } from 'vitest';
import { compileNetwork } from './compile';
import { networkOf, type MemberSketch } from './fixtures';
import type { CenterConfig, PointConfig } from './model';

/** What the golden files do not show: the plan's limits and the choices that depend on other members. */
const centerOf = (out: ReturnType<typeof compileNetwork>, name: string) => out.members.find((m) => m.router_name === name)!;
const points = (n: number, over: Partial<MemberSketch> = {}): MemberSketch[] => Array.from({ length: n }, (_, i) => ({ router_name: `p${i}`, member_type: 'point', ...over }));

describe('compileNetwork', () => {
  it('refuses the points a full user segment cannot hold, and says so', () => {
    const out = compileNetwork(
      networkOf({ network_number: 'N1', members: [{ router_name: 'c', member_type: 'center', gateway: { router: { network: '10.9.9.0', mask: 24 }, software: null } }, ...points(260)] }),
    );
    const c = centerOf(out, 'c');
    const json = c.json as CenterConfig;
    const refused = json.services[0]!.clients.filter((x) => x.address === null);
    expect(refused).toHaveLength(260 - 253);
    expect(json.warnings).toHaveLength(7);
    expect(c.openvpn[`ccd-router/${refused[0]!.router_name}`]).toBe('disable\n');
    const addresses = json.services[0]!.clients.map((x) => x.address).filter(Boolean);
    expect(new Set(addresses).size).toBe(253);
  });

  it('replaces a user segment that overlaps another and says so', () => {
    const out = compileNetwork(
      networkOf({
        network_number: 'N1',
        members: [
          { router_name: 'a', member_type: 'center', gateway: { router: { network: '10.1.0.0', mask: 16 }, software: null } },
          { router_name: 'b', member_type: 'center', gateway: { router: { network: '10.1.2.0', mask: 24 }, software: null } },
        ],
      }),
    );
    const b = centerOf(out, 'b').json as CenterConfig;
    // a's software subnet took 100.64.0.0/20 first.
    expect(b.services[0]!.subnet).toBe('100.64.16.0/20');
    expect(b.warnings).toEqual(['b router 10.1.2.0/24 overlaps another segment of the network; allocated another']);
  });

  it('gives a receiving point a default route through each center, priced by the best advertiser reached there', () => {
    const members: MemberSketch[] = [
      { router_name: 'c1', member_type: 'center', default_route: 1, metric: 60 },
      { router_name: 'c2', member_type: 'center' },
      { router_name: 'p1', member_type: 'point', default_route: 2 },
      { router_name: 'p2', member_type: 'point', default_route: 1, metric: 30 },
    ];
    const out = compileNetwork(networkOf({ network_number: 'N1', members }));
    const p1 = centerOf(out, 'p1').json as PointConfig;
    expect(p1.default_route).toEqual({ mode: 'receive', metric: null, from: [{ router_name: 'p2', metric: 30 }, { router_name: 'c1', metric: 60 }] });
    // c1 advertises and exits itself (610); through c2, p2 (metric 30) at 300 + tunnel + client hop wins.
    expect(p1.routes.find((g) => g.prefixes.includes('0.0.0.0/0'))!.via.map((v) => [v.via, v.cost])).toEqual([
      ['center-c2', 320],
      ['center-c1', 610],
    ]);
    // The only advertising point on a center takes the whole default route in its client file there.
    expect(centerOf(out, 'c1').openvpn['ccd-router/p2']).toContain('iroute 0.0.0.0 0.0.0.0');
    expect(centerOf(out, 'c1').openvpn['ccd-router/p1']).not.toContain('iroute');
    expect((centerOf(out, 'c1').json as CenterConfig).transit.map((v) => [v.via, v.client, v.cost])).toEqual([['local', null, 600]]);
    expect((centerOf(out, 'c2').json as CenterConfig).transit.map((v) => [v.via, v.client])).toEqual([['router', 'p2']]);
    expect(centerOf(out, 'c1').json.nat).toBe(true);
    expect(centerOf(out, 'p2').json.nat).toBe(true);
    expect(centerOf(out, 'p1').json.nat).toBe(false);
  });

  it('splits the default route among advertising points of one center, the best taking the most specific share', () => {
    const members: MemberSketch[] = [
      { router_name: 'c1', member_type: 'center' },
      { router_name: 'a1', member_type: 'point', default_route: 1, metric: 90 },
      { router_name: 'a2', member_type: 'point', default_route: 1, metric: 30 },
      { router_name: 'a3', member_type: 'point', default_route: 1, metric: 60 },
    ];
    const c1 = centerOf(compileNetwork(networkOf({ network_number: 'N1', members })), 'c1');
    const iroutes = (name: string) => c1.openvpn[`ccd-router/${name}`]!.split('\n').filter((l) => l.startsWith('iroute'));
    expect(iroutes('a2')).toHaveLength(4);
    expect(iroutes('a2')[3]).toBe('iroute 192.0.0.0 192.0.0.0');
    expect(iroutes('a3')).toEqual(['iroute 0.0.0.0 128.0.0.0', 'iroute 128.0.0.0 128.0.0.0']);
    expect(iroutes('a1')).toEqual(['iroute 0.0.0.0 0.0.0.0']);
  });

  it('never allocates a VPN subnet over a member\'s LAN, even when the pools leave only that room', () => {
    const prefixes = [{ router_name: 'p', ip: '100.64.0.0', mask: 20, permission: 'permit' as const, ge: null, le: null }];
    const out = compileNetwork(networkOf({ network_number: 'N1', members: [{ router_name: 'c', member_type: 'center' }, { router_name: 'p', member_type: 'point' }], prefixes }));
    const subnets = (centerOf(out, 'c').json as CenterConfig).services.map((s) => s.subnet);
    expect(subnets).toEqual(['100.64.16.0/20', '100.64.32.0/20']);
  });

  it('leaves the twin-center link off without two centers', () => {
    const out = compileNetwork(
      networkOf({ network_number: 'N1', members: [{ router_name: 'c1', member_type: 'center' }], center_link: { gateway: null, center_router_name: 'c1', endpoint: null } }),
    );
    const c1 = centerOf(out, 'c1');
    expect((c1.json as CenterConfig).links).toEqual([]);
    expect(Object.keys(c1.openvpn).filter((f) => f.startsWith('link-'))).toEqual([]);
    expect((c1.json as CenterConfig).warnings).toEqual(['center link needs two centers, its server one of them; left off']);
  });

  it('connects a point only to the centers it links to, and those centers carry only their points', () => {
    const members: MemberSketch[] = [
      { router_name: 'c1', member_type: 'center', routing: 1 },
      { router_name: 'c2', member_type: 'center', routing: 2 },
      { router_name: 'c3', member_type: 'center', routing: 2 },
      { router_name: 'p1', member_type: 'point', link_centers: ['c2'] },
      { router_name: 'p2', member_type: 'point', link_centers: ['c3', 'c1'] },
      { router_name: 'p3', member_type: 'point', link_centers: ['gone'] },
    ];
    const prefixes = ['p1', 'p2', 'p3'].map((router_name, i) => ({ router_name, ip: `10.0.${i}.0`, mask: 24, permission: 'permit' as const, ge: null, le: null }));
    const out = compileNetwork(networkOf({ network_number: 'N1', routing_type: 2, members, prefixes }));
    const tunnels = (name: string) => (centerOf(out, name).json as PointConfig).tunnels.map((t) => [t.name, t.rank]);
    // One tunnel per linked center, main line first; a stale list means every center.
    expect(tunnels('p1')).toEqual([['center-c2', 1]]);
    expect(tunnels('p2')).toEqual([
      ['center-c1', 0],
      ['center-c3', 2],
    ]);
    expect(tunnels('p3').map(([n]) => n)).toEqual(['center-c1', 'center-c2', 'center-c3']);
    const clients = (name: string) => (centerOf(out, name).json as CenterConfig).services[0]!.clients.map((c) => c.router_name);
    expect(clients('c1')).toEqual(['p2', 'p3']);
    expect(clients('c2')).toEqual(['p1', 'p3']);
    expect(clients('c3')).toEqual(['p2', 'p3']);
    // c1 routes only its own points' LANs, each while that point is connected.
    expect((centerOf(out, 'c1').json as CenterConfig).routes.map((g) => [g.prefixes, g.via.map((v) => v.client)])).toEqual([
      [['10.0.1.0/24'], ['p2']],
      [['10.0.2.0/24'], ['p3']],
    ]);
    expect(centerOf(out, 'c1').openvpn['ccd-router/p1']).toBeUndefined();
    // No route lines: the agent installs routes.
    expect(centerOf(out, 'c2').openvpn['router.conf']).not.toMatch(/^route /m);
    // p1 reaches p2's LAN only through c2, which does not carry p2 and has no link: no route.
    expect((centerOf(out, 'p1').json as PointConfig).routes.some((g) => g.prefixes.includes('10.0.1.0/24'))).toBe(false);
  });

  it('links every pair of centers with the interconnect, addressed from its segment, the earlier center serving', () => {
    const members: MemberSketch[] = ['a', 'b', 'c'].map((n, i) => ({ router_name: n, member_type: 'center', public_host: `198.51.100.${i + 1}` }));
    const out = compileNetwork(networkOf({ network_number: 'N1', members, interconnect: { segment: { network: '10.99.0.0', mask: 24 } } }));
    const links = (name: string) => (centerOf(out, name).json as CenterConfig).links.map((l) => [l.name, l.role, l.address, l.peer_address, l.port, l.remote?.host ?? null]);
    expect(links('a')).toEqual([
      ['mesh-b', 'server', '10.99.0.1', '10.99.0.2', 1200, null],
      ['mesh-c', 'server', '10.99.0.5', '10.99.0.6', 1201, null],
    ]);
    expect(links('c')).toEqual([
      ['mesh-a', 'client', '10.99.0.6', '10.99.0.5', 1201, '198.51.100.1'],
      ['mesh-b', 'client', '10.99.0.10', '10.99.0.9', 1202, '198.51.100.2'],
    ]);
    expect(centerOf(out, 'c').openvpn['mesh-a.conf']).toContain('verify-x509-name a name');
    expect(centerOf(out, 'a').openvpn['mesh-c.conf']).toContain('remote-cert-tls client');
  });

  it('prefers the twin-center link over the interconnect between the same two centers', () => {
    const members: MemberSketch[] = [
      { router_name: 'a', member_type: 'center' },
      { router_name: 'b', member_type: 'center' },
    ];
    const prefixes = [{ router_name: 'b', ip: '10.2.0.0', mask: 16, permission: 'permit' as const, ge: null, le: null }];
    const out = compileNetwork(networkOf({ network_number: 'N1', members, prefixes, interconnect: { segment: null }, center_link: { gateway: null, center_router_name: 'a', endpoint: null } }));
    const a = centerOf(out, 'a').json as CenterConfig;
    expect(a.links.map((l) => l.name)).toEqual(['link-b', 'mesh-b']);
    expect(a.routes.find((g) => g.prefixes.includes('10.2.0.0/16'))!.via.map((v) => [v.via, v.cost])).toEqual([
      ['link-b', 10],
      ['mesh-b', 11],
    ]);
  });

  it('blocks a deny row inside its owner\'s permit everywhere but at the owner, unless another member permits it', () => {
    const members: MemberSketch[] = [
      { router_name: 'c', member_type: 'center' },
      { router_name: 'p1', member_type: 'point' },
      { router_name: 'p2', member_type: 'point' },
    ];
    const row = (router_name: string, ip: string, mask: number, permission: 'permit' | 'deny') => ({ router_name, ip, mask, permission, ge: null, le: null });
    const prefixes = [row('p1', '10.50.0.0', 16, 'permit'), row('p1', '10.50.99.0', 24, 'deny'), row('p1', '10.60.0.0', 24, 'deny'), row('p1', '10.50.7.0', 24, 'deny'), row('p2', '10.50.7.0', 24, 'permit')];
    const out = compileNetwork(networkOf({ network_number: 'N1', members, prefixes }));
    expect(centerOf(out, 'c').json.blocked).toEqual(['10.50.99.0/24']);
    expect(centerOf(out, 'p2').json.blocked).toEqual(['10.50.99.0/24']);
    expect(centerOf(out, 'p1').json.blocked).toEqual([]);
  });

  it('gives dynamic routing to members with it on and to every center, each center accepting a point only through its prefix list', () => {
    const members: MemberSketch[] = [
      { router_name: 'c', member_type: 'center', public_host: '198.51.100.1' },
      { router_name: 'p1', member_type: 'point', quagga: 1 },
      { router_name: 'p2', member_type: 'point' },
    ];
    const prefixes = [{ router_name: 'p1', ip: '10.50.0.0', mask: 16, permission: 'permit' as const, ge: 24, le: 24 }];
    const out = compileNetwork(networkOf({ network_number: 'N1', members, prefixes }));
    const p1 = centerOf(out, 'p1').json as PointConfig;
    const c = centerOf(out, 'c').json as CenterConfig;
    expect(p1.dynamic).toMatchObject({ asn: 64512, ospf_networks: ['10.50.0.0/16'], neighbors: [{ name: 'c', address: c.services[0]!.address, via: 'center-c', kind: 'center', accept: null }] });
    expect(p1.dynamic!.router_id).toBe(p1.tunnels[0]!.address);
    expect(c.dynamic).toMatchObject({ announce: null, ospf_networks: [], neighbors: [{ name: 'p1', address: p1.tunnels[0]!.address, via: 'router', kind: 'point', accept: [{ prefix: '10.50.0.0/16', ge: 24, le: 24 }] }] });
    expect(centerOf(out, 'p2').json.dynamic).toBeNull();
    // The permit row stays a static route everywhere (BGP adds what p1 learns inside it).
    expect(c.routes.some((g) => g.prefixes.includes('10.50.0.0/16'))).toBe(true);
    expect((centerOf(out, 'p2').json as PointConfig).routes.some((g) => g.prefixes.includes('10.50.0.0/16'))).toBe(true);
    // The center's OpenVPN still delivers p1's whole permit row to it.
    expect(centerOf(out, 'c').openvpn['ccd-router/p1']).toContain('iroute 10.50.0.0 255.255.0.0');
  });

  it('balances a dual-primary network and ranks the centers of a main-backup one', () => {
    const members: MemberSketch[] = [
      { router_name: 'c1', member_type: 'center', routing: 2 },
      { router_name: 'c2', member_type: 'center', routing: 1 },
      { router_name: 'p1', member_type: 'point' },
    ];
    const dual = centerOf(compileNetwork(networkOf({ network_number: 'N1', routing_type: 1, members })), 'p1').json as PointConfig;
    expect(dual.balance).toBe(true);
    const mainBackup = centerOf(compileNetwork(networkOf({ network_number: 'N1', routing_type: 2, members })), 'p1').json as PointConfig;
    expect(mainBackup.balance).toBe(false);
    expect(mainBackup.tunnels.map((t) => [t.center, t.rank])).toEqual([
      ['c2', 0],
      ['c1', 1],
    ]);
  });
});
