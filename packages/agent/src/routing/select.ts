import { bestPaths } from '@hublink/contract';
import type { RoutingConfig, Via } from './config';

/*
 * What the member's routing should be now, as a pure function of its networks' configurations and of
 * which paths are usable: per prefix, the cheapest usable path (all of the cheapest ones where the
 * network balances, else the lowest rank among them); no usable path means unreachable, so the
 * network's traffic never leaks out of the member's own default route. router.ts makes the kernel so.
 */

export const DEFAULT_PREFIX = '0.0.0.0/0';

export type PathState = 'ready' | 'held' | 'down';

export interface NetworkView {
  number: string;
  config: RoutingConfig;
  /** The device of a running instance, or null. */
  devOf(instance: string): string | null;
  /** ready: up, and not held down; held: up, but held down after a recent failure; down. */
  state(instance: string, client: string | null): PathState;
  /** The devices of a center's servers and links, which transit traffic comes in on. */
  servers: string[];
  links: string[];
  /** The routing table ids reserved for the network's transit (from tunnels, from links). */
  tables: { fromTunnels: number; fromLinks: number };
}

/** A route: the devices of its paths, or unreachable. */
export type Target = string[] | 'unreachable';

export interface TransitTables {
  network: string;
  /** Routing table ids and what each holds: 'local' holds nothing (traffic falls through to the main table). */
  fromTunnels: { table: number; target: Target | 'local'; iifs: string[] };
  fromLinks: { table: number; target: Target | 'local'; iifs: string[] };
}

export interface Desired {
  /** Main-table routes by prefix. */
  routes: Map<string, Target>;
  /** The devices carrying a received default route, or null. */
  defaultVia: string[] | null;
  transit: TransitTables[];
  forwarding: boolean;
  balance: boolean;
  /** Masquerade for an advertiser: every network prefix it must not masquerade, or null. */
  nat: string[] | null;
  dns: string[];
}

const isLink = (instance: string) => instance.startsWith('link-') || instance.startsWith('mesh-');

/**
 * The devices of the best candidates that are ready, or null when none is ('local' is always ready). A
 * path held down after a failure is used only when no ready one is left: better a path that may fail
 * again than none.
 */
export function choose(vias: Via[], view: NetworkView, balance: boolean): string[] | 'local' | null {
  const up = (wanted: PathState) => vias.filter((v) => v.via === 'local' || (view.devOf(v.via) !== null && view.state(v.via, v.client) === wanted));
  let live = up('ready');
  if (live.length === 0) live = up('held');
  if (live.length === 0) return null;
  const best = bestPaths(live, balance);
  if (best.some((v) => v.via === 'local')) return 'local';
  return [...new Set(best.map((v) => view.devOf(v.via)!))].sort();
}

export function desiredState(views: NetworkView[]): Desired {
  const routes = new Map<string, Target>();
  let defaultVia: string[] | null = null;
  const transit: TransitTables[] = [];
  const nat = new Set<string>();
  const dns: string[] = [];
  let natOn = false;
  for (const view of [...views].sort((a, b) => (a.number < b.number ? -1 : 1))) {
    const c = view.config;
    const own = new Set(c.lan);
    // A prefix another network routed first keeps that route.
    const put = (prefix: string, target: Target) => {
      if (!own.has(prefix) && !routes.has(prefix)) routes.set(prefix, target);
    };
    for (const prefix of c.blocked) put(prefix, 'unreachable');
    for (const g of c.routes) {
      const target = choose(g.via.filter((v) => v.via !== 'local'), view, c.balance);
      for (const prefix of g.prefixes) {
        if (prefix === DEFAULT_PREFIX) {
          if (defaultVia === null && Array.isArray(target)) defaultVia = target;
          continue;
        }
        put(prefix, Array.isArray(target) ? target : 'unreachable');
      }
    }
    if (c.transit) {
      const table = (id: number, vias: Via[], iifs: string[]) => {
        const target = vias.length === 0 ? null : choose(vias, view, c.balance);
        return { table: id, target: target ?? ('unreachable' as const), iifs };
      };
      transit.push({
        network: view.number,
        fromTunnels: table(view.tables.fromTunnels, c.transit, view.servers),
        // What came over a link never goes back over a link: no loop between two centers.
        fromLinks: table(view.tables.fromLinks, c.transit.filter((v) => !isLink(v.via)), view.links),
      });
    }
    if (c.nat) natOn = true;
    for (const p of c.internal) nat.add(p);
    for (const d of c.dns) if (!dns.includes(d)) dns.push(d);
  }
  return {
    routes,
    defaultVia,
    transit,
    forwarding: views.some((v) => v.config.forwarding),
    balance: views.some((v) => v.config.balance),
    nat: natOn ? [...nat] : null,
    dns,
  };
}
