import type { DeviceInterface, DeviceLink, NetworkConfigPayload, TrafficPoint } from '@hublink/contract';
import type { Device, DeviceEvents, DeviceIdentity, DeviceSession, FlowSample, TrafficSample } from './device';
import { plannedLinks, type PlannedLink } from './plan';
import { sharedScheduler, type Scheduled, type Scheduler } from './scheduler';
import { AGENT_VERSION } from './version';

export interface SimulatedOptions {
  kind: 'router' | 'app';
  /** Seeds the device's addresses and identifiers, so one name always looks the same. */
  name: string;
  scheduler?: Scheduler;
  /** A link comes up this long (ms, uniform) after its config is applied or its tunnel restarted. */
  linkDelayMs?: [number, number];
  random?: () => number;
}

interface SimLink {
  planned: PlannedLink;
  since: number;
  session: DeviceSession | null;
  pending: Scheduled | null;
}

interface Walk {
  name: string;
  base: number;
  down: number;
  up: number;
}

const APPS = ['微信', '钉钉', '企业微信', 'HTTPS', 'DNS', '抖音', 'Office 365', 'SSH'];
const noEvents: DeviceEvents = { sessionUp: () => {}, sessionDown: () => {}, log: () => {} };

/**
 * A device without tunnels: its links come up a moment after each config (the peers the compiled JSON
 * names), its traffic is a smooth random walk per interface, and it reports sessions and flow records
 * like a real one. Small by design: the simulator runs thousands in one process.
 */
export class SimulatedDevice implements Device {
  readonly mode = 'simulated' as const;
  private events: DeviceEvents = noEvents;
  private readonly networks = new Map<string, SimLink[]>();
  private readonly walks: Walk[];
  private rx = 0;
  private tx = 0;
  private sessionSeq = 0;
  private flowBytes = { down: 0, up: 0 };
  private readonly seed: number;
  private readonly random: () => number;
  private readonly scheduler: Scheduler;

  constructor(private readonly options: SimulatedOptions) {
    this.seed = hash(options.name);
    this.random = options.random ?? Math.random;
    this.scheduler = options.scheduler ?? sharedScheduler();
    const names = options.kind === 'router' ? ['eth0', 'eth1'] : ['wlan0'];
    this.walks = names.map((name, i) => {
      const base = (i === 0 ? 5 : 2) + this.random() * (i === 0 ? 45 : 15);
      return { name, base, down: base, up: base * 0.3 };
    });
  }

  attach(events: DeviceEvents): void {
    this.events = events;
  }

  identity(): DeviceIdentity {
    const s = this.seed;
    const b = (shift: number) => (s >>> shift) & 0xff;
    const wan = `10.${b(0)}.${b(8)}.${2 + (b(16) % 250)}`;
    const interfaces: DeviceInterface[] =
      this.options.kind === 'router'
        ? [
            { interface_uuid: uuid(s, 1), interface: 'eth0', protocol: 'dhcp', ipv4: wan, ipv4_subnet_mask: '255.255.0.0', mtu: 1500 },
            { interface_uuid: uuid(s, 2), interface: 'eth1', protocol: 'static', ipv4: `192.168.${b(8)}.1`, ipv4_subnet_mask: '255.255.255.0', mtu: 1500 },
          ]
        : [{ interface_uuid: uuid(s, 1), interface: 'wlan0', protocol: 'dhcp', ipv4: `192.168.${b(8)}.${2 + (b(0) % 250)}`, ipv4_subnet_mask: '255.255.255.0', mtu: 1500 }];
    return {
      os: 'linux',
      version: AGENT_VERSION,
      sys_brand: 'HubLink',
      sys_model: this.options.kind === 'router' ? 'HL-SIM' : 'HL-SIM-APP',
      sys_version: 'simulated',
      router_model: this.options.kind === 'router' ? 'HL-SIM' : '',
      router_mac: this.options.kind === 'router' ? mac(s) : '',
      router_ipv4: this.options.kind === 'router' ? `198.18.${b(0)}.${1 + (b(8) % 254)}` : '',
      interfaces,
    };
  }

  async apply(config: NetworkConfigPayload): Promise<void> {
    this.drop(config.network_number);
    const links = plannedLinks(config.config).map((planned): SimLink => ({ planned, since: 0, session: null, pending: null }));
    this.networks.set(config.network_number, links);
    for (const link of links) this.bringUp(config.network_number, link, this.options.linkDelayMs ?? [500, 3000]);
  }

  async leave(networkNumber: string): Promise<void> {
    this.drop(networkNumber);
    this.networks.delete(networkNumber);
  }

  async command(kind: 'kill' | 'restart' | 'resend_config', networkNumber: string): Promise<void> {
    if (kind === 'resend_config') return;
    const links = this.networks.get(networkNumber);
    if (!links) throw new Error(`not in network ${networkNumber}`);
    // A kicked tunnel reconnects as OpenVPN's would, after its retry wait; a restarted one at once.
    const delay: [number, number] = kind === 'kill' ? [1000, 5000] : [200, 1000];
    for (const link of links) {
      this.down(link);
      this.bringUp(networkNumber, link, delay);
    }
  }

