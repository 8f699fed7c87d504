import { POOL_KEYS, ROUTING_TYPE, type CenterLinkNetwork, type CenterLinkView, type FixedPortService, type IpPool, type SegmentValue } from '@hublink/contract';

/*
 * The JSON columns of the segment settings, read back into the contract's shapes. A column holds what
 * segments.ts wrote; anything else (an older or hand-edited value) reads as unset rather than failing
 * the network detail.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parsed(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function segmentFrom(v: unknown): SegmentValue | null {
  if (!isObject(v) || typeof v.gateway !== 'string' || v.gateway === '' || typeof v.mask !== 'number') return null;
  return { gateway: v.gateway, mask: v.mask };
}

function fixedPortFrom(v: unknown): FixedPortService | null {
  if (!isObject(v)) return null;
  return { public_ip: str(v.public_ip), public_port: num(v.public_port), static_port: num(v.static_port) };
}

/** network_member.gateway: a center's segments for hardware and software clients. */
export function memberGateway(text: string): { router: SegmentValue | null; software: SegmentValue | null } {
  const v = parsed(text);
  return isObject(v) ? { router: segmentFrom(v.router), software: segmentFrom(v.software) } : { router: null, software: null };
}

/** network_member.fixed_port: a center's fixed ports for its hardware and software services. */
export function memberFixedPort(text: string): { router: FixedPortService | null; software: FixedPortService | null } {
  const v = parsed(text);
  return isObject(v) ? { router: fixedPortFrom(v.router), software: fixedPortFrom(v.software) } : { router: null, software: null };
}

/** network.center_link_network: the twin-center link, '' and 0 where unset. */
export function centerLinkFrom(text: string): CenterLinkNetwork {
  const v = parsed(text);
  const o = isObject(v) ? v : {};
  return {
    gateway: str(o.gateway),
    mask: num(o.mask),
    public_ip: str(o.public_ip),
    public_port: num(o.public_port),
    static_port: num(o.static_port),
    center_router_name: str(o.center_router_name),
  };
}

/** The twin-center link with its line mode: the network's routing type (1 dual primary, 2 main-backup). */
export function centerLinkViewOf(net: { center_link_network: string; routing_type: number }): CenterLinkView {
  return { ...centerLinkFrom(net.center_link_network), line_mode: net.routing_type === ROUTING_TYPE.mainBackup ? ROUTING_TYPE.mainBackup : ROUTING_TYPE.dual };
}

/** network.interconnect_network: the interconnect segment. */
export const interconnectFrom = (text: string): SegmentValue | null => segmentFrom(parsed(text));

/** network.ip_pool, every pool a string ('' for none). */
export function poolFrom(text: string): IpPool {
  const v = parsed(text);
  const out: IpPool = { pop: '', center_link_network: '', center_network: '', pop_software: '', other: '' };
  if (isObject(v)) for (const k of POOL_KEYS) if (typeof v[k] === 'string') out[k] = v[k];
  return out;
}

/** The CIDR strings of network.ip_pool (a string or a list of them per pool; '' unset). */
export function poolCidrs(text: string): string[] {
  const v = parsed(text);
  if (!isObject(v)) return [];
  return Object.values(v).flatMap((p) => (Array.isArray(p) ? p : [p])).filter((p): p is string => typeof p === 'string' && p !== '');
}

/** network_member.link_centers: center member ids, or null for every center. */
export function linkCentersFrom(text: string | null): number[] | null {
  const v = parsed(text);
  return Array.isArray(v) ? v.filter((id): id is number => typeof id === 'number') : null;
}
