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

  it('sends a receiving point the default route only from a center that advertises it', () => {
    const members: MemberSketch[] = [
      { router_name: 'c1', member_type: 'center', default_route: 1, metric: 60 },
      { router_name: 'c2', member_type: 'center' },
      { router_name: 'p1', member_type: 'point', default_route: 2 },
      { router_name: 'p2', member_type: 'point', default_route: 1, metric: 30 },
    ];
    const out = compileNetwork(networkOf({ network_number: 'N1', members }));
    expect(centerOf(out, 'c1').openvpn['ccd-router/p1']).toContain('push "redirect-gateway def1"');
    expect(centerOf(out, 'c2').openvpn['ccd-router/p1']).not.toContain('redirect-gateway');
    expect(centerOf(out, 'c1').openvpn['ccd-router/p2']).not.toContain('redirect-gateway');
    expect((centerOf(out, 'p1').json as PointConfig).default_route).toEqual({ mode: 'receive', metric: null, from: [{ router_name: 'p2', metric: 30 }, { router_name: 'c1', metric: 60 }] });
  });

  it('leaves the twin-center link off without two centers', () => {
    const out = compileNetwork(
      networkOf({ network_number: 'N1', members: [{ router_name: 'c1', member_type: 'center' }], center_link: { gateway: null, center_router_name: 'c1', endpoint: null } }),
    );
    const c1 = centerOf(out, 'c1');
    expect((c1.json as CenterConfig).center_link).toBeNull();
    expect(c1.openvpn['center-link.conf']).toBeUndefined();
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
    const tunnels = (name: string) => (centerOf(out, name).json as PointConfig).tunnels.map((t) => [t.name, t.centers.map((c) => c.router_name)]);
    // One linked center is a plain tunnel; several keep the main-backup order; a stale list means every center.
    expect(tunnels('p1')).toEqual([['center-c2', ['c2']]]);
    expect(tunnels('p2')).toEqual([['hub', ['c1', 'c3']]]);
    expect(tunnels('p3')).toEqual([['hub', ['c1', 'c2', 'c3']]]);
    const clients = (name: string) => (centerOf(out, name).json as CenterConfig).services[0]!.clients.map((c) => c.router_name);
    expect(clients('c1')).toEqual(['p2', 'p3']);
    expect(clients('c2')).toEqual(['p1', 'p3']);
    expect(clients('c3')).toEqual(['p2', 'p3']);
    expect((centerOf(out, 'c1').json as CenterConfig).push_routes).toEqual(['10.0.1.0/24', '10.0.2.0/24']);
    expect(centerOf(out, 'c1').openvpn['ccd-router/p1']).toBeUndefined();
    expect(centerOf(out, 'c1').openvpn['router.conf']).not.toContain('10.0.0.0');
    expect(centerOf(out, 'c2').openvpn['router.conf']).toContain('route 10.0.0.0 255.255.255.0');
  });

  it('gives a dual-primary point one tunnel per linked center', () => {
    const members: MemberSketch[] = [
      { router_name: 'c1', member_type: 'center' },
      { router_name: 'c2', member_type: 'center' },
      { router_name: 'p1', member_type: 'point', link_centers: ['c2'] },
    ];
    const p1 = centerOf(compileNetwork(networkOf({ network_number: 'N1', members })), 'p1').json as PointConfig;
    expect(p1.tunnels.map((t) => [t.name, t.route_metric])).toEqual([['center-c2', 100]]);
  });
});
