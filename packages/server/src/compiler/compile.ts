import { networkOf } from './ip';
import type {
  CenterConfig,
  CommonConfig,
  CompiledNetwork,
  LinkConfig,
  MemberConfig,
  MemberInput,
  NetworkInput,
  PointConfig,
  PrefixListEntry,
  Remote,
  ServiceClient,
  ServiceConfig,
  Tunnel,
} from './model';
import { centerAddressOf, hostAt, planAddresses, SERVICES, serviceOf, type AddressPlan, type Service } from './plan';
import { renderMember } from './render';

/*
 * compileNetwork: one network in, one configuration per member out, as structured JSON and as OpenVPN
 * files rendered from that JSON. Pure and deterministic: nothing but the input is read, and every list
 * comes out in an order fixed by the input's order or by sorting.
 */

export const DATA_CIPHERS = {
  default: ['AES-256-GCM', 'AES-128-GCM', 'CHACHA20-POLY1305'],
  // OpenSSL 3 offers SM4 in CBC mode only, so the national standard pairs it with SM3 for the HMAC.
  sm: ['SM4-CBC'],
} as const;
const SM_AUTH = 'SM3';
export const DEFAULT_PORTS: Record<Service, number> = { router: 1194, software: 1195 };
export const LINK_PORT = 1196;
/** A dual-primary point's tunnels get these route metrics in center order, so routes through the first center win. */
const ROUTE_METRIC_BASE = 100;

const DIAL = { default: 1, centerFirst: 2, popFirst: 3 } as const;
const DEFAULT_ROUTE_MODES = ['off', 'advertise', 'receive'] as const;

const cidr = (network: string, mask: number) => `${network}/${mask}`;

/**
 * The results of an earlier compile of the same network, each under a key made of everything it was
 * built from: the points' configurations and the client entries of the centers' configurations. Given
 * one, compileNetwork reuses whatever's key is unchanged (the same objects, so their stored form is
 * not written out again either); the output is the same as without.
 */
export class CompileMemo {
  /** What every point's result reads besides its own settings, prefixes and addresses, last time. */
  context = '';
  points = new Map<string, { key: string; config: MemberConfig }>();
  /** By center and point name. */
  clients = new Map<string, ClientEntry>();
  readonly inputKeys = new WeakMap<MemberInput, string>();
}

interface ClientEntry {
  center: string;
  point: string;
  client: ServiceClient;
}

/** How a center gets a point's client entry: made afresh, or the remembered one when nothing it reads changed. */
type ClientSource = (center: MemberInput, point: MemberInput, make: () => ServiceClient) => ServiceClient;
const fresh: ClientSource = (_c, _p, make) => make();

export function compileNetwork(input: NetworkInput, memo?: CompileMemo): CompiledNetwork {
  const centers = input.members.filter((m) => m.member_type === 'center');
  const points = input.members.filter((m) => m.member_type !== 'center');
  const plan = planAddresses(input, centers, points);
  const shared = sharedParts(input, centers, points);
  // Every address first, so the plan's warnings are complete before any center's list is taken.
  for (const p of points) for (const c of linkedOf(shared, p)) plan.addressOf(p, c);
  const build = (m: MemberInput, clients: ClientSource): MemberConfig => {
    const json = m.member_type === 'center' ? centerConfig(input, m, centers, points, plan, shared, clients) : pointConfig(input, m, plan, shared);
    return { router_name: m.router_name, role: m.member_type === 'center' ? 'server' : 'client', json, openvpn: renderMember(json) };
  };
  if (!memo) return { network_number: input.network_number, members: input.members.map((m) => build(m, fresh)) };

  const context = JSON.stringify([input.network_number, input.routing_type, input.ncp_ciphers, input.mode, input.dns, input.pop_areas, shared.centerOrder, shared.advertisers]);
  const previous = context === memo.context ? memo : null;
  memo.context = context;
  const inputKey = (m: MemberInput) => {
    let key = memo.inputKeys.get(m);
    if (key === undefined) memo.inputKeys.set(m, (key = JSON.stringify(m)));
    return key;
  };
  const pointKeys = new Map<string, string>();
  for (const p of points) {
    const own = shared.prefixLists.get(p.router_name.toLowerCase()) ?? null;
    pointKeys.set(p.router_name, `${inputKey(p)}\n${JSON.stringify(own)}\n${linkedOf(shared, p).map((c) => plan.addressOf(p, c)).join(',')}`);
  }

  const clients = new Map<string, ClientEntry>();
  const reuse: ClientSource = (c, p, make) => {
    const name = `${c.router_name}\n${p.router_name}`;
    const center = inputKey(c);
    const point = pointKeys.get(p.router_name)!;
    const hit = previous?.clients.get(name);
    const entry = hit && hit.center === center && hit.point === point ? hit : { center, point, client: make() };
    clients.set(name, entry);
    return entry.client;
  };
  const kept = new Map<string, { key: string; config: MemberConfig }>();
  const members = input.members.map((m) => {
    if (m.member_type === 'center') return build(m, reuse);
    const key = pointKeys.get(m.router_name)!;
    const hit = previous?.points.get(m.router_name);
    const entry = hit && hit.key === key ? hit : { key, config: build(m, fresh) };
    kept.set(m.router_name, entry);
    return entry.config;
  });
  memo.points = kept;
  memo.clients = clients;
  return { network_number: input.network_number, members };
}