  links(): DeviceLink[] {
    const out: DeviceLink[] = [];
    for (const [network_number, links] of this.networks) {
      for (const l of links) out.push({ network_number, peer: l.planned.peer, vpn_ip: l.planned.vpn_ip, online: l.since ? 1 : 0, since: l.since });
    }
    return out;
  }

  traffic(seconds: number): TrafficSample {
    const time = Math.floor(Date.now() / 1000);
    const data: TrafficPoint[] = this.walks.map((w) => {
      w.down = step(w.down, w.base, this.random);
      w.up = step(w.up, w.base * 0.3, this.random);
      return { interface: w.name, time, down: round2(w.down), upload: round2(w.up) };
    });
    const wan = this.walks[0]!;
    const down = Math.round((wan.down * 1e6 * seconds) / 8);
    const up = Math.round((wan.up * 1e6 * seconds) / 8);
    this.rx += down;
    this.tx += up;
    this.flowBytes.down += down;
    this.flowBytes.up += up;
    return { data, rx_bytes: this.rx, tx_bytes: this.tx };
  }

  flows(): FlowSample[] {
    const { down, up } = this.flowBytes;
    this.flowBytes = { down: 0, up: 0 };
    if (down + up === 0) return [];
    const apps = pick(APPS, 3 + Math.floor(this.random() * 3), this.random);
    const lan = `192.168.${(this.seed >>> 8) & 0xff}`;
    const origs = Array.from({ length: 2 + Math.floor(this.random() * 3) }, (_, i) => `${lan}.${10 + ((this.seed + i * 37) % 200)}`);
    return [...split('app', apps, down, up, this.random), ...split('orig', origs, down, up, this.random)];
  }

  openSessions(): DeviceSession[] {
    const out: DeviceSession[] = [];
    for (const links of this.networks.values()) for (const l of links) if (l.session) out.push(l.session);
    return out;
  }

  async stop(): Promise<void> {
    for (const network of [...this.networks.keys()]) this.drop(network);
    this.networks.clear();
  }

  private bringUp(network: string, link: SimLink, [min, max]: [number, number]): void {
    link.pending?.cancel();
    link.pending = this.scheduler.after(min + this.random() * (max - min), () => {
      link.pending = null;
      link.since = Math.floor(Date.now() / 1000);
      const p = link.planned;
      const s = this.seed;
      link.session = {
        id: `${network}/${p.peer}/${++this.sessionSeq}`,
        mode: p.pop ? 'pop' : 'p2p',
        network_number: network,
        link_router_name: p.peer,
        pop_name: p.pop?.name ?? '',
        area: p.pop?.name ?? '',
        orig: `198.18.${s & 0xff}.${1 + ((s >>> 8) % 254)}:${1024 + (s % 50000)}`,
        vpn_ip: p.vpn_ip,
        time: link.since,
      };
      this.events.sessionUp(link.session);
    });
  }

  private down(link: SimLink): void {
    link.pending?.cancel();
    link.pending = null;
    link.since = 0;
    if (link.session) this.events.sessionDown(link.session);
    link.session = null;
  }

  private drop(network: string): void {
    for (const link of this.networks.get(network) ?? []) this.down(link);
  }
}

/** A mean-reverting random walk: smooth from one sample to the next, never negative. */
function step(value: number, mean: number, random: () => number): number {
  const next = value + (mean - value) * 0.2 + (random() - 0.5) * mean * 0.3;
  return Math.max(0, Math.min(next, mean * 4));
}

function split(kind: 'app' | 'orig', names: string[], down: number, up: number, random: () => number): FlowSample[] {
  const weights = names.map(() => 0.2 + random());
  const total = weights.reduce((a, b) => a + b, 0);
  return names.map((name, i) => ({ kind, name, download: Math.round((down * weights[i]!) / total), upload: Math.round((up * weights[i]!) / total) }));
}

function pick<T>(items: readonly T[], n: number, random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** FNV-1a, for stable per-name addresses. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function uuid(seed: number, n: number): string {
  const hex = (v: number) => (v >>> 0).toString(16).padStart(8, '0');
  const a = hex(hash(`${seed}:${n}:a`));
  const b = hex(hash(`${seed}:${n}:b`));
  const c = hex(hash(`${seed}:${n}:c`));
  const d = hex(hash(`${seed}:${n}:d`));
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-a${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

function mac(seed: number): string {
  const bytes = [0x02, (seed >>> 24) & 0xff, (seed >>> 16) & 0xff, (seed >>> 8) & 0xff, seed & 0xff, (seed >>> 4) & 0xff];
  return bytes.map((v) => v.toString(16).padStart(2, '0')).join(':');
}
