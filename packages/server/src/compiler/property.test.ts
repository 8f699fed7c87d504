import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompileMemo, compileNetwork } from './compile';
import { networkOf, type MemberSketch } from './fixtures';
import { overlaps, parseCidr, rangeOf } from './ip';
import type { CenterConfig, MemberInput, NetworkInput, PointConfig } from './model';
import { storedForm } from './versions';

/*
 * Properties of compileNetwork over random networks (members of both kinds, centers with and without
 * their own segments, set or default pools, a twin-center link, POP areas, dial modes, prefixes, point links):
 * the subnets it hands out never overlap, every point can dial at least one center, every point
 * address lies in its center's subnet and is unique there, compiling twice gives the same bytes, and
 * a compile that reuses an earlier one's memo gives what a compile from scratch gives.
 */

// Few distinct first octets (100 is the compiler's own space) and close second ones, so segments often collide.
const segment = fc.record({ a: fc.constantFrom(10, 100, 172), b: fc.integer({ min: 60, max: 67 }), mask: fc.integer({ min: 16, max: 24 }) }).map(({ a, b, mask }) => parseCidr(`${a}.${b}.0.0/${mask}`)!);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 2 });
const endpoint = maybe(fc.record({ public_ip: fc.constantFrom('', '203.0.113.9'), public_port: fc.integer({ min: 1025, max: 65535 }), static_port: fc.integer({ min: 1025, max: 65535 }) }));

const member = (member_type: 'center' | 'point', i: number): fc.Arbitrary<MemberSketch> =>
  fc.record({
    router_name: fc.constant(`${member_type}${i}`),
    member_type: fc.constant(member_type),
    router_type: member_type === 'center' ? fc.constant(1) : fc.constantFrom(1, 2),
    routing: fc.constantFrom(1, 2),
    default_route: fc.constantFrom(0, 1, 2),
    metric: fc.constantFrom(30, 60, 90, 120, 150),
    quagga: fc.constantFrom(0, 1),
    mode: fc.constantFrom(1, 2, 3),
    fixed_port: fc.record({ router: endpoint, software: endpoint }),
    gateway: member_type === 'center' ? fc.record({ router: maybe(segment), software: maybe(segment) }) : fc.constant({ router: null, software: null }),
    ov: fc.record({ main: fc.constantFrom(0, 1, 2), backup: fc.constantFrom(0, 1, 2), priority: fc.constant(3) }),
    // Names of centers that may not exist ('gone', center3 of a smaller network): a stale list.
    link_centers: member_type === 'center' ? fc.constant(null) : fc.option(fc.subarray(['center0', 'center1', 'center2', 'center3', 'gone']), { nil: null }),
  });

const network: fc.Arbitrary<NetworkInput> = fc
  .record({ centers: fc.integer({ min: 1, max: 4 }), points: fc.integer({ min: 0, max: 40 }) })
  .chain(({ centers, points }) =>
    fc.record({
      routing_type: fc.constantFrom(1, 2),
      ncp_ciphers: fc.constantFrom('default' as const, 'sm' as const),
      mode: fc.constantFrom(1, 2, 3),
      dns: fc.subarray(['223.5.5.5', '8.8.8.8']),
      centers: fc.tuple(...Array.from({ length: centers }, (_, i) => member('center', i))),
      points: fc.tuple(...Array.from({ length: points }, (_, i) => member('point', i))),
      prefixes: fc.array(
        fc.record({ owner: fc.nat(), seg: segment, permission: fc.constantFrom('permit' as const, 'deny' as const), ge: maybe(fc.integer({ min: 17, max: 32 })), le: maybe(fc.integer({ min: 24, max: 32 })) }),
        { maxLength: 10 },
      ),
      pools: fc.record({ center_network: maybe(segment), center_link_network: maybe(segment), pop: maybe(segment), pop_software: maybe(segment) }),
      link: fc.option(fc.record({ gateway: maybe(segment.map((s) => ({ ...s, mask: 30 }))), server: fc.nat(), endpoint }), { nil: null }),
      interconnect: fc.option(fc.record({ segment: maybe(segment.map((s) => ({ ...s, mask: 28 }))) }), { nil: null }),
    }),
  )
  .map(({ centers, points, prefixes, link, ...rest }) => {
    const members = [...centers, ...points];
    return networkOf({
      network_number: 'N1',
      ...rest,
      members,
      prefixes: prefixes.map((p) => ({ router_name: members[p.owner % members.length]!.router_name, ip: p.seg.network, mask: p.seg.mask, permission: p.permission, ge: p.ge, le: p.le })),
      center_link: link && { gateway: link.gateway && parseCidr(`${link.gateway.network}/30`), center_router_name: centers[link.server % centers.length]!.router_name, endpoint: link.endpoint },
      pop_areas: [
        { id: 1, name: 'south', host: 'pop1.example.net', port: 1194, relays: centers.flatMap((c, i) => (['router', 'software'] as const).map((service, j) => ({ center: c.router_name, service, port: 1194 + 2 * i + j }))) },
        { id: 2, name: 'north', host: '', port: 1194, relays: [] },
      ],
    });
  });

