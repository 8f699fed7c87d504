import { describe, expect, it } from 'vitest';
import { frrConfig, token } from './config';
import { readDynamic, type DynamicRouting, type NetworkDynamic, type PrefixListEntry } from './section';

/*
 * The FRR configuration of a device, checked line by line. Every golden text below was loaded into FRR
 * 8.4 (`vtysh -C -f` takes it; zebra and bgpd given it show the same lines in their running
 * configuration), and manager.test.ts runs such configurations for real.
 */

const e = (seq: number, action: 'permit' | 'deny', prefix: string, ge: number | null = null, le: number | null = null): PrefixListEntry => ({ seq, action, prefix, ge, le });

function read(raw: unknown): DynamicRouting {
  const r = readDynamic(raw);
  if ('refused' in r) throw new Error(r.refused);
  return r.dynamic;
}

/** A center with two points (each through its prefix list) and a link to a peer center. */
const CENTER = read({
  asn: 64512,
  community: '64512:4242',
  router_id: '100.64.0.1',
  ospf_networks: [],
  announce: null,
  maximum_paths: 2,
  neighbors: [
    { name: 'shop-2', address: '100.64.0.10', via: 'router', kind: 'point', accept: [e(5, 'permit', '10.60.0.0/16', null, 24), e(10, 'deny', '10.60.99.0/24')] },
    { name: 'shop-1', address: '100.64.0.6', via: 'router', kind: 'point', accept: [e(5, 'permit', '10.50.0.0/16', 24, 24)] },
    { name: 'hq-2', address: '100.64.255.2', via: 'link-hq-2', kind: 'center', accept: null },
  ],
});

/** A point of two centers (balanced), with OSPF on its LAN. */
const POINT = read({
  asn: 64512,
  community: '64512:4242',
  router_id: '100.64.0.6',
  ospf_networks: ['10.50.0.0/16'],
  announce: [e(5, 'permit', '10.50.0.0/16', 24, 24)],
  maximum_paths: 2,
  neighbors: [
    { name: 'hq-1', address: '100.64.0.1', via: 'center-hq-1', kind: 'center', accept: null },
    { name: 'hq-2', address: '100.64.1.1', via: 'center-hq-2', kind: 'center', accept: null },
  ],
});

/** The same device as a point of another network, whose center has a name FRR cannot take as it is. */
const OTHER = read({
  asn: 64512,
  community: '64512:777',
  router_id: '100.64.8.6',
  ospf_networks: ['10.50.0.0/16', '192.168.8.0/24'],
  announce: [e(5, 'permit', '10.50.7.0/24'), e(10, 'permit', '192.168.8.0/24')],
  maximum_paths: 1,
  neighbors: [{ name: '总部', address: '100.64.8.1', via: 'center-总部', kind: 'center', accept: null }],
});

const CENTER_TEXT = `! The HubLink agent writes this from the compiled configuration; a change made by hand is undone.
bgp route-map delay-timer 1
!
ip prefix-list HL_NX7K2Q_IN_shop-2 seq 5 permit 10.60.0.0/16 le 24
ip prefix-list HL_NX7K2Q_IN_shop-2 seq 10 deny 10.60.99.0/24
ip prefix-list HL_NX7K2Q_IN_shop-1 seq 5 permit 10.50.0.0/16 ge 24 le 24
!
bgp community-list standard HL_NX7K2Q seq 5 permit 64512:4242
!
route-map HL_NX7K2Q_IN_shop-2 permit 10
 match ip address prefix-list HL_NX7K2Q_IN_shop-2
 set community 64512:4242
exit
!
route-map HL_NX7K2Q_IN_shop-1 permit 10
 match ip address prefix-list HL_NX7K2Q_IN_shop-1
 set community 64512:4242
exit
!
route-map HL_NX7K2Q_IN permit 10
 set community 64512:4242
exit
!
route-map HL_NX7K2Q_OUT permit 10
 match community HL_NX7K2Q
 set community 64512:4242
exit
!
router bgp 64512
 bgp router-id 100.64.0.1
 bgp log-neighbor-changes
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 timers bgp 3 9
 neighbor 100.64.0.6 remote-as 64512
 neighbor 100.64.0.6 description NX7K2Q shop-1
 neighbor 100.64.0.6 timers connect 5
 neighbor 100.64.0.10 remote-as 64512
 neighbor 100.64.0.10 description NX7K2Q shop-2
 neighbor 100.64.0.10 timers connect 5
 neighbor 100.64.255.2 remote-as 64512
 neighbor 100.64.255.2 description NX7K2Q hq-2
 neighbor 100.64.255.2 timers connect 5
 !
 address-family ipv4 unicast
  neighbor 100.64.0.6 activate
  neighbor 100.64.0.6 route-reflector-client
  neighbor 100.64.0.6 next-hop-self force
  neighbor 100.64.0.6 route-map HL_NX7K2Q_IN_shop-1 in
  neighbor 100.64.0.6 route-map HL_NX7K2Q_OUT out
  neighbor 100.64.0.10 activate
  neighbor 100.64.0.10 route-reflector-client
  neighbor 100.64.0.10 next-hop-self force
  neighbor 100.64.0.10 route-map HL_NX7K2Q_IN_shop-2 in
  neighbor 100.64.0.10 route-map HL_NX7K2Q_OUT out
  neighbor 100.64.255.2 activate
  neighbor 100.64.255.2 next-hop-self force
  neighbor 100.64.255.2 route-map HL_NX7K2Q_IN in
  neighbor 100.64.255.2 route-map HL_NX7K2Q_OUT out
  maximum-paths ibgp 2
 exit-address-family
exit
!
`;

