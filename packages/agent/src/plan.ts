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
  /** The instance serves this peer (a center) or dials it (a point, the twin link's client). */
  role: 'server' | 'client';
  /** Set when a point reaches its center through a POP area first. */
  pop: { name: string } | null;
  /** A main-backup tunnel: only the first center of the tunnel is up at a time. */
  standby: boolean;
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
        if (str(c.router_name)) links.push({ conf: `${str(s.service)}.conf`, peer: str(c.router_name), vpn_ip: str(c.address), role: 'server', pop: null, standby: false });
      }
    }
    const l = obj(config.center_link);
    if (str(l.peer)) {
      const server = l.role === 'server';
      links.push({ conf: 'center-link.conf', peer: str(l.peer), vpn_ip: server ? str(l.peer_address) : str(l.address), role: server ? 'server' : 'client', pop: null, standby: false });
    }
    return links;
  }
  for (const t of arr(config.tunnels)) {
    const first = arr(t.remotes)[0];
    const pop = first && first.via === 'pop' ? { name: str(first.name) } : null;
    arr(t.centers).forEach((c, i) => {
      if (str(c.router_name)) links.push({ conf: `${str(t.name)}.conf`, peer: str(c.router_name), vpn_ip: str(c.address), role: 'client', pop, standby: i > 0 });
    });
  }
  return links;
}

/** The remote a point's tunnel dials at `host`: which center (or POP area) answered. */
export function tunnelRemotes(config: Record<string, unknown>, conf: string): { host: string; port: number; via: string; name: string }[] {
  const tunnel = arr(config.tunnels).find((t) => `${str(t.name)}.conf` === conf);
  return arr(tunnel?.remotes).map((r) => ({ host: str(r.host), port: typeof r.port === 'number' ? r.port : 0, via: str(r.via), name: str(r.name) }));
}
