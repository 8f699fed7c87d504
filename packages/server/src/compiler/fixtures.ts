import type { MemberInput, NetworkInput } from './model';

/*
 * Networks for the compiler's tests and benchmark, written as only what differs from a plain member
 * or network: a hardware point on its default settings, a dual-primary network without pools, POP or link.
 */

export type MemberSketch = Partial<MemberInput> & Pick<MemberInput, 'router_name' | 'member_type'>;
export type NetworkSketch = Partial<Omit<NetworkInput, 'members'>> & { network_number: string; members: MemberSketch[] };

export const memberOf = (m: MemberSketch): MemberInput => ({
  public_host: '',
  router_type: 1,
  routing: 1,
  default_route: 0,
  metric: 30,
  quagga: 0,
  mode: 1,
  fixed_port: { router: null, software: null },
  gateway: { router: null, software: null },
  ov: { main: 0, backup: 0, priority: 3 },
  link_centers: null,
  ...m,
});

export const networkOf = (n: NetworkSketch): NetworkInput => ({
  routing_type: 1,
  ncp_ciphers: 'default',
  mode: 1,
  dns: [],
  prefixes: [],
  pools: { center_network: null, center_link_network: null, pop: null, pop_software: null },
  center_link: null,
  interconnect: null,
  pop_areas: [],
  ...n,
  members: n.members.map(memberOf),
});

/**
 * A network of `size` members: two centers (main-backup), hardware points each with a /24 LAN and a
 * fifth of them software clients, two DNS servers and set pools (the benchmark's network).
 */
export function largeNetwork(size: number): NetworkInput {
  const members: MemberSketch[] = [
    { router_name: 'center1', member_type: 'center', routing: 1, public_host: '198.51.100.1', default_route: 1 },
    { router_name: 'center2', member_type: 'center', routing: 2, public_host: '198.51.100.2' },
  ];
  const prefixes: NetworkInput['prefixes'] = [
    { router_name: 'center1', ip: '10.1.0.0', mask: 16, permission: 'permit', ge: null, le: null },
    { router_name: 'center2', ip: '10.2.0.0', mask: 16, permission: 'permit', ge: null, le: null },
  ];
  for (let i = 0; i < size - 2; i++) {
    const software = i % 5 === 4;
    const name = `${software ? 'app' : 'shop'}${String(i).padStart(4, '0')}`;
    members.push({ router_name: name, member_type: 'point', router_type: software ? 2 : 1, default_route: i % 7 === 0 ? 2 : 0 });
    if (!software) prefixes.push({ router_name: name, ip: `172.${16 + Math.floor(i / 256)}.${i % 256}.0`, mask: 24, permission: 'permit', ge: null, le: null });
  }
  return networkOf({
    network_number: 'N900000001',
    routing_type: 2,
    dns: ['223.5.5.5', '119.29.29.29'],
    prefixes,
    pools: { center_network: { network: '100.64.0.0', mask: 16 }, center_link_network: null, pop: { network: '100.80.0.0', mask: 16 }, pop_software: null },
    members,
  });
}