const RUNS = Number(process.env.COMPILER_PROPERTY_RUNS ?? 200);
/** The memo property compiles each network eight times: ~10 s alone, three times that beside the rest of the suite under a second Node. */
const MEMO_TIMEOUT_MS = 120_000;

describe('compileNetwork properties', () => {
  it('hands out subnets that never overlap', () => {
    fc.assert(
      fc.property(network, (input) => {
        const centers = compileNetwork(input).members.map((m) => m.json).filter((j): j is CenterConfig => j.member_type === 'center');
        const subnets = centers.flatMap((c) => c.services.map((s) => s.subnet));
        const links = [...new Set(centers.flatMap((c) => c.links.map((l) => l.segment)))];
        const all = [...subnets, ...links].map((s) => rangeOf(parseCidr(s)!));
        for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(overlaps(all[i]!, all[j]!)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it('gives every point a remote to a center and a unique address inside each of its centers', () => {
    fc.assert(
      fc.property(network, (input) => {
        const out = compileNetwork(input).members.map((m) => m.json);
        const centers = new Map(out.filter((j): j is CenterConfig => j.member_type === 'center').map((c) => [c.router_name, c]));
        for (const p of out.filter((j): j is PointConfig => j.member_type === 'point')) {
          expect(p.tunnels.some((t) => t.remotes.some((r) => r.via === 'center' && centers.has(r.name)))).toBe(true);
          for (const t of p.tunnels) {
            const service = centers.get(t.center)!.services.find((s) => s.service === p.service)!;
            expect(t.address).not.toBeNull();
            expect(t.center_address).toBe(service.address);
            const range = rangeOf(parseCidr(service.subnet)!);
            const at = rangeOf({ network: t.address!, mask: 32 }).start;
            expect(at > range.start + 1 && at < range.end - 1).toBe(true);
            expect(service.clients.filter((x) => x.address === t.address).map((x) => x.router_name)).toEqual([p.router_name]);
          }
        }
        // A center lists as clients exactly the points that dial it.
        const points = new Map(out.filter((j): j is PointConfig => j.member_type === 'point').map((p) => [p.router_name, p]));
        for (const c of centers.values()) {
          for (const client of c.services.flatMap((s) => s.clients)) {
            expect(points.get(client.router_name)!.tunnels.some((t) => t.center === c.router_name)).toBe(true);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('pairs every link end with its other end, and routes only through instances the member runs', () => {
    fc.assert(
      fc.property(network, (input) => {
        const compiled = compileNetwork(input).members;
        const centers = new Map(compiled.map((m) => m.json).filter((j): j is CenterConfig => j.member_type === 'center').map((c) => [c.router_name, c]));
        for (const c of centers.values()) {
          for (const l of c.links) {
            const other = centers.get(l.peer)!.links.find((x) => x.peer === c.router_name && x.kind === l.kind)!;
            expect([other.role, other.segment, other.address, other.peer_address, other.port]).toEqual([l.role === 'server' ? 'client' : 'server', l.segment, l.peer_address, l.address, l.port]);
          }
        }
        for (const m of compiled) {
          const instances = new Set(Object.keys(m.openvpn).filter((f) => f.endsWith('.conf') && !f.includes('/')).map((f) => f.slice(0, -5)));
          const vias = m.json.routes.flatMap((g) => g.via);
          const transit = m.json.member_type === 'center' ? m.json.transit : [];
          for (const v of [...vias, ...transit]) expect(v.via === 'local' || instances.has(v.via), `${m.router_name} routes via ${v.via}`).toBe(true);
          expect(vias.some((v) => v.via === 'local')).toBe(false);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('sends every prefix a point routes to a center that delivers it: to the owner, through its link, or on its own LAN', () => {
    fc.assert(
      fc.property(network, (input) => {
        const json = compileNetwork(input).members.map((m) => m.json);
        const centers = new Map(json.filter((j): j is CenterConfig => j.member_type === 'center').map((c) => [c.router_name, c]));
        const delivers = (c: CenterConfig, prefix: string) =>
          c.lan.includes(prefix) ||
          c.services.some((s) => s.subnet === prefix || s.clients.some((x) => x.iroutes.includes(prefix))) ||
          c.routes.some((g) => g.prefixes.includes(prefix) && g.via.some((v) => c.links.some((l) => l.name === v.via)));
        for (const p of json.filter((j): j is PointConfig => j.member_type === 'point')) {
          for (const g of p.routes) {
            if (g.prefixes.includes('0.0.0.0/0')) continue;
            for (const v of g.via) {
              const center = centers.get(p.tunnels.find((t) => t.name === v.via)!.center)!;
              for (const prefix of g.prefixes) expect(delivers(center, prefix), `${p.router_name} → ${center.router_name} for ${prefix}`).toBe(true);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(network, (input) => {
        const copy = JSON.parse(JSON.stringify(input)) as NetworkInput;
        expect(JSON.stringify(compileNetwork(copy))).toBe(JSON.stringify(compileNetwork(input)));
      }),
      { numRuns: RUNS },
    );
  });

  /** Small changes a settings dialog makes to one member, or the network's DNS. */
  const tweaks: ((m: MemberInput) => MemberInput)[] = [
    (m) => ({ ...m, mode: (m.mode % 3) + 1 }),
    (m) => ({ ...m, default_route: (m.default_route + 1) % 3 }),
    (m) => ({ ...m, fixed_port: { ...m.fixed_port, router: m.fixed_port.router ? null : { public_ip: '', public_port: 40000, static_port: 40001 } } }),
    (m) => ({ ...m, quagga: 1 - m.quagga }),
    (m) => (m.member_type === 'point' ? { ...m, link_centers: m.link_centers ? null : ['center0'] } : m),
  ];
  const tweaked = fc.tuple(network, fc.nat(), fc.nat({ max: tweaks.length + 1 })).map(([input, at, kind]): [NetworkInput, NetworkInput] => {
    const i = at % input.members.length;
    if (kind === tweaks.length) return [input, { ...input, dns: [...input.dns, '114.114.114.114'] }];
    if (kind === tweaks.length + 1) return [input, { ...input, members: input.members.filter((_, j) => j !== i || input.members[j]!.member_type === 'center') }];
    return [input, { ...input, members: input.members.map((m, j) => (j === i ? tweaks[kind]!(m) : m)) }];
  });

  it('gives the same result with an earlier compile\'s memo as from scratch', () => {
    fc.assert(
      fc.property(tweaked, network, ([before, after], unrelated) => {
        const memo = new CompileMemo();
        for (const input of [before, after, unrelated, after]) {
          const reused = compileNetwork(input, memo);
          const scratch = JSON.parse(JSON.stringify(compileNetwork(input))) as ReturnType<typeof compileNetwork>;
          expect(JSON.stringify(reused)).toBe(JSON.stringify(scratch));
          expect(reused.members.map((m) => storedForm(m).hash)).toEqual(scratch.members.map((m) => storedForm(m).hash));
        }
      }),
      { numRuns: RUNS / 2 },
    );
  }, MEMO_TIMEOUT_MS);
});
