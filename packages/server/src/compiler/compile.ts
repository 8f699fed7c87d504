import type {
  CenterConfig,
  CommonConfig,
  CompiledNetwork,
  LinkConfig,
  MemberConfig,
  MemberInput,
  NetworkInput,
  PointConfig,
  Remote,
  ServiceClient,
  ServiceConfig,
  Timers,
  Tunnel,
} from './model';
import { centerAddressOf, hostAt, planAddresses, SERVICES, serviceOf, type AddressPlan, type LinkPlan, type Service } from './plan';
import { renderMember } from './render';
import { dynamicOf } from './dynamic';
import { buildShared, cidr, lanOf, linkedOf, linkName, type Shared } from './shared';
import { centerRoutes, centerTransit, pointRoutes } from './routing';

/*
 * compileNetwork: one network in, one configuration per member out, as structured JSON and as OpenVPN
 * files rendered from that JSON. Pure and deterministic: nothing but the input is read, and every list
 * comes out in an order fixed by the input's order or by sorting. docs/networking.md says what each
 * setting becomes on a device.
 */

export const DATA_CIPHERS = {
  default: ['AES-256-GCM', 'AES-128-GCM', 'CHACHA20-POLY1305'],
  // OpenSSL 3 offers SM4 in CBC mode only, so the national standard pairs it with SM3 for the HMAC.
  sm: ['SM4-CBC'],
} as const;
const SM_AUTH = 'SM3';
export const DEFAULT_PORTS: Record<Service, number> = { router: 1194, software: 1195 };

/**
 * A dead path is noticed after ping_restart seconds without a packet (pings go every second, so a lossy
 * link must lose five in a row); failover then takes the time of a route change. A path that comes back
 * is used after the hold-down, longer for a path that keeps failing (docs/networking.md, "Failover").
 */
export const TIMERS: Timers = { ping: 1, ping_restart: 5, hold_down: 5, hold_down_max: 30, flap_window: 120 };

const DIAL = { default: 1, centerFirst: 2, popFirst: 3 } as const;
const DEFAULT_ROUTE_MODES = ['off', 'advertise', 'receive'] as const;

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
  const shared = buildShared(input, centers, points, plan);
  // Every address first, so the plan's warnings are complete before any center's list is taken.
  for (const p of points) for (const c of linkedOf(shared, p)) plan.addressOf(p, c);
  const build = (m: MemberInput, clients: ClientSource): MemberConfig => {
    const json = m.member_type === 'center' ? centerConfig(input, m, points, plan, shared, clients) : pointConfig(input, m, plan, shared);
    return { router_name: m.router_name, role: m.member_type === 'center' ? 'server' : 'client', json, openvpn: renderMember(json) };
  };
  if (!memo) return { network_number: input.network_number, members: input.members.map((m) => build(m, fresh)) };

  const context = JSON.stringify([input.network_number, input.routing_type, input.ncp_ciphers, input.mode, input.dns, input.pop_areas, shared.contextKey]);
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

function common(input: NetworkInput, m: MemberInput, shared: Shared, plan: AddressPlan): Omit<CommonConfig, 'routes'> {
  const mode = DEFAULT_ROUTE_MODES[m.default_route] ?? 'off';
  const lan = lanOf(shared, m);
  const owner = m.router_name.toLowerCase();
  return {
    network_number: input.network_number,
    router_name: m.router_name,
    router_type: m.router_type,
    ciphers: {
      ncp_ciphers: input.ncp_ciphers,
      data_ciphers: [...DATA_CIPHERS[input.ncp_ciphers === 'sm' ? 'sm' : 'default']],
      auth: input.ncp_ciphers === 'sm' ? SM_AUTH : null,
    },
    dns: shared.dns,
    lan,
    quagga: { enabled: m.quagga === 1, prefix_list: shared.prefixLists.get(owner) ?? [] },
    default_route: {
      mode,
      metric: mode === 'advertise' ? m.metric : null,
      from: mode === 'receive' ? shared.advertisers.filter((a) => a.member !== m).map((a) => ({ router_name: a.member.router_name, metric: a.member.metric })) : [],
    },
    forwarding: m.member_type === 'center' || lan.length > 0 || mode === 'advertise',
    balance: shared.balance,
    timers: TIMERS,
    blocked: shared.blockedFor(owner),
    nat: mode === 'advertise',
    dynamic: dynamicOf(m, shared, plan),
  };
}

/** Where a point dials a center's service. */
export function centerRemote(center: MemberInput, service: Service): Remote {
  const fixed = center.fixed_port[service];
  return { host: fixed?.public_ip || center.public_host || center.router_name, port: fixed?.public_port || fixed?.static_port || DEFAULT_PORTS[service], via: 'center', name: center.router_name };
}

