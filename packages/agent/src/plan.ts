/*
 * What the agent reads from the compiler's structured JSON (packages/server/src/compiler/model.ts,
 * MemberJson): the links a member has and which OpenVPN instance (.conf file) carries each. The JSON
 * comes over the wire, so it is read defensively: a missing field means no link, not a crash.
 */

export interface PlannedLink {
  /** The .conf file whose instance carries the link (as the compiler's renderer names it). */
  conf: string;
  /** The peer's router_name. */
  peer: string;
  /** The point-side address of the link (the address the point gets from the center). */
  vpn_ip: string;
  /** The instance serves this peer (a center) or dials it (a point, a link's client end). */
  role: 'server' | 'client';
  /** A link between two centers (twin or interconnect), not a point's tunnel. */
  between_centers: boolean;
  /** Set when a point reaches its center through a POP area first. */
  pop: { name: string } | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function plannedLinks(config: Record<string, unknown>): PlannedLink[] {
  const links: PlannedLink[] = [];
  if (config.member_type === 'center') {
    for (const s of arr(config.services)) {
      for (const c of arr(s.clients)) {
        if (str(c.router_name)) links.push({ conf: `${str(s.service)}.conf`, peer: str(c.router_name), vpn_ip: str(c.address), role: 'server', between_centers: false, pop: null });
      }
    }
    for (const l of arr(config.links)) {
      if (!str(l.peer) || !str(l.name)) continue;
      const server = l.role === 'server';
      links.push({ conf: `${str(l.name)}.conf`, peer: str(l.peer), vpn_ip: server ? str(l.peer_address) : str(l.address), role: server ? 'server' : 'client', between_centers: true, pop: null });
    }
    return links;
  }
  for (const t of arr(config.tunnels)) {
    if (!str(t.center) || !str(t.name)) continue;
    const first = arr(t.remotes)[0];
    const pop = first && first.via === 'pop' ? { name: str(first.name) } : null;
    links.push({ conf: `${str(t.name)}.conf`, peer: str(t.center), vpn_ip: str(t.address), role: 'client', between_centers: false, pop });
  }
  return links;
}

/** The remotes a point's tunnel dials: which center (or POP area) answered at which host. */
export function tunnelRemotes(config: Record<string, unknown>, conf: string): { host: string; port: number; via: string; name: string }[] {
  const tunnel = arr(config.tunnels).find((t) => `${str(t.name)}.conf` === conf);
  return arr(tunnel?.remotes).map((r) => ({ host: str(r.host), port: typeof r.port === 'number' ? r.port : 0, via: str(r.via), name: str(r.name) }));
}

/** Every host the member's instances dial (tunnels' remotes, links' remotes): they must bypass a received default route. */
export function dialledHosts(config: Record<string, unknown>): string[] {
  const hosts = [...arr(config.tunnels).flatMap((t) => arr(t.remotes).map((r) => str(r.host))), ...arr(config.links).map((l) => str(obj(l.remote).host))];
  return [...new Set(hosts.filter(Boolean))];
}
