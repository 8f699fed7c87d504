import type { MemberInput, RouteGroup, RouteVia } from './model';
import type { LinkPlan } from './plan';
import { serviceOf } from './plan';
import { lanOf, linkedOf, linkName, peerOf, type Shared } from './shared';

/*
 * The members' route groups: for every prefix of the network, the paths a member can send it on, with
 * their costs (model.ts RouteGroup). Costs add up along the path — a point's tunnel to a center, a
 * center's link to another center, a center's hop to one of its clients — so the agent, which knows
 * which paths are up, takes the cheapest live one, and the others are the failover.
 *
 * Every permit row is routed statically, dynamic routing or not: BGP only adds the more specific routes
 * the owner learned (through the prefix lists), so a member whose dynamic routing fails (FRR missing,
 * a session down) is still reached at its rows.
 */

/** Path costs: a point's tunnel, a center's client hop, the twin-center link, an interconnect link. */
export const COST = { tunnel: 10, client: 10, twin: 10, mesh: 11 } as const;
/** A default-route path costs the advertiser's metric (30–150) times this plus its path: priority first, then distance. */
const DEFAULT_WEIGHT = 10;
export const DEFAULT_PREFIX = '0.0.0.0/0';

const linkCost = (l: LinkPlan) => (l.kind === 'twin' ? COST.twin : COST.mesh);
const linkRank = (l: LinkPlan) => (l.kind === 'twin' ? 0 : 1);

/** prefix → via (with client) → the cheapest candidate. */
class Table {
  private readonly rows = new Map<string, Map<string, RouteVia>>();

  add(prefix: string, via: string, client: string | null, cost: number, rank: number): void {
    let row = this.rows.get(prefix);
    if (!row) this.rows.set(prefix, (row = new Map()));
    const key = `${via}\n${client ?? ''}`;
    const known = row.get(key);
    if (!known || cost < known.cost) row.set(key, { via, client, cost, rank });
  }

  addAll(prefixes: readonly string[], via: string, client: string | null, cost: number, rank: number): void {
    for (const p of prefixes) this.add(p, via, client, cost, rank);
  }

