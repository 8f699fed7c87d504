import { describe, expect, it } from 'vitest';
import { configCommands, configDiff, flatten, parseConfig } from './tree';

const BEFORE = `! a comment
bgp route-map delay-timer 1
!
ip prefix-list HL_N1_IN_p1 seq 5 permit 10.50.0.0/16 ge 24 le 24
ip prefix-list HL_N1_IN_p1 seq 10 deny 10.60.0.0/16
!
route-map HL_N1_IN_p1 permit 10
 match ip address prefix-list HL_N1_IN_p1
 set community 64512:1
exit
!
route-map HL_N1_IN_p2 permit 10
 set community 64512:1
exit
!
router bgp 64512
 bgp router-id 100.64.0.1
 neighbor 100.64.0.6 remote-as 64512
 neighbor 100.64.0.6 timers connect 5
 neighbor 100.64.0.10 remote-as 64512
 !
 address-family ipv4 unicast
  neighbor 100.64.0.6 activate
  neighbor 100.64.0.6 route-map HL_N1_IN_p1 in
  neighbor 100.64.0.10 activate
  neighbor 100.64.0.10 route-map HL_N1_IN_p2 in
 exit-address-family
exit
!
`;

describe('a configuration as a tree', () => {
  it('nests lines by their indentation and drops comments and closing lines', () => {
    const tree = parseConfig(BEFORE);
    expect(tree.map((n) => n.line)).toEqual([
      'bgp route-map delay-timer 1',
      'ip prefix-list HL_N1_IN_p1 seq 5 permit 10.50.0.0/16 ge 24 le 24',
      'ip prefix-list HL_N1_IN_p1 seq 10 deny 10.60.0.0/16',
      'route-map HL_N1_IN_p1 permit 10',
      'route-map HL_N1_IN_p2 permit 10',
      'router bgp 64512',
    ]);
    const bgp = tree[5]!;
    expect(bgp.children.map((n) => n.line)).toEqual(['bgp router-id 100.64.0.1', 'neighbor 100.64.0.6 remote-as 64512', 'neighbor 100.64.0.6 timers connect 5', 'neighbor 100.64.0.10 remote-as 64512', 'address-family ipv4 unicast']);
    expect(bgp.children[4]!.children).toHaveLength(4);
  });

  it("reads a running configuration without the daemons' own lines, and compares regardless of block order", () => {
    const running = `Building configuration...

Current configuration:
!
frr version 8.4.4
frr defaults traditional
hostname vm
no ip forwarding
no ipv6 forwarding
!
router bgp 64512
 bgp router-id 100.64.0.1
exit
!
ip prefix-list A seq 5 permit 10.0.0.0/8
!
end
`;
    expect(flatten(parseConfig(running, { runningConfig: true }))).toEqual(flatten(parseConfig('ip prefix-list A seq 5 permit 10.0.0.0/8\nrouter bgp 64512\n bgp router-id 100.64.0.1\nexit\n')));
  });

  it('gives the whole configuration as commands, each context closed', () => {
    expect(configCommands(parseConfig('route-map X permit 10\n set community 64512:1\nexit\nrouter bgp 1\n address-family ipv4 unicast\n  neighbor 1.2.3.4 activate\n exit-address-family\nexit\n'))).toEqual([
      'route-map X permit 10',
      'set community 64512:1',
      'exit',
      'router bgp 1',
      'address-family ipv4 unicast',
      'neighbor 1.2.3.4 activate',
      'exit-address-family',
      'exit',
    ]);
  });
});

