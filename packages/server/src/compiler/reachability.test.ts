import { describe, expect, it } from 'vitest';
import { compileNetwork } from './compile';
import { networkOf, type MemberSketch, type NetworkSketch } from './fixtures';
import type { NetworkInput, PrefixInput } from './model';
import { ReachabilityModel, type Path } from './reachability';
import { compareReachability, reachabilityIn, type PairReach } from './reachabilityMap';

const permit = (router_name: string, cidr: string): PrefixInput => {
  const [ip, mask] = cidr.split('/');
  return { router_name, ip: ip!, mask: Number(mask), permission: 'permit', ge: null, le: null };
};
const deny = (router_name: string, cidr: string): PrefixInput => ({ ...permit(router_name, cidr), permission: 'deny' });

const center = (router_name: string, over: Partial<MemberSketch> = {}): MemberSketch => ({ router_name, member_type: 'center', public_host: '198.51.100.1', ...over });
const point = (router_name: string, over: Partial<MemberSketch> = {}): MemberSketch => ({ router_name, member_type: 'point', ...over });

/** Two centers a (main) and b (backup), points p1 and p2, a LAN each. */
function twoCenters(over: Partial<NetworkSketch> = {}): NetworkInput {
  return networkOf({
    network_number: 'N1',
    routing_type: 2,
    members: [center('a', { routing: 1 }), center('b', { routing: 2, public_host: '198.51.100.2' }), point('p1'), point('p2')],
    prefixes: [permit('a', '10.1.0.0/24'), permit('b', '10.2.0.0/24'), permit('p1', '10.10.1.0/24'), permit('p2', '10.10.2.0/24')],
    ...over,
  });
}

/** A path as text: the members after the source, with how each was reached. */
const route = (p: Path) => p.hops.map((h) => `${h.kind}:${h.member}`).join(' ') + (p.end.delivered ? '' : ` ✗${p.end.why}@${p.end.at}`);
const routes = (ps: Path[]) => ps.map(route);
const at = (model: ReachabilityModel, from: string, address: string) => routes(model.paths(from, { address }));
const reached = (pairs: PairReach[], from: string, member: string) => pairs.filter((p) => p.from === from && p.to.member === member).map((p) => p.ok);

