import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMERS, routingOf, type RoutingConfig } from './config';
import { choose, desiredState, type NetworkView, type PathState } from './select';

/** A network view whose paths are as given (instance or instance/client → state) and whose devices are named after the instance. */
function view(number: string, config: Partial<RoutingConfig>, paths: Record<string, PathState>, extra: Partial<NetworkView> = {}): NetworkView {
  const full: RoutingConfig = { center: false, lan: [], blocked: [], dns: [], forwarding: false, balance: false, nat: false, timers: DEFAULT_TIMERS, routes: [], transit: null, dynamic: null, internal: [], ...config };
  return {
    number,
    config: full,
    devOf: (instance) => (instance in paths || Object.keys(paths).some((k) => k.startsWith(`${instance}/`)) ? `dev-${instance}` : null),
    state: (instance, client) => paths[client ? `${instance}/${client}` : instance] ?? 'down',
    servers: [],
    links: [],
    tables: { fromTunnels: 7100, fromLinks: 7101 },
    ...extra,
  };
}

const via = (name: string, cost: number, rank = 0, client: string | null = null) => ({ via: name, client, cost, rank });

describe('choosing a path', () => {
  const vias = [via('center-a', 20, 0), via('center-b', 20, 1), via('center-c', 30, 2)];

  it('takes the cheapest ready path, the lowest rank among equals, or all of them where the network balances', () => {
    const v = view('N1', {}, { 'center-a': 'ready', 'center-b': 'ready', 'center-c': 'ready' });
    expect(choose(vias, v, false)).toEqual(['dev-center-a']);
    expect(choose(vias, v, true)).toEqual(['dev-center-a', 'dev-center-b']);
  });

  it('fails over to the next path when the best goes down, and to a dearer one when both equals do', () => {
    expect(choose(vias, view('N1', {}, { 'center-a': 'down', 'center-b': 'ready', 'center-c': 'ready' }), false)).toEqual(['dev-center-b']);
    expect(choose(vias, view('N1', {}, { 'center-c': 'ready' }), true)).toEqual(['dev-center-c']);
    expect(choose(vias, view('N1', {}, {}), true)).toBeNull();
  });

  it('keeps off a path held down after a failure while another is ready, and uses it when none is', () => {
    expect(choose(vias, view('N1', {}, { 'center-a': 'held', 'center-b': 'ready' }), false)).toEqual(['dev-center-b']);
    expect(choose(vias, view('N1', {}, { 'center-a': 'held', 'center-c': 'held' }), false)).toEqual(['dev-center-a']);
  });

  it("uses a server's client only while that client is connected; 'local' is always there", () => {
    const center = [via('router', 10, 0, 'p1'), via('link-b', 20)];
    expect(choose(center, view('N1', {}, { 'router/p1': 'ready', 'link-b': 'ready' }), false)).toEqual(['dev-router']);
    expect(choose(center, view('N1', {}, { 'router/p1': 'down', 'link-b': 'ready' }), false)).toEqual(['dev-link-b']);
    expect(choose([via('local', 600), via('link-a', 310)], view('N1', {}, {}), false)).toBe('local');
  });
});

describe('the desired state', () => {
  it('routes every group but the own LAN, unreachable without a live path, the default route as its own target', () => {
    const config = routingOf({
      member_type: 'point',
      lan: ['10.1.0.0/24'],
      blocked: ['10.2.0.128/25'],
      balance: true,
      dns: ['10.0.0.53', 'not an address'],
      routes: [
        { prefixes: ['10.1.0.0/24', '10.2.0.0/24'], via: [via('center-a', 20), via('center-b', 20, 1)] },
        { prefixes: ['10.3.0.0/24'], via: [via('center-c', 10)] },
        { prefixes: ['0.0.0.0/0'], via: [via('center-a', 310), via('center-b', 610, 1)] },
      ],
    });
    const d = desiredState([view('N1', config, { 'center-a': 'ready', 'center-b': 'ready' })]);
    expect(Object.fromEntries(d.routes)).toEqual({ '10.2.0.128/25': 'unreachable', '10.2.0.0/24': ['dev-center-a', 'dev-center-b'], '10.3.0.0/24': 'unreachable' });
    expect(d.defaultVia).toEqual(['dev-center-a']);
    expect(d.dns).toEqual(['10.0.0.53']);
  });

  it("gives a center transit tables: its own exit, an advertising client while connected, never a link from a link", () => {
    const config = routingOf({ member_type: 'center', transit: [via('router', 310, 0, 'p9'), via('link-b', 610)] });
    const v = (paths: Record<string, PathState>) => view('N1', config, paths, { servers: ['hl0'], links: ['hl2'] });
    const [up] = desiredState([v({ 'router/p9': 'ready', 'link-b': 'ready' })]).transit;
    expect([up!.fromTunnels.target, up!.fromLinks.target]).toEqual([['dev-router'], ['dev-router']]);
    const [down] = desiredState([v({ 'link-b': 'ready' })]).transit;
    expect([down!.fromTunnels.target, down!.fromLinks.target]).toEqual([['dev-link-b'], 'unreachable']);
    expect(desiredState([view('N1', routingOf({ member_type: 'center', transit: [] }), {})]).transit[0]!.fromTunnels.target).toBe('unreachable');
  });

  it('keeps the first network\'s route for a prefix two networks route, and masquerades only for an advertiser', () => {
    const a = view('N1', routingOf({ routes: [{ prefixes: ['10.9.0.0/24'], via: [via('center-a', 10)] }], nat: true, lan: ['10.1.0.0/24'] }), { 'center-a': 'ready' });
    const b = view('N2', routingOf({ routes: [{ prefixes: ['10.9.0.0/24'], via: [via('center-x', 10)] }] }), { 'center-x': 'ready' });
    const d = desiredState([b, a]);
    expect(d.routes.get('10.9.0.0/24')).toEqual(['dev-center-a']);
    expect(d.nat).toEqual(expect.arrayContaining(['10.1.0.0/24', '10.9.0.0/24']));
    expect(desiredState([b]).nat).toBeNull();
  });
});