  /** Prefixes with the same candidates go together; groups and their candidates come out in a fixed order. */
  groups(): RouteGroup[] {
    const byVia = new Map<string, RouteGroup>();
    for (const [prefix, row] of this.rows) {
      const via = [...row.values()].sort((a, b) => a.cost - b.cost || a.rank - b.rank || compare(a.via, b.via) || compare(a.client ?? '', b.client ?? ''));
      const key = JSON.stringify(via);
      const group = byVia.get(key);
      if (group) group.prefixes.push(prefix);
      else byVia.set(key, { prefixes: [prefix], via });
    }
    return [...byVia.values()].sort((a, b) => compare(JSON.stringify(a.via), JSON.stringify(b.via)));
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A point's routes: through each tunnel, its center's LAN and subnets, the points that center carries,
 * and what lies behind that center's links. Points with the same centers and the same dynamic-routing
 * flag share one list (which therefore names their own LANs too: the agent never routes its own LAN
 * away). A receiver of the default route has one group more.
 */
export function pointRoutes(shared: Shared, p: MemberInput): RouteGroup[] {
  const linked = linkedOf(shared, p);
  const signature = linked.map((c) => c.router_name).join('\n');
  let groups = shared.routeCache.get(signature) as RouteGroup[] | undefined;
  if (!groups) {
    groups = networkRoutes(shared, linked);
    shared.routeCache.set(signature, groups);
  }
  const fallback = p.default_route === 2 ? pointDefault(shared, p, linked) : null;
  return fallback ? [...groups, fallback] : groups;
}

function networkRoutes(shared: Shared, linked: MemberInput[]): RouteGroup[] {
  const t = new Table();
  const lan = (m: MemberInput) => lanOf(shared, m);
  for (const c of linked) {
    const tunnel = shared.tunnelName(c);
    const rank = shared.rankOf(c);
    t.addAll(lan(c), tunnel, null, COST.tunnel, rank);
    t.addAll(shared.subnetsOf(c), tunnel, null, COST.tunnel, rank);
    for (const q of shared.carried.get(c)!) t.addAll(lan(q), tunnel, null, COST.tunnel + COST.client, rank);
    for (const l of shared.linksOf(c)) {
      const d = peerOf(l, c);
      const cost = COST.tunnel + linkCost(l);
      t.addAll(lan(d), tunnel, null, cost, rank);
      t.addAll(shared.subnetsOf(d), tunnel, null, cost, rank);
      for (const q of shared.carried.get(d)!) t.addAll(lan(q), tunnel, null, cost + COST.client, rank);
    }
  }
  return t.groups();
}

/** A receiving point's default route: through each center, costed by the best advertiser reached that way. */
function pointDefault(shared: Shared, p: MemberInput, linked: MemberInput[]): RouteGroup | null {
  const t = new Table();
  for (const c of linked) {
    const tunnel = shared.tunnelName(c);
    const rank = shared.rankOf(c);
    for (const { cost } of offers(shared, c, p)) t.add(DEFAULT_PREFIX, tunnel, null, COST.tunnel + cost, rank);
  }
  return t.groups()[0] ?? null;
}

/**
 * What a center can offer toward the default route, each with its cost from the center. A center that
 * advertises it offers its own uplink alone: an advertiser always exits itself, so the receivers'
 * choice among the centers they reach is the one that counts (and a center cut off from the internet
 * but not from the other centers never draws their traffic). Another center offers the advertising
 * points it carries and, across each of its links, the other center and that center's points.
 */
function offers(shared: Shared, c: MemberInput, except: MemberInput | null): { via: string; client: string | null; cost: number; rank: number }[] {
  const price = (m: MemberInput) => m.metric * DEFAULT_WEIGHT;
  if (c.default_route === 1 && c !== except) return [{ via: 'local', client: null, cost: price(c), rank: 0 }];
  const out: { via: string; client: string | null; cost: number; rank: number }[] = [];
  for (const { member: a } of shared.advertisers) {
    if (a === except || a === c) continue;
    if (a.member_type !== 'center' && shared.carried.get(c)!.includes(a)) out.push({ via: serviceOf(a), client: a.router_name, cost: price(a) + COST.client, rank: 0 });
    for (const l of shared.linksOf(c)) {
      const d = peerOf(l, c);
      const name = linkName(l, d);
      if (a === d) out.push({ via: name, client: null, cost: price(a) + linkCost(l), rank: linkRank(l) });
      else if (a.member_type !== 'center' && shared.carried.get(d)!.includes(a)) out.push({ via: name, client: null, cost: price(a) + linkCost(l) + COST.client, rank: linkRank(l) });
    }
  }
  return out;
}

/**
 * A center's routes: each point it carries through the server of the point's service while that point
 * is connected, and what lies behind its links (the other center's LAN, subnets and points) — also the
 * way to its own points when they are connected only to the other center.
 */
export function centerRoutes(shared: Shared, c: MemberInput): RouteGroup[] {
  const t = new Table();
  const lan = (m: MemberInput) => lanOf(shared, m);
  for (const q of shared.carried.get(c)!) t.addAll(lan(q), serviceOf(q), q.router_name, COST.client, 0);
  for (const l of shared.linksOf(c)) {
    const d = peerOf(l, c);
    const name = linkName(l, d);
    const cost = linkCost(l);
    t.addAll(lan(d), name, null, cost, linkRank(l));
    t.addAll(shared.subnetsOf(d), name, null, cost, linkRank(l));
    for (const q of shared.carried.get(d)!) t.addAll(lan(q), name, null, cost + COST.client, linkRank(l));
  }
  if (c.default_route === 2) {
    for (const o of offers(shared, c, c)) if (o.via !== 'local') t.add(DEFAULT_PREFIX, o.via, o.client, o.cost, o.rank);
  }
  return t.groups();
}

/** Where a center sends the network's traffic for the internet (model.ts CenterConfig.transit), cheapest first. */
export function centerTransit(shared: Shared, c: MemberInput): RouteVia[] {
  const t = new Table();
  for (const o of offers(shared, c, null)) t.add(DEFAULT_PREFIX, o.via, o.client, o.cost, o.rank);
  return t.groups()[0]?.via ?? [];
}