interface Shared {
  /** The input's list copied: outputs never share an array with the input. */
  dns: string[];
  /** Permit prefixes by owner (lower-cased name), as CIDR. */
  lans: Map<string, string[]>;
  prefixLists: Map<string, PrefixListEntry[]>;
  ciphers: CommonConfig['ciphers'];
  advertisers: { router_name: string; metric: number; center: boolean }[];
  /** The order points attach to centers: input order, main lines first in main-backup routing. */
  centerOrder: MemberInput[];
  /** Each point's centers in that order: those of its link_centers, or all when it names none of them. */
  linked: Map<MemberInput, MemberInput[]>;
}

const linkedOf = (shared: Shared, p: MemberInput) => shared.linked.get(p) ?? shared.centerOrder;

function sharedParts(input: NetworkInput, centers: MemberInput[], points: MemberInput[]): Shared {
  const present = new Set(input.members.map((m) => m.router_name.toLowerCase()));
  const lans = new Map<string, string[]>();
  const prefixLists = new Map<string, PrefixListEntry[]>();
  for (const p of input.prefixes) {
    const owner = p.router_name.toLowerCase();
    if (!present.has(owner)) continue;
    const prefix = cidr(networkOf(p.ip, p.mask), p.mask);
    const list = prefixLists.get(owner) ?? [];
    list.push({ seq: (list.length + 1) * 10, action: p.permission, prefix, ge: p.ge, le: p.le });
    prefixLists.set(owner, list);
    if (p.permission === 'permit') {
      const own = lans.get(owner) ?? [];
      if (!own.includes(prefix)) own.push(prefix);
      lans.set(owner, own);
    }
  }
  const advertisers = input.members
    .filter((m) => m.default_route === 1)
    .map((m) => ({ router_name: m.router_name, metric: m.metric, center: m.member_type === 'center' }))
    .sort((a, b) => a.metric - b.metric || (a.router_name < b.router_name ? -1 : a.router_name > b.router_name ? 1 : 0));
  const centerOrder = input.routing_type === 2 ? [...centers.filter((c) => c.routing === 1), ...centers.filter((c) => c.routing !== 1)] : centers;
  const linked = new Map<MemberInput, MemberInput[]>();
  for (const p of points) {
    if (!p.link_centers) continue;
    const names = new Set(p.link_centers.map((n) => n.toLowerCase()));
    const chosen = centerOrder.filter((c) => names.has(c.router_name.toLowerCase()));
    // A list naming no center (all of them gone) would cut the point off: it links to every center instead.
    if (chosen.length > 0 && chosen.length < centerOrder.length) linked.set(p, chosen);
  }
  return {
    dns: [...input.dns],
    lans,
    prefixLists,
    ciphers: {
      ncp_ciphers: input.ncp_ciphers,
      data_ciphers: [...DATA_CIPHERS[input.ncp_ciphers === 'sm' ? 'sm' : 'default']],
      auth: input.ncp_ciphers === 'sm' ? SM_AUTH : null,
    },
    advertisers,
    centerOrder,
    linked,
  };
}

const lanOf = (shared: Shared, m: MemberInput) => shared.lans.get(m.router_name.toLowerCase()) ?? [];

function common(input: NetworkInput, m: MemberInput, shared: Shared): CommonConfig {
  const mode = DEFAULT_ROUTE_MODES[m.default_route] ?? 'off';
  return {
    network_number: input.network_number,
    router_name: m.router_name,
    router_type: m.router_type,
    ciphers: shared.ciphers,
    dns: shared.dns,
    lan: lanOf(shared, m),
    quagga: { enabled: m.quagga === 1, prefix_list: shared.prefixLists.get(m.router_name.toLowerCase()) ?? [] },
    default_route: {
      mode,
      metric: mode === 'advertise' ? m.metric : null,
      from: mode === 'receive' ? shared.advertisers.filter((a) => a.router_name !== m.router_name).map(({ router_name, metric }) => ({ router_name, metric })) : [],
    },
  };
}

/** Where a point dials a center's service. */
function centerRemote(center: MemberInput, service: Service): Remote {
  const fixed = center.fixed_port[service];
  return { host: fixed?.public_ip || center.public_host || center.router_name, port: fixed?.public_port || fixed?.static_port || DEFAULT_PORTS[service], via: 'center', name: center.router_name };
}