const POINT_TEXT = `! The HubLink agent writes this from the compiled configuration; a change made by hand is undone.
bgp route-map delay-timer 1
!
ip prefix-list HL_NX7K2Q_OWN seq 5 permit 10.50.0.0/16 ge 24 le 24
!
bgp community-list standard HL_NX7K2Q seq 5 permit 64512:4242
!
route-map HL_NX7K2Q_IN permit 10
 set community 64512:4242
exit
!
route-map HL_NX7K2Q_OUT permit 10
 match community HL_NX7K2Q
 set community 64512:4242
exit
!
route-map HL_OWN permit 10
 match ip address prefix-list HL_NX7K2Q_OWN
 on-match next
 set community 64512:4242 additive
exit
!
bgp community-list standard HL_OWN seq 5 permit 64512:4242
!
route-map HL_OWN permit 65535
 match community HL_OWN
exit
!
router bgp 64512
 bgp router-id 100.64.0.6
 bgp log-neighbor-changes
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 timers bgp 3 9
 neighbor 100.64.0.1 remote-as 64512
 neighbor 100.64.0.1 description NX7K2Q hq-1
 neighbor 100.64.0.1 timers connect 5
 neighbor 100.64.1.1 remote-as 64512
 neighbor 100.64.1.1 description NX7K2Q hq-2
 neighbor 100.64.1.1 timers connect 5
 !
 address-family ipv4 unicast
  redistribute connected route-map HL_OWN
  redistribute ospf route-map HL_OWN
  neighbor 100.64.0.1 activate
  neighbor 100.64.0.1 next-hop-self force
  neighbor 100.64.0.1 route-map HL_NX7K2Q_IN in
  neighbor 100.64.0.1 route-map HL_NX7K2Q_OUT out
  neighbor 100.64.1.1 activate
  neighbor 100.64.1.1 next-hop-self force
  neighbor 100.64.1.1 route-map HL_NX7K2Q_IN in
  neighbor 100.64.1.1 route-map HL_NX7K2Q_OUT out
  maximum-paths ibgp 2
 exit-address-family
exit
!
router ospf
 ospf router-id 100.64.0.6
 timers throttle spf 0 50 1000
 network 10.50.0.0/16 area 0
exit
!
`;