describe('the difference between two configurations', () => {
  it('is nothing between equal ones', () => {
    expect(configDiff(parseConfig(BEFORE), parseConfig(BEFORE))).toEqual([]);
  });

  it('removes a neighbour line by line, its address family first, and what only it used', () => {
    const after = BEFORE.replace(/.*100\.64\.0\.10.*\n/g, '').replace(/route-map HL_N1_IN_p2 permit 10\n set community 64512:1\nexit\n!\n/, '');
    expect(configDiff(parseConfig(BEFORE), parseConfig(after))).toEqual([
      'router bgp 64512',
      'address-family ipv4 unicast',
      'no neighbor 100.64.0.10 route-map HL_N1_IN_p2 in',
      'no neighbor 100.64.0.10 activate',
      'exit-address-family',
      'no neighbor 100.64.0.10 remote-as 64512',
      'exit',
      'no route-map HL_N1_IN_p2 permit 10',
    ]);
  });

  it('adds a neighbour after what it names, and a whole new context', () => {
    const after = `${BEFORE}router ospf\n ospf router-id 100.64.0.1\n network 10.50.0.0/16 area 0\nexit\n`
      .replace(' neighbor 100.64.0.10 remote-as 64512\n', ' neighbor 100.64.0.10 remote-as 64512\n neighbor 100.64.0.14 remote-as 64512\n')
      .replace('  neighbor 100.64.0.10 route-map HL_N1_IN_p2 in\n', '  neighbor 100.64.0.10 route-map HL_N1_IN_p2 in\n  neighbor 100.64.0.14 activate\n');
    expect(configDiff(parseConfig(BEFORE), parseConfig(after))).toEqual([
      'router bgp 64512',
      'neighbor 100.64.0.14 remote-as 64512',
      'address-family ipv4 unicast',
      'neighbor 100.64.0.14 activate',
      'exit-address-family',
      'exit',
      'router ospf',
      'ospf router-id 100.64.0.1',
      'network 10.50.0.0/16 area 0',
      'exit',
    ]);
  });

  it('changes a setting in place, never leaving a moment without it', () => {
    const after = BEFORE.replace('seq 5 permit 10.50.0.0/16 ge 24 le 24', 'seq 5 permit 10.50.0.0/16 le 24')
      .replace('neighbor 100.64.0.10 route-map HL_N1_IN_p2 in', 'neighbor 100.64.0.10 route-map HL_N1_IN_p1 in')
      .replace('timers connect 5', 'timers connect 7')
      .replace(/set community 64512:1\n/g, 'set community 64512:2\n');
    expect(configDiff(parseConfig(BEFORE), parseConfig(after))).toEqual([
      'ip prefix-list HL_N1_IN_p1 seq 5 permit 10.50.0.0/16 le 24',
      'route-map HL_N1_IN_p1 permit 10',
      'set community 64512:2',
      'exit',
      'route-map HL_N1_IN_p2 permit 10',
      'set community 64512:2',
      'exit',
      'router bgp 64512',
      'neighbor 100.64.0.6 timers connect 7',
      'address-family ipv4 unicast',
      'neighbor 100.64.0.10 route-map HL_N1_IN_p1 in',
      'exit-address-family',
      'exit',
    ]);
  });

  it('removes a prefix-list entry whose sequence number is gone, and a whole context with one line', () => {
    const after = BEFORE.replace('ip prefix-list HL_N1_IN_p1 seq 10 deny 10.60.0.0/16\n', '').replace(/router bgp 64512\n[\s\S]*?\nexit\n/, '');
    expect(configDiff(parseConfig(BEFORE), parseConfig(after))).toEqual(['no router bgp 64512', 'no ip prefix-list HL_N1_IN_p1 seq 10 deny 10.60.0.0/16']);
  });

  it('empties an address family line by line (it cannot be removed with no)', () => {
    const after = BEFORE.replace(/ !\n address-family[\s\S]*?exit-address-family\n/, '');
    expect(configDiff(parseConfig(BEFORE), parseConfig(after))).toEqual([
      'router bgp 64512',
      'address-family ipv4 unicast',
      'no neighbor 100.64.0.10 route-map HL_N1_IN_p2 in',
      'no neighbor 100.64.0.10 activate',
      'no neighbor 100.64.0.6 route-map HL_N1_IN_p1 in',
      'no neighbor 100.64.0.6 activate',
      'exit-address-family',
      'exit',
    ]);
  });
});