function popRemotes(input: NetworkInput, m: MemberInput): Remote[] {
  const out: Remote[] = [];
  for (const id of [m.ov.main, m.ov.backup]) {
    const area = id ? input.pop_areas.find((a) => a.id === id) : undefined;
    if (area?.host && !out.some((r) => r.name === area.name)) out.push({ host: area.host, port: area.port, via: 'pop', name: area.name });
  }
  return out;
}

/** A member's own dial mode, else the network's line mode. */
const dialModeOf = (input: NetworkInput, m: MemberInput) => (m.mode === DIAL.centerFirst || m.mode === DIAL.popFirst ? m.mode : input.mode === DIAL.centerFirst || input.mode === DIAL.popFirst ? input.mode : DIAL.default);

function pointConfig(input: NetworkInput, p: MemberInput, plan: AddressPlan, shared: Shared): PointConfig {
  const service = serviceOf(p);
  const dialMode = dialModeOf(input, p);
  const pops = popRemotes(input, p);
  const ordered = (direct: Remote[]) => (dialMode === DIAL.popFirst ? [...pops, ...direct] : [...direct, ...pops]);
  const attach = (c: MemberInput) => ({ router_name: c.router_name, address: plan.addressOf(p, c) });
  const linked = linkedOf(shared, p);
  const tunnels: Tunnel[] =
    input.routing_type === 2 && linked.length > 1
      ? [{ name: 'hub', centers: linked.map(attach), remotes: ordered(linked.map((c) => centerRemote(c, service))), route_metric: ROUTE_METRIC_BASE }]
      : linked.map((c, i) => ({
          name: `center-${c.router_name}`,
          centers: [attach(c)],
          remotes: ordered([centerRemote(c, service)]),
          route_metric: ROUTE_METRIC_BASE + i,
        }));
  return {
    ...common(input, p, shared),
    member_type: 'point',
    service,
    dial_mode: dialMode,
    local_port: p.fixed_port[service]?.static_port ?? null,
    tunnels,
  };
}

function centerConfig(
  input: NetworkInput,
  c: MemberInput,
  centers: MemberInput[],
  points: MemberInput[],
  plan: AddressPlan,
  shared: Shared,
  clientOf: ClientSource,
): CenterConfig {
  const subnets = plan.subnets.get(c.router_name)!;
  const peer = plan.link && (plan.link.server === c ? plan.link.client : plan.link.client === c ? plan.link.server : null);
  // A center carries only the points linked to it: it lists, routes and pushes those alone.
  const carried = points.filter((p) => linkedOf(shared, p).includes(c));
  const pointLans = carried.flatMap((p) => lanOf(shared, p));
  const pushRoutes = [...lanOf(shared, c), ...(peer ? lanOf(shared, peer) : []), ...pointLans];
  const advertises = c.default_route === 1;
  const services: ServiceConfig[] = SERVICES.map((service) => {
    const subnet = subnets[service];
    const own = carried.filter((p) => serviceOf(p) === service);
    const remote = centerRemote(c, service);
    return {
      service,
      port: c.fixed_port[service]?.static_port ?? DEFAULT_PORTS[service],
      subnet: cidr(subnet.network, subnet.mask),
      address: centerAddressOf(subnet),
      public: { host: remote.host, port: remote.port },
      clients: own.map((p) =>
        clientOf(c, p, () => {
          const fixed = p.fixed_port[service];
          return {
            router_name: p.router_name,
            address: plan.addressOf(p, c),
            lan: lanOf(shared, p),
            dial_mode: dialModeOf(input, p),
            endpoint: fixed ? { public_ip: fixed.public_ip, public_port: fixed.public_port } : null,
            redirect_gateway: advertises && p.default_route === 2,
          };
        }),
      ),
    };
  });
  return {
    ...common(input, c, shared),
    member_type: 'center',
    push_routes: pushRoutes,
    services,
    center_link: peer && plan.link ? linkConfig(plan, c, peer, shared) : null,
    warnings: [...plan.warnings],
  };
}

function linkConfig(plan: AddressPlan, c: MemberInput, peer: MemberInput, shared: Shared): LinkConfig {
  const link = plan.link!;
  const isServer = link.server === c;
  const serverAddress = hostAt(link.segment, 1);
  const clientAddress = hostAt(link.segment, 2);
  const port = link.endpoint?.static_port || LINK_PORT;
  return {
    role: isServer ? 'server' : 'client',
    peer: peer.router_name,
    segment: cidr(link.segment.network, link.segment.mask),
    address: isServer ? serverAddress : clientAddress,
    peer_address: isServer ? clientAddress : serverAddress,
    port,
    remote: isServer ? null : { host: link.endpoint?.public_ip || link.server.public_host || link.server.router_name, port: link.endpoint?.public_port || port },
    routes: lanOf(shared, peer),
  };
}