const TWO_NETWORKS_TEXT = `! The HubLink agent writes this from the compiled configuration; a change made by hand is undone.
bgp route-map delay-timer 1
!
ip prefix-list HL_NX7K2Q_OWN seq 5 permit 10.50.0.0/16 ge 24 le 24
!
bgp community-list standard HL_NX7K2Q seq 5 permit 64512:4242
!
route-map HL_NX7K2Q_IN permit 10
 set community 64512:4242
exit
!
route-map HL_NX7K2Q_OUT permit 10
 match community HL_NX7K2Q
 set community 64512:4242
exit
!
ip prefix-list HL_NB4W9T_OWN seq 5 permit 10.50.7.0/24
ip prefix-list HL_NB4W9T_OWN seq 10 permit 192.168.8.0/24
!
bgp community-list standard HL_NB4W9T seq 5 permit 64512:777
!
route-map HL_NB4W9T_IN permit 10
 set community 64512:777
exit
!
route-map HL_NB4W9T_OUT permit 10
 match community HL_NB4W9T
 set community 64512:777
exit
!
route-map HL_OWN permit 10
 match ip address prefix-list HL_NX7K2Q_OWN
 on-match next
 set community 64512:4242 additive
exit
!
route-map HL_OWN permit 20
 match ip address prefix-list HL_NB4W9T_OWN
 on-match next
 set community 64512:777 additive
exit
!
bgp community-list standard HL_OWN seq 5 permit 64512:4242
bgp community-list standard HL_OWN seq 10 permit 64512:777
!
route-map HL_OWN permit 65535
 match community HL_OWN
exit
!
router bgp 64512
 bgp router-id 100.64.0.6
 bgp log-neighbor-changes
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 timers bgp 3 9
 neighbor 100.64.0.1 remote-as 64512
 neighbor 100.64.0.1 description NX7K2Q hq-1
 neighbor 100.64.0.1 timers connect 5
 neighbor 100.64.1.1 remote-as 64512
 neighbor 100.64.1.1 description NX7K2Q hq-2
 neighbor 100.64.1.1 timers connect 5
 neighbor 100.64.8.1 remote-as 64512
 neighbor 100.64.8.1 description NB4W9T cd0780b6
 neighbor 100.64.8.1 timers connect 5
 !
 address-family ipv4 unicast
  redistribute connected route-map HL_OWN
  redistribute ospf route-map HL_OWN
  neighbor 100.64.0.1 activate
  neighbor 100.64.0.1 next-hop-self force
  neighbor 100.64.0.1 route-map HL_NX7K2Q_IN in
  neighbor 100.64.0.1 route-map HL_NX7K2Q_OUT out
  neighbor 100.64.1.1 activate
  neighbor 100.64.1.1 next-hop-self force
  neighbor 100.64.1.1 route-map HL_NX7K2Q_IN in
  neighbor 100.64.1.1 route-map HL_NX7K2Q_OUT out
  neighbor 100.64.8.1 activate
  neighbor 100.64.8.1 next-hop-self force
  neighbor 100.64.8.1 route-map HL_NB4W9T_IN in
  neighbor 100.64.8.1 route-map HL_NB4W9T_OUT out
  maximum-paths ibgp 2
 exit-address-family
exit
!
router ospf
 ospf router-id 100.64.0.6
 timers throttle spf 0 50 1000
 network 10.50.0.0/16 area 0
 network 192.168.8.0/24 area 0
exit
!
`;

const MIXED_TEXT = `! The HubLink agent writes this from the compiled configuration; a change made by hand is undone.
bgp route-map delay-timer 1
!
bgp community-list standard HL_N1 seq 5 permit 64512:10
!
route-map HL_N1_IN_p1 deny 10
exit
!
route-map HL_N1_OUT permit 10
 match community HL_N1
 set community 64512:10
exit
!
ip prefix-list HL_N2_OWN seq 5 permit 192.168.40.0/24
!
bgp community-list standard HL_N2 seq 5 permit 64512:20
!
route-map HL_N2_IN permit 10
 set community 64512:20
exit
!
route-map HL_N2_OUT permit 10
 match community HL_N2
 set community 64512:20
exit
!
route-map HL_OWN permit 10
 match ip address prefix-list HL_N2_OWN
 on-match next
 set community 64512:20 additive
exit
!
bgp community-list standard HL_OWN seq 5 permit 64512:20
!
route-map HL_OWN permit 65535
 match community HL_OWN
exit
!
router bgp 64512
 bgp router-id 100.64.0.1
 bgp log-neighbor-changes
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 timers bgp 3 9
 neighbor 100.64.0.6 remote-as 64512
 neighbor 100.64.0.6 description N1 p1
 neighbor 100.64.0.6 timers connect 5
 neighbor 100.65.0.1 remote-as 64512
 neighbor 100.65.0.1 description N2 c
 neighbor 100.65.0.1 timers connect 5
 !
 address-family ipv4 unicast
  redistribute connected route-map HL_OWN
  neighbor 100.64.0.6 activate
  neighbor 100.64.0.6 route-reflector-client
  neighbor 100.64.0.6 next-hop-self force
  neighbor 100.64.0.6 route-map HL_N1_IN_p1 in
  neighbor 100.64.0.6 route-map HL_N1_OUT out
  neighbor 100.65.0.1 activate
  neighbor 100.65.0.1 next-hop-self force
  neighbor 100.65.0.1 route-map HL_N2_IN in
  neighbor 100.65.0.1 route-map HL_N2_OUT out
 exit-address-family
exit
!
`;