/** Where a point dials a center's service through its POP areas (main, then backup): each area's relay port for that center. */
function popRemotes(input: NetworkInput, m: MemberInput, center: MemberInput, service: Service): Remote[] {
  const out: Remote[] = [];
  for (const id of [m.ov.main, m.ov.backup]) {
    const area = id ? input.pop_areas.find((a) => a.id === id) : undefined;
    const relay = area?.relays.find((r) => r.center === center.router_name && r.service === service);
    if (area?.host && relay && !out.some((r) => r.name === area.name)) out.push({ host: area.host, port: relay.port, via: 'pop', name: area.name });
  }
  return out;
}

/** A member's own dial mode, else the network's line mode. */
const dialModeOf = (input: NetworkInput, m: MemberInput) => (m.mode === DIAL.centerFirst || m.mode === DIAL.popFirst ? m.mode : input.mode === DIAL.centerFirst || input.mode === DIAL.popFirst ? input.mode : DIAL.default);

function pointConfig(input: NetworkInput, p: MemberInput, plan: AddressPlan, shared: Shared): PointConfig {
  const service = serviceOf(p);
  const dialMode = dialModeOf(input, p);
  const ordered = (c: MemberInput) => {
    const direct = [centerRemote(c, service)];
    const pops = popRemotes(input, p, c, service);
    return dialMode === DIAL.popFirst ? [...pops, ...direct] : [...direct, ...pops];
  };
  const tunnels: Tunnel[] = linkedOf(shared, p).map((c) => {
    const subnet = plan.subnets.get(c.router_name)![service];
    return {
      name: shared.tunnelName(c),
      center: c.router_name,
      address: plan.addressOf(p, c),
      subnet: cidr(subnet.network, subnet.mask),
      center_address: centerAddressOf(subnet),
      remotes: ordered(c),
      rank: shared.rankOf(c),
    };
  });
  return {
    ...common(input, p, shared, plan),
    routes: pointRoutes(shared, p),
    member_type: 'point',
    service,
    dial_mode: dialMode,
    local_port: p.fixed_port[service]?.static_port ?? null,
    tunnels,
  };
}

function centerConfig(input: NetworkInput, c: MemberInput, points: MemberInput[], plan: AddressPlan, shared: Shared, clientOf: ClientSource): CenterConfig {
  const subnets = plan.subnets.get(c.router_name)!;
  // A center carries only the points linked to it.
  const carried = points.filter((p) => linkedOf(shared, p).includes(c));
  const services: ServiceConfig[] = SERVICES.map((service) => {
    const subnet = subnets[service];
    const remote = centerRemote(c, service);
    return {
      service,
      port: c.fixed_port[service]?.static_port ?? DEFAULT_PORTS[service],
      subnet: cidr(subnet.network, subnet.mask),
      address: centerAddressOf(subnet),
      public: { host: remote.host, port: remote.port },
      clients: carried
        .filter((p) => serviceOf(p) === service)
        .map((p) =>
          clientOf(c, p, () => {
            const fixed = p.fixed_port[service];
            return {
              router_name: p.router_name,
              address: plan.addressOf(p, c),
              iroutes: [...lanOf(shared, p), ...shared.defaultIroutes(c, p)],
              dial_mode: dialModeOf(input, p),
              endpoint: fixed ? { public_ip: fixed.public_ip, public_port: fixed.public_port } : null,
            };
          }),
        ),
    };
  });
  return {
    ...common(input, c, shared, plan),
    routes: centerRoutes(shared, c),
    member_type: 'center',
    services,
    links: shared.linksOf(c).map((l) => linkConfig(l, c)),
    transit: centerTransit(shared, c),
    warnings: [...plan.warnings],
  };
}

function linkConfig(link: LinkPlan, c: MemberInput): LinkConfig {
  const isServer = link.server === c;
  const peer = isServer ? link.client : link.server;
  const serverAddress = hostAt(link.segment, 1);
  const clientAddress = hostAt(link.segment, 2);
  const server = link.server;
  const host = link.endpoint?.public_ip || server.fixed_port.router?.public_ip || server.public_host || server.router_name;
  return {
    name: linkName(link, peer),
    kind: link.kind,
    role: isServer ? 'server' : 'client',
    peer: peer.router_name,
    segment: cidr(link.segment.network, link.segment.mask),
    address: isServer ? serverAddress : clientAddress,
    peer_address: isServer ? clientAddress : serverAddress,
    port: link.port,
    remote: isServer ? null : { host, port: link.endpoint?.public_port || link.port },
  };
}
