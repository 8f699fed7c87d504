import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileNetwork } from './compile';
import { networkOf, type MemberSketch } from './fixtures';
import type { NetworkInput, PrefixInput } from './model';
import { ReachabilityModel } from './reachability';
import { pathsOf, reachabilityIn, sitesOf, statesOf } from './reachabilityMap';

/*
 * Properties of the reachability model over random networks: one to four centers, up to twelve points
 * of both kinds, a LAN for most members (10.<member>.0.0/24, so they never overlap), a deny row now
 * and then, both routing types, a twin link or the interconnect, and points linked to some centers.
 */

const member = (member_type: 'center' | 'point', i: number): fc.Arbitrary<MemberSketch> =>
  fc.record({
    router_name: fc.constant(`${member_type === 'center' ? 'c' : 'p'}${i}`),
    member_type: fc.constant(member_type),
    router_type: member_type === 'center' ? fc.constant(1) : fc.constantFrom(1, 1, 2),
    routing: fc.constantFrom(1, 2),
    default_route: fc.constantFrom(0, 0, 1, 2),
    public_host: fc.constant(`198.51.100.${i + 1}`),
    link_centers: member_type === 'center' ? fc.constant(null) : fc.option(fc.subarray(['c0', 'c1', 'c2', 'c3']), { nil: null }),
  });

const network = (opts: { everyCenter?: boolean; joined?: boolean } = {}): fc.Arbitrary<NetworkInput> =>
  fc
    .record({ centers: fc.integer({ min: 1, max: 4 }), points: fc.integer({ min: 0, max: 12 }) })
    .chain(({ centers, points }) =>
      fc.record({
        routing_type: fc.constantFrom(1, 2),
        centers: fc.tuple(...Array.from({ length: centers }, (_, i) => member('center', i))),
        points: fc.tuple(...Array.from({ length: points }, (_, i) => member('point', i))),
        lans: fc.array(fc.boolean(), { minLength: centers + points, maxLength: centers + points }),
        denied: fc.array(fc.nat({ max: 20 }), { maxLength: 2 }),
        joining: opts.joined ? fc.constant('mesh' as const) : fc.constantFrom('none' as const, 'twin' as const, 'mesh' as const),
      }),
    )
    .map(({ routing_type, centers, points, lans, denied, joining }) => {
      const members = [...centers, ...points].map((m) => (opts.everyCenter ? { ...m, link_centers: null } : m));
      const prefixes: PrefixInput[] = [];
      members.forEach((m, i) => {
        if (lans[i]) prefixes.push({ router_name: m.router_name, ip: `10.${i + 1}.0.0`, mask: 24, permission: 'permit', ge: null, le: null });
      });
      for (const d of denied) {
        const owner = prefixes[d % Math.max(prefixes.length, 1)];
        if (owner) prefixes.push({ ...owner, ip: owner.ip.replace(/\.0$/, '.128'), mask: 25, permission: 'deny' });
      }
      return networkOf({
        network_number: 'N1',
        routing_type,
        members,
        prefixes,
        center_link: joining === 'twin' && centers.length >= 2 ? { gateway: null, center_router_name: 'c0', endpoint: null } : null,
        interconnect: joining === 'mesh' && centers.length >= 2 ? { segment: null } : null,
      });
    });

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

describe('the reachability model over random networks', () => {
  it('ends every walk; no path goes through a member that is down; a delivered path ends at the site', () => {
    fc.assert(
      fc.property(network(), (input) => {
        const compiled = compileNetwork(input);
        for (const state of statesOf(compiled)) {
          const model = new ReachabilityModel(compiled, state);
          for (const pair of reachabilityIn(compiled, state)) {
            for (const p of pathsOf(model, pair)) {
              expect(p.hops.every((h) => !state.down.includes(h.member))).toBe(true);
              if (p.end.delivered && !pair.to.internet) expect(p.hops.at(-1)?.member ?? pair.from).toBe(pair.to.member);
            }
            if (pair.to.denied) expect(pair.ok).toBe(false);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('is symmetric between two LANs: A reaches B exactly when B reaches A', () => {
    fc.assert(
      fc.property(network(), (input) => {
        const compiled = compileNetwork(input);
        const withLan = new Set(input.prefixes.filter((p) => p.permission === 'permit').map((p) => p.router_name));
        for (const state of statesOf(compiled)) {
          const lanPairs = reachabilityIn(compiled, state).filter((p) => withLan.has(p.from) && p.to.prefix !== null && !p.to.denied);
          const ok = new Map(lanPairs.map((p) => [`${p.from}>${p.to.member}`, p.ok]));
          for (const p of lanPairs) expect(ok.get(`${p.to.member}>${p.from}`), `${p.from} ⇄ ${p.to.member} in state '${state.name}'`).toBe(p.ok);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('reaches every LAN from every member when points link to every center and the centers are interconnected, with each center down too', () => {
    fc.assert(
      fc.property(network({ everyCenter: true, joined: true }), (input) => {
        const compiled = compileNetwork(input);
        const centers = input.members.filter((m) => m.member_type === 'center').length;
        for (const state of statesOf(compiled)) {
          if (state.down.length >= centers) continue;
          // A center without a LAN answers from its link address, which points have no route to (as on the wire): not a source here.
          const lanless = new Set(compiled.members.filter((m) => m.json.member_type === 'center' && m.json.lan.length === 0).map((m) => m.router_name));
          const cut = reachabilityIn(compiled, state).filter(
            (p) => !lanless.has(p.from) && !p.to.denied && !p.to.internet && !state.down.includes(p.from) && !state.down.includes(p.to.member) && !p.ok,
          );
          expect(
            cut.map((p) => `${p.from} → ${p.to.member} ${p.to.prefix ?? ''}`),
            `state '${state.name}'`,
          ).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('answers a pair the same without building its paths (reachesAddress) as with them (reaches)', () => {
    fc.assert(
      fc.property(network(), (input) => {
        const compiled = compileNetwork(input);
        for (const state of statesOf(compiled)) {
          const model = new ReachabilityModel(compiled, state);
          const quick = new ReachabilityModel(compiled, state);
          for (const { router_name: from, json } of compiled.members) {
            const back = json.lan[0] ? json.lan[0].replace(/\.0\/\d+$/, '.1') : null;
            for (const { site, address } of sitesOf(compiled, state)) {
              if (address === null || site.member === from || site.internet) continue;
              expect(quick.reachesAddress(from, address, back, site.member), `${from} → ${site.member} ${address} in '${state.name}'`).toBe(model.reaches(from, { address }, back).ok);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