describe('the FRR configuration of a device', () => {
  it('makes a center reflect between its points, each accepted through its prefix list, and its peer center', () => {
    const out = frrConfig([{ network: 'NX7K2Q', dynamic: CENTER }]);
    expect(out.text).toBe(CENTER_TEXT);
    expect(out).toMatchObject({ ospf: false, problems: [], notes: [] });
    // A center that only reflects announces nothing of its own.
    expect(out.text).not.toContain('redistribute');
  });

  it("makes a point announce its LANs (connected and learned by OSPF) through its list to both of its centers", () => {
    const out = frrConfig([{ network: 'NX7K2Q', dynamic: POINT }]);
    expect(out.text).toBe(POINT_TEXT);
    expect(out).toMatchObject({ ospf: true, problems: [], notes: [] });
  });

  it("keeps a device's two networks apart by community, each announced what its own list allows", () => {
    const out = frrConfig([
      { network: 'NX7K2Q', dynamic: POINT },
      { network: 'NB4W9T', dynamic: OTHER },
    ]);
    expect(out.text).toBe(TWO_NETWORKS_TEXT);
    // Every network's router id is the device's tunnel address there: BGP has one, the first network's.
    expect(out.problems).toEqual([]);
    expect(out.notes).toEqual(["network NB4W9T: BGP router id 100.64.8.6 differs from network NX7K2Q's 100.64.0.6; 100.64.0.6 is used"]);
  });

  it('announces nothing of a network whose announce list is null, and accepts nothing through an empty accept list', () => {
    const center = read({ asn: 64512, community: '64512:10', router_id: '100.64.0.1', ospf_networks: [], announce: null, maximum_paths: 1, neighbors: [{ name: 'p1', address: '100.64.0.6', via: 'router', kind: 'point', accept: [] }] });
    const point = read({ asn: 64512, community: '64512:20', router_id: '100.65.0.6', ospf_networks: [], announce: [e(5, 'permit', '192.168.40.0/24')], maximum_paths: 1, neighbors: [{ name: 'c', address: '100.65.0.1', via: 'center-c', kind: 'center', accept: null }] });
    const out = frrConfig([
      { network: 'N1', dynamic: center },
      { network: 'N2', dynamic: point },
    ]);
    expect(out.text).toBe(MIXED_TEXT);
    // An empty announce list is no announcement either.
    const silent = frrConfig([{ network: 'N2', dynamic: { ...point, announce: [] } }]);
    expect(silent.text).not.toContain('redistribute');
    expect(silent.text).not.toContain('HL_OWN');
  });

  it('sets a lower local preference on what a peer center sends than on what the owning point sends', () => {
    const center = read({
      asn: 64512,
      community: '64512:10',
      router_id: '100.64.0.1',
      ospf_networks: [],
      announce: null,
      maximum_paths: 2,
      neighbors: [
        { name: 'p1', address: '100.64.0.6', via: 'router', kind: 'point', accept: [e(5, 'permit', '10.50.0.0/16')], preference: 100 },
        { name: 'c2', address: '100.127.0.2', via: 'link-c2', kind: 'center', accept: null, preference: 90 },
        { name: 'c2', address: '100.127.0.6', via: 'mesh-c2', kind: 'center', accept: null, preference: 80 },
      ],
    });
    const { text, problems } = frrConfig([{ network: 'N1', dynamic: center }]);
    expect(problems).toEqual([]);
    expect(text).toContain('route-map HL_N1_IN_P90 permit 10\n set community 64512:10\n set local-preference 90\nexit');
    expect(text).toContain('  neighbor 100.127.0.6 route-map HL_N1_IN_P80 in');
    // The point's own routes keep FRR's default preference: no line for it.
    expect(text.slice(text.indexOf('route-map HL_N1_IN_p1'), text.indexOf('exit', text.indexOf('route-map HL_N1_IN_p1')))).not.toContain('local-preference');
  });

  it('is the same text for the same sections, whatever order the neighbours and list entries came in', () => {
    const shuffled: DynamicRouting = {
      ...CENTER,
      neighbors: [...CENTER.neighbors].reverse().map((n) => ({ ...n, accept: n.accept ? [...n.accept].reverse() : null })),
    };
    const again = frrConfig([{ network: 'NX7K2Q', dynamic: read(shuffled) }]).text;
    // BGP's lines follow the addresses and the lists their sequence numbers; the definitions keep the sections' neighbour order.
    const bgp = (text: string) => text.slice(text.indexOf('router bgp'));
    expect(bgp(again)).toBe(bgp(CENTER_TEXT));
    expect(frrConfig([{ network: 'NX7K2Q', dynamic: CENTER }]).text).toBe(CENTER_TEXT);
  });

  it('takes the first network\'s AS, leaves out a network whose community another has, and a neighbour address already taken', () => {
    const sections: NetworkDynamic[] = [
      { network: 'N1', dynamic: POINT },
      { network: 'N2', dynamic: { ...OTHER, asn: 65001 } },
      { network: 'N3', dynamic: { ...OTHER, community: '64512:4242' } },
      { network: 'N4', dynamic: { ...OTHER, community: '64512:9', neighbors: [{ ...OTHER.neighbors[0]!, address: '100.64.0.1' }] } },
    ];
    const out = frrConfig(sections);
    expect(out.problems).toEqual([
      "network N2: dynamic routing: AS 65001 differs from network N1's 64512; 64512 is used",
      "network N3: dynamic routing: community 64512:4242 is network N1's too; the network is left out so their routes stay apart",
      'network N4: dynamic routing: neighbour 总部 at 100.64.0.1 is already hq-1 of network N1; left out',
    ]);
    expect(out.text).toContain('router bgp 64512\n');
    expect(out.text).not.toContain('HL_N3');
    expect(out.text.match(/neighbor 100\.64\.0\.1 remote-as/g)).toHaveLength(1);
  });

  it('gives nothing for no sections', () => {
    expect(frrConfig([])).toEqual({ text: '', ospf: false, problems: [], notes: [] });
  });
});

