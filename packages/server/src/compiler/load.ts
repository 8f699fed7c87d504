import type { Db } from '../db/connect';
import { networkOf, parseCidr } from './ip';
import type { Endpoint, MemberInput, NetworkInput, Segment } from './model';
import { assignRelayPorts } from './relayPorts';

/*
 * Reads one network of a tenant into the compiler's input: the network row (DNS and pools as JSON),
 * its members in the order they joined with their settings, and the areas of its POP resource with
 * their relays' ports (allocated on the way: compiler/relayPorts.ts).
 * JSON columns are read defensively: a malformed value counts as not set.
 */

export interface LoadedNetwork {
  input: NetworkInput;
  /** member ids by router_name, for storing each member's result. */
  memberIds: Map<string, number>;
}

export async function loadNetwork(db: Db, tenantId: number, networkId: number): Promise<LoadedNetwork | null> {
  const net = await db
    .selectFrom('network')
    .select(['network_number', 'routing_type', 'ncp_ciphers', 'mode', 'dns', 'ip_pool', 'network_fr_id', 'center_link', 'center_link_network', 'interconnect', 'interconnect_network'])
    .where('id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!net) return null;
  const rows = await db
    .selectFrom('network_member as nm')
    .innerJoin('member as m', 'm.id', 'nm.member_id')
    .select([
      'nm.member_id',
      'm.router_name',
      'm.router_type',
      'm.router_ipv4',
      'nm.member_type',
      'nm.routing',
      'nm.default_route',
      'nm.metric',
      'nm.quagga',
      'nm.mode',
      'nm.ov_main',
      'nm.ov_backup',
      'nm.ov_priority',
      'nm.gateway',
      'nm.fixed_port',
      'nm.link_centers',
    ])
    .where('nm.network_id', '=', networkId)
    .where('nm.tenant_id', '=', tenantId)
    .where('m.tenant_id', '=', tenantId)
    .orderBy('nm.id')
    .execute();
  const areas = net.network_fr_id
    ? await db
        .selectFrom('network_fr_area')
        .select(['id', 'name', 'host', 'port'])
        .where('network_fr_id', '=', net.network_fr_id)
        .where('tenant_id', '=', tenantId)
        .orderBy('id')
        .execute()
    : [];

  const prefixes = await db
    .selectFrom('network_prefix')
    .select(['name', 'ip', 'mask', 'permission', 'ge', 'le'])
    .where('network_id', '=', networkId)
    .where('tenant_id', '=', tenantId)
    .orderBy('position')
    .execute();

  const pools = objectOf(net.ip_pool);
  const centerNames = new Map(rows.filter((r) => r.member_type === 'center').map((r) => [r.member_id, r.router_name]));
  const members: MemberInput[] = rows.map((r) => {
    const gateway = objectOf(r.gateway);
    const fixed = objectOf(r.fixed_port);
    return {
      router_name: r.router_name,
      public_host: r.router_ipv4,
      router_type: r.router_type,
      member_type: r.member_type === 'center' ? 'center' : 'point',
      routing: r.routing,
      default_route: r.default_route,
      metric: r.metric,
      quagga: r.quagga,
      mode: r.mode,
      fixed_port: { router: endpointOf(fixed.router), software: endpointOf(fixed.software) },
      gateway: { router: segmentOf(gateway.router), software: segmentOf(gateway.software) },
      ov: { main: r.ov_main, backup: r.ov_backup, priority: r.ov_priority },
      link_centers: r.member_type === 'center' ? null : linkCentersOf(r.link_centers, centerNames),
    };
  });
  const memberIds = new Map(rows.map((r) => [r.router_name, r.member_id]));
  // The relays' ports are allocated here, in the recompile's transaction, so the pure compile gets them as input.
  const relays = await assignRelayPorts(db, tenantId, networkId, areas, members, memberIds);
  return {
    input: {
      network_number: net.network_number,
      routing_type: net.routing_type,
      ncp_ciphers: net.ncp_ciphers === 'sm' ? 'sm' : 'default',
      mode: net.mode,
      dns: listOf(net.dns).filter((d): d is string => typeof d === 'string'),
      prefixes: prefixes.map((p) => ({
        router_name: p.name,
        ip: p.ip,
        mask: p.mask,
        permission: p.permission === 'deny' ? 'deny' : 'permit',
        ge: p.ge,
        le: p.le,
      })),
      members,
      pools: {
        center_network: parseCidr(pools.center_network),
        center_link_network: parseCidr(pools.center_link_network),
        pop: parseCidr(pools.pop),
        pop_software: parseCidr(pools.pop_software),
      },
      center_link: net.center_link === 1 ? centerLinkOf(objectOf(net.center_link_network)) : null,
      interconnect: net.interconnect === 1 ? { segment: segmentOf(objectOf(net.interconnect_network)) } : null,
      pop_areas: areas.map((a) => ({ id: a.id, name: a.name, host: a.host, port: a.port, relays: relays.get(a.id) ?? [] })),
    },
    memberIds,
  };
}

/** The networks a member is a center of (its reported address is where others dial it there). */
export async function centerNetworksOf(db: Db, tenantId: number, memberId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('network_member')
    .select('network_id')
    .where('member_id', '=', memberId)
    .where('tenant_id', '=', tenantId)
    .where('member_type', '=', 'center')
    .execute();
  return rows.map((r) => r.network_id);
}

/**
 * network_member.link_centers (center member ids) as the centers' names. An id that is no longer a
 * center is dropped; when none is left the point links to every center (null), so it is never cut off.
 */
function linkCentersOf(text: string | null, centerNames: Map<number, string>): string[] | null {
  const ids = text === null ? null : parse(text);
  if (!Array.isArray(ids)) return null;
  const names = [...centerNames].filter(([id]) => ids.includes(id)).map(([, name]) => name);
  return names.length > 0 ? names : null;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function objectOf(text: string): Record<string, unknown> {
  const v = parse(text);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function listOf(text: string): unknown[] {
  const v = parse(text);
  return Array.isArray(v) ? v : [];
}

const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;
const isIp = (v: unknown): v is string => typeof v === 'string' && IPV4.test(v) && v.split('.').every((o) => Number(o) <= 255);
const isPort = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535;

function segmentOf(v: unknown): Segment | null {
  if (!v || typeof v !== 'object') return null;
  const { gateway, mask } = v as { gateway?: unknown; mask?: unknown };
  const m = Number(mask);
  if (!isIp(gateway) || !Number.isInteger(m) || m < 1 || m > 30) return null;
  return { network: networkOf(gateway, m), mask: m };
}

/** The twin-center link as stored (network.center_link_network); null without its server. */
function centerLinkOf(v: Record<string, unknown>): NetworkInput['center_link'] {
  if (typeof v.center_router_name !== 'string' || v.center_router_name === '') return null;
  return { gateway: segmentOf(v), center_router_name: v.center_router_name, endpoint: isIp(v.public_ip) ? endpointOf(v) : null };
}

function endpointOf(v: unknown): Endpoint | null {
  if (!v || typeof v !== 'object') return null;
  const { public_ip, public_port, static_port } = v as Record<string, unknown>;
  const pub = Number(public_port);
  const local = Number(static_port);
  if (!isPort(pub) || !isPort(local)) return null;
  return { public_ip: isIp(public_ip) ? public_ip : '', public_port: pub, static_port: local };
}