describe('the reachability model', () => {
  it("walks a packet through the point's center to the other point, and the answer back", () => {
    const compiled = compileNetwork(twoCenters());
    const model = new ReachabilityModel(compiled);
    expect(at(model, 'p1', '10.10.2.5')).toEqual(['tunnel:a client:p2']);
    expect(at(model, 'p2', '10.10.1.5')).toEqual(['tunnel:a client:p1']);
    expect(at(model, 'p1', '10.1.0.9')).toEqual(['tunnel:a']);
    // The backup center's LAN: straight over the point's hot-standby tunnel to b, the cheaper path.
    expect(at(model, 'p1', '10.2.0.9')).toEqual(['tunnel:b']);
    expect(model.reaches('p1', { address: '10.10.2.5' }, '10.10.1.1').ok).toBe(true);
    // An address no member owns: the point sends it out of its own uplink, outside the network.
    expect(at(model, 'p1', '192.0.2.1')).toEqual([' ✗outside@p1']);
  });

  it('fails a point over to the backup center while the main one is down, and cuts what only the main center had', () => {
    const compiled = compileNetwork(twoCenters());
    const model = new ReachabilityModel(compiled, { down: ['a'] });
    expect(at(model, 'p1', '10.10.2.5')).toEqual(['tunnel:b client:p2']);
    expect(model.reaches('p1', { address: '10.1.0.9' }, '10.10.1.1').ok).toBe(false);
    expect(model.reaches('p1', { address: '10.10.2.5' }, '10.10.1.1').ok).toBe(true);
  });

  it("carries the main center's LAN across the twin link while a point's tunnel to it is down", () => {
    const compiled = compileNetwork(twoCenters({ center_link: { gateway: null, center_router_name: 'a', endpoint: null } }));
    // p1 is down to a only in the sense that matters here: b reaches a's LAN over the link.
    const model = new ReachabilityModel(compiled);
    expect(at(model, 'b', '10.1.0.9')).toEqual(['twin:a']);
    // p2 down: a's next best path to its LAN is b, whose next best is a: the packet goes round until it
    // dies, as it does on the wire, and is not delivered.
    expect(at(new ReachabilityModel(compiled, { down: ['p2'] }), 'a', '10.10.2.5')).toEqual(['twin:b twin:a ✗loop@a']);
    expect(at(model, 'a', '10.10.2.5')).toEqual(['client:p2']);
  });

  it("reaches a center whose uplink is cut over the twin link on a private line, through the backup center", () => {
    const compiled = compileNetwork(twoCenters({ center_link: { gateway: null, center_router_name: 'a', endpoint: null } }));
    const cut = ['p1', 'p2'].map((p) => ({ between: [p, 'a'] as const }));
    const model = new ReachabilityModel(compiled, { down: [], cut });
    expect(at(model, 'p1', '10.1.0.9')).toEqual(['tunnel:b twin:a']);
    expect(model.reaches('p1', { address: '10.1.0.9' }, '10.10.1.1').ok).toBe(true);
    // The twin link cut too: a is an island.
    const island = new ReachabilityModel(compiled, { down: [], cut: [...cut, { between: ['a', 'b'], kind: 'twin' }] });
    expect(island.reaches('p1', { address: '10.1.0.9' }, '10.10.1.1').ok).toBe(false);
  });

  it('balances a dual-primary point over both centers, and keeps to the live one when a center goes', () => {
    const compiled = compileNetwork(twoCenters({ routing_type: 1 }));
    expect(at(new ReachabilityModel(compiled), 'p1', '10.10.2.5').sort()).toEqual(['tunnel:a client:p2', 'tunnel:b client:p2']);
    expect(at(new ReachabilityModel(compiled, { down: ['b'] }), 'p1', '10.10.2.5')).toEqual(['tunnel:a client:p2']);
  });

  it('refuses a deny row inside a permitted LAN, and still reaches the rest of that LAN', () => {
    const compiled = compileNetwork(twoCenters({ prefixes: [...twoCenters().prefixes, deny('p1', '10.10.1.128/25')] }));
    const model = new ReachabilityModel(compiled);
    expect(at(model, 'p2', '10.10.1.10')).toEqual(['tunnel:a client:p1']);
    expect(at(model, 'p2', '10.10.1.200')).toEqual([' ✗denied@p2']);
    const pairs = reachabilityIn(compiled, { down: [] });
    expect(pairs.find((p) => p.from === 'p2' && p.to.denied)).toMatchObject({ to: { member: 'p1', prefix: '10.10.1.128/25' }, ok: false });
  });

  it("sends a receiver's internet traffic to the advertiser, and nowhere once it is gone", () => {
    const compiled = compileNetwork(twoCenters({ members: [center('a', { routing: 1, default_route: 1 }), center('b', { routing: 2 }), point('p1', { default_route: 2 }), point('p2')] }));
    const model = new ReachabilityModel(compiled);
    expect(routes(model.paths('p1', { internet: true }))).toEqual(['tunnel:a']);
    expect(model.reaches('p1', { internet: true }, '10.10.1.1').ok).toBe(true);
    const down = reachabilityIn(compiled, { down: ['a'] }).find((p) => p.from === 'p1' && p.to.internet);
    expect(down?.ok).toBe(false);
  });

  it('marks a tunnel dialled through a POP area first as a POP hop', () => {
    const input = twoCenters({
      mode: 3,
      pop_areas: [{ id: 7, name: '华东', host: '203.0.113.7', port: 40000, relays: [{ center: 'a', service: 'router', port: 40000 }] }],
      members: [center('a', { routing: 1 }), center('b', { routing: 2 }), point('p1', { ov: { main: 7, backup: 0, priority: 3 } }), point('p2')],
    });
    const model = new ReachabilityModel(compileNetwork(input));
    expect(at(model, 'p1', '10.1.0.9')).toEqual(['pop:a']);
  });

  it('gives a member without a LAN its own address as a site, reached and answering from the tunnel it used', () => {
    const compiled = compileNetwork(twoCenters({ members: [...twoCenters().members, { ...point('app', { router_type: 2 }) }].map((m) => ({ ...m })) }));
    const pairs = reachabilityIn(compiled, { down: [] });
    expect(reached(pairs, 'app', 'p1')).toEqual([true]);
    expect(pairs.find((p) => p.from === 'p1' && p.to.member === 'app')).toMatchObject({ to: { prefix: null }, ok: true });
  });
});

describe('comparing two networks', () => {
  it('names the pairs a change cuts off, in each state, and nothing for a change that keeps every path', async () => {
    const before = compileNetwork(twoCenters());
    // p2 linked to b only: without a twin link, a no longer reaches it (p1 still does, over its tunnel to b).
    const after = compileNetwork(twoCenters({ members: [center('a', { routing: 1 }), center('b', { routing: 2 }), point('p1'), point('p2', { link_centers: ['b'] })] }));
    const changes = await compareReachability(before, after);
    expect(changes.filter((c) => c.state === '' && !c.gained).map((c) => `${c.from}→${c.to.member}`).sort()).toEqual(['a→p2', 'p2→a']);
    // Each change carries where its packets stop now.
    const lost = changes.find((c) => c.state === '' && c.from === 'a' && c.to.member === 'p2')!;
    expect(lost.paths.length).toBeGreaterThan(0);
    expect(lost.paths.every((p) => !p.end.delivered)).toBe(true);
    expect(await compareReachability(before, compileNetwork(twoCenters({ dns: ['10.1.0.53'] })))).toEqual([]);
  });

  it('names the pairs a twin link gains between two centers with their own points', async () => {
    const before = compileNetwork(twoCenters({ members: [center('a', { routing: 1 }), center('b', { routing: 2 }), point('p1', { link_centers: ['a'] }), point('p2', { link_centers: ['b'] })] }));
    const after = compileNetwork(
      twoCenters({
        members: [center('a', { routing: 1 }), center('b', { routing: 2 }), point('p1', { link_centers: ['a'] }), point('p2', { link_centers: ['b'] })],
        center_link: { gateway: null, center_router_name: 'a', endpoint: null },
      }),
    );
    const gained = (await compareReachability(before, after)).filter((c) => c.state === '' && c.gained);
    expect(gained.map((c) => `${c.from}→${c.to.member}`)).toEqual(expect.arrayContaining(['p1→p2', 'p2→p1', 'a→b', 'b→a']));
  });
});