describe('names in the configuration', () => {
  it('keeps a plain name and makes any other a stable FRR word', () => {
    expect(token('shop-1')).toBe('shop-1');
    expect(token('总部')).toBe('cd0780b6');
    expect(token('Shop 1 (Beijing)')).toMatch(/^Shop-1-Beijing-[0-9a-f]{8}$/);
    expect(token('Shop 1 (Beijing)')).toBe(token('Shop 1 (Beijing)'));
    expect(token('a_b')).not.toContain('_');
    expect(token('x'.repeat(64))).toMatch(/^x{16}-[0-9a-f]{8}$/);
  });
});

describe('reading a section', () => {
  const valid = {
    asn: 64512,
    community: '64512:7',
    router_id: '100.64.0.6',
    ospf_networks: ['10.50.1.1/16'],
    announce: [e(10, 'permit', '10.50.3.4/16', 16, 24), e(5, 'deny', '10.50.99.0/24')],
    neighbors: [{ name: 'c', address: '100.64.0.1', via: 'center-c', kind: 'center', accept: null }],
    maximum_paths: 1,
  };

  it('clears host bits as FRR does and orders list entries by sequence', () => {
    const d = read(valid);
    expect(d.ospf_networks).toEqual(['10.50.0.0/16']);
    expect(d.announce).toEqual([e(5, 'deny', '10.50.99.0/24'), e(10, 'permit', '10.50.0.0/16', 16, 24)]);
  });

  it.each([
    [{ ...valid, asn: 0 }, 'asn 0 is not an integer from 1 to 4294967295'],
    [{ ...valid, community: '64512:70000' }, 'community "64512:70000" is not a community \'AA:NN\' (each 0-65535)'],
    [{ ...valid, router_id: '100.64.0.256' }, 'router_id "100.64.0.256" is not an IPv4 address'],
    [{ ...valid, ospf_networks: ['10.50.0.0'] }, 'ospf_networks[0] "10.50.0.0" is not an IPv4 prefix a.b.c.d/m'],
    // FRR refuses these only when they are applied: vtysh -C takes them.
    [{ ...valid, announce: [e(5, 'permit', '10.50.0.0/16', 8, null)] }, 'announce[0].ge 8 is not at least the prefix length 16'],
    [{ ...valid, announce: [e(5, 'permit', '10.50.0.0/16', 26, 25)] }, 'announce[0].le 25 is not at least the prefix length 16 and ge'],
    [{ ...valid, announce: [e(5, 'permit', '10.50.0.0/16'), e(5, 'deny', '10.60.0.0/16')] }, 'announce[1].seq 5 is not unique in its list'],
    [{ ...valid, neighbors: [{ ...valid.neighbors[0], name: 'c\nrouter bgp 1' }] }, 'neighbors[0].name "c\\nrouter bgp 1" is not a name of 1 to 64 printable characters'],
    [{ ...valid, neighbors: [{ ...valid.neighbors[0], kind: 'peer' }] }, 'neighbors[0].kind "peer" is not \'center\' or \'point\''],
    [{ ...valid, maximum_paths: 0 }, 'maximum_paths 0 is not an integer from 1 to 256'],
    [null, 'the section null is not an object'],
  ])('refuses %j', (raw, why) => {
    expect(readDynamic(raw)).toEqual({ refused: why });
  });
});
