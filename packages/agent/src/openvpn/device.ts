import { accessSync, constants, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { arch, hostname, networkInterfaces, release, type } from 'node:os';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import type { DeviceInterface, DeviceLink, NetworkConfigPayload, TrafficPoint } from '@hublink/contract';
import type { Device, DeviceEvents, DeviceIdentity, DeviceSession, FlowSample, TrafficSample } from '../device';
import type { BackoffPolicy } from '../backoff';
import { plannedLinks, tunnelRemotes, type PlannedLink } from '../plan';
import { sharedScheduler, type Scheduler } from '../scheduler';
import { hash } from '../simulated';
import { AGENT_VERSION } from '../version';
import { OpenvpnInstance } from './instance';

/** The openvpn binary on PATH (Debian keeps it in /usr/sbin, which a user's PATH may lack), or null. */
export function findOpenvpn(path = process.env.PATH ?? ''): string | null {
  for (const dir of [...path.split(':').filter(Boolean), '/usr/sbin', '/sbin']) {
    const file = join(dir, 'openvpn');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

export interface OpenvpnDeviceOptions {
  kind: 'router' | 'app';
  name: string;
  binary: string;
  stateDir: string;
  scheduler?: Scheduler;
  pollMs?: number;
  /** Waits before restarting an openvpn that died (default: the reconnect backoff, 1-5 s up to 30 s). */
  backoff?: BackoffPolicy;
}

interface Network {
  config: NetworkConfigPayload;
  dir: string;
  links: PlannedLink[];
  instances: Map<string, OpenvpnInstance>;
  /** Every file written, by its path in the network's directory, with its text. */
  files: Map<string, string>;
}

const noEvents: DeviceEvents = { sessionUp: () => {}, sessionDown: () => {}, log: () => {} };

/**
 * Real tunnels: each network's files are written under <stateDir>/<network_number>/ and every top-level
 * .conf runs as its own supervised openvpn; links, traffic and sessions come from their management ports.
 */
export class OpenvpnDevice implements Device {
  readonly mode = 'openvpn' as const;
  private events: DeviceEvents = noEvents;
  private readonly networks = new Map<string, Network>();
  private readonly sessions = new Map<string, DeviceSession>();
  private readonly lastBytes = new Map<string, { bytesIn: number; bytesOut: number }>();
  private sessionSeq = 0;
  private readonly scheduler: Scheduler;

  constructor(private readonly options: OpenvpnDeviceOptions) {
    this.scheduler = options.scheduler ?? sharedScheduler();
  }

  attach(events: DeviceEvents): void {
    this.events = events;
  }

  identity(): DeviceIdentity {
    const interfaces: DeviceInterface[] = [];
    let mac = '';
    let wan = '';
    for (const [name, addresses] of Object.entries(networkInterfaces())) {
      const v4 = addresses?.find((a) => a.family === 'IPv4' && !a.internal);
      if (!v4) continue;
      mac ||= v4.mac;
      wan ||= v4.address;
      const id = hash(`${v4.mac}/${name}`).toString(16).padStart(8, '0');
      interfaces.push({ interface_uuid: `${id}-${name}`.slice(0, 64), interface: name, protocol: 'static', ipv4: v4.address, ipv4_subnet_mask: v4.netmask, mtu: 1500 });
    }
    const router = this.options.kind === 'router';
    return {
      os: type().toLowerCase(),
      version: AGENT_VERSION,
      sys_brand: hostname().slice(0, 64),
      sys_model: arch(),
      sys_version: release().slice(0, 64),
      router_model: router ? `openvpn-${arch()}` : '',
      router_mac: router ? mac : '',
      router_ipv4: router ? wan : '',
      interfaces,
    };
  }

  /**
   * Applies a network's config. The first one writes the files and starts every tunnel; a later one
   * changes the files in place and touches only what it must, so one member's change does not drop the
   * others' tunnels: a tunnel whose .conf or certificates changed restarts, one no longer named stops,
   * a new one starts, and a server that keeps running disconnects at once every client whose
   * client-config file changed or went (a removed member, see docs/decisions.md) — openvpn reads those
   * files and the CRL again when a client connects, so a removed member cannot come back.
   */
  async apply(config: NetworkConfigPayload): Promise<void> {
    if (!config.certificates) throw new Error('the config carries no certificates');
    const dir = join(this.options.stateDir, safeName(config.network_number));
    const files = filesOf(config, dir);
    const network = this.networks.get(config.network_number);
    if (network) return this.update(network, config, files);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const [path, text] of files) writeInside(dir, path, text);
    makeClientDirs(dir, config);
    const fresh: Network = { config, dir, links: plannedLinks(config.config), instances: new Map(), files };
    this.networks.set(config.network_number, fresh);
    for (const conf of tunnelConfs(config)) this.startInstance(fresh, conf);
  }

  private async update(network: Network, config: NetworkConfigPayload, files: Map<string, string>): Promise<void> {
    const { dir } = network;
    const before = network.files;
    const changed = new Set<string>();
    for (const [path, text] of files) {
      if (before.get(path) === text) continue;
      writeInside(dir, path, text);
      changed.add(path);
    }
    for (const path of before.keys()) {
      if (files.has(path)) continue;
      rmSync(inside(dir, path), { force: true });
      changed.add(path);
    }
    makeClientDirs(dir, config);
    network.config = config;
    network.links = plannedLinks(config.config);
    network.files = files;
    const confs = new Set(tunnelConfs(config));
    const certificatesChanged = KEY_FILES.some((f) => changed.has(f));
    for (const [conf, instance] of [...network.instances]) {
      if (!confs.has(conf)) {
        network.instances.delete(conf);
        await instance.stop();
      } else if (certificatesChanged || changed.has(conf)) {
        await instance.stop();
        instance.start();
      } else {
        const clientDir = clientDirOf(files.get(conf) ?? '');
        if (clientDir) await instance.kill(clientsChangedIn([...changed].filter((p) => before.has(p)), clientDir));
      }
    }
    for (const conf of confs) if (!network.instances.has(conf)) this.startInstance(network, conf);
    this.refreshSessions();
  }

  private startInstance(network: Network, conf: string): void {
    const number = network.config.network_number;
    const instance = new OpenvpnInstance({
      binary: this.options.binary,
      dir: network.dir,
      conf,
      scheduler: this.scheduler,
      pollMs: this.options.pollMs,
      backoff: this.options.backoff,
      log: (line) => this.events.log(`${number}: ${line}`),
      onChange: () => this.refreshSessions(),
    });
    network.instances.set(conf, instance);
    instance.start();
  }

  async leave(networkNumber: string): Promise<void> {
    const network = this.networks.get(networkNumber);
    await this.stopNetwork(networkNumber);
    this.networks.delete(networkNumber);
    if (network) rmSync(network.dir, { recursive: true, force: true });
    this.refreshSessions();
  }

  async command(kind: 'kill' | 'restart' | 'resend_config', networkNumber: string): Promise<void> {
    const network = this.networks.get(networkNumber);
    if (!network) throw new Error(`not in network ${networkNumber}`);
    if (kind === 'resend_config') {
      // The config came again just before: applied afresh, every file rewritten and every tunnel restarted
      // (a config that changed nothing is otherwise a no-op in place).
      await this.stopNetwork(networkNumber);
      this.networks.delete(networkNumber);
      return this.apply(network.config);
    }
    for (const [conf, instance] of network.instances) {
      await instance.stop();
      // Kicked: back after a tunnel's usual retry wait; restarted: at once. Not if the network left or changed meanwhile.
      const again = () => {
        if (this.networks.get(networkNumber)?.instances.get(conf) === instance) instance.start();
      };
      if (kind === 'restart') again();
      else this.scheduler.after(1000 + Math.random() * 4000, again);
    }
  }

  links(): DeviceLink[] {
    const out: DeviceLink[] = [];
    for (const [network_number, network] of this.networks) {
      for (const live of this.liveLinks(network)) {
        out.push({ network_number, peer: live.link.peer, vpn_ip: live.vpnIp, online: live.since ? 1 : 0, since: live.since });
      }
    }
    return out;
  }

  traffic(seconds: number): TrafficSample {
    const time = Math.floor(Date.now() / 1000);
    const data: TrafficPoint[] = [];
    let rx = 0;
    let tx = 0;
    for (const [number, network] of this.networks) {
      for (const instance of network.instances.values()) {
        const name = `${number}/${instance.name}`.slice(0, 64);
        const prev = this.lastBytes.get(name) ?? { bytesIn: 0, bytesOut: 0 };
        const now = { ...instance.total };
        this.lastBytes.set(name, now);
        rx += now.bytesIn;
        tx += now.bytesOut;
        data.push({ interface: name, time, down: mbit(now.bytesIn - prev.bytesIn, seconds), upload: mbit(now.bytesOut - prev.bytesOut, seconds) });
      }
    }
    return { data, rx_bytes: rx, tx_bytes: tx };
  }

  /** OpenVPN sees no applications, only who sent what: source records from its client list. */
  flows(): FlowSample[] {
    const out: FlowSample[] = [];
    for (const network of this.networks.values()) {
      for (const instance of network.instances.values()) {
        for (const [source, c] of instance.bySource) if (c.bytesIn + c.bytesOut > 0) out.push({ kind: 'orig', name: source, download: c.bytesOut, upload: c.bytesIn });
        instance.bySource.clear();
      }
    }
    return out;
  }

  openSessions(): DeviceSession[] {
    return [...this.sessions.values()];
  }

  async stop(): Promise<void> {
    for (const number of [...this.networks.keys()]) await this.stopNetwork(number);
  }

  private async stopNetwork(networkNumber: string): Promise<void> {
    const network = this.networks.get(networkNumber);
    if (!network) return;
    await Promise.all([...network.instances.values()].map((i) => i.stop()));
    network.instances.clear();
  }

  private liveLinks(network: Network): { link: PlannedLink; vpnIp: string; since: number; orig: string; pop: string }[] {
    return network.links.map((link) => {
      const instance = network.instances.get(link.conf);
      if (!instance) return { link, vpnIp: link.vpn_ip, since: 0, orig: '', pop: '' };
      if (link.role === 'server' && link.conf !== 'center-link.conf') {
        const client = instance.clients.find((c) => c.commonName === link.peer);
        return { link, vpnIp: client?.virtualAddress || link.vpn_ip, since: client?.connectedSince ?? 0, orig: client?.realAddress ?? '', pop: '' };
      }
      if (!instance.connected || !instance.state) return { link, vpnIp: link.vpn_ip, since: 0, orig: '', pop: '' };
      // A main-backup tunnel is connected to whichever remote answered: match it by address.
      const remote = tunnelRemotes(network.config.config, link.conf).find((r) => r.host === instance.state!.remoteIp);
      const peerUp = remote?.via === 'center' ? remote.name === link.peer : !link.standby;
      return {
        link,
        vpnIp: instance.state.localIp || link.vpn_ip,
        since: peerUp ? instance.state.time : 0,
        orig: instance.state.remoteIp ? `${instance.state.remoteIp}:${instance.state.remotePort}` : '',
        pop: remote?.via === 'pop' ? remote.name : '',
      };
    });
  }

  /** Compares the links up now with the sessions reported, and reports the difference. */
  private refreshSessions(): void {
    const up = new Set<string>();
    for (const [number, network] of this.networks) {
      for (const live of this.liveLinks(network)) {
        if (!live.since) continue;
        const key = `${number}/${live.link.conf}/${live.link.peer}`;
        up.add(key);
        if (this.sessions.has(key)) continue;
        const session: DeviceSession = {
          id: `${key}/${++this.sessionSeq}`.slice(-64),
          mode: live.pop ? 'pop' : 'p2p',
          network_number: number,
          link_router_name: live.link.peer,
          pop_name: live.pop,
          area: live.pop,
          orig: live.orig.slice(0, 64),
          vpn_ip: live.vpnIp,
          time: live.since,
        };
        this.sessions.set(key, session);
        this.events.sessionUp(session);
      }
    }
    for (const [key, session] of this.sessions) {
      if (up.has(key)) continue;
      this.sessions.delete(key);
      this.events.sessionDown(session);
    }
  }
}

function mbit(bytes: number, seconds: number): number {
  return Math.round(((Math.max(0, bytes) * 8) / 1e6 / Math.max(seconds, 0.001)) * 1000) / 1000;
}

function safeName(name: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) throw new Error(`unusable network number ${JSON.stringify(name)}`);
  return name;
}

/** A path the server named, inside the network's directory; any path that would land outside is refused. */
function inside(dir: string, path: string): string {
  const rel = normalize(path);
  if (isAbsolute(rel) || rel.startsWith('..') || rel.includes('\0')) throw new Error(`refused file path ${JSON.stringify(path)}`);
  return join(dir, rel);
}

/** The files a .conf names that, changed, need its openvpn restarted (the CRL is read again at each connection). */
const KEY_FILES = ['ca.crt', 'member.crt', 'member.key'];

/** Every file of a config by its path, each path checked before anything is written. */
function filesOf(config: NetworkConfigPayload, dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, text] of Object.entries(config.openvpn)) files.set(path, text);
  for (const [file, pem] of Object.entries(config.certificates ?? {})) if (pem !== undefined) files.set(file, pem);
  for (const path of files.keys()) inside(dir, path);
  for (const text of Object.values(config.openvpn)) {
    const clientDir = clientDirOf(text);
    if (clientDir) inside(dir, clientDir);
  }
  return files;
}

/** The tunnels of a config: its top-level .conf files. */
function tunnelConfs(config: NetworkConfigPayload): string[] {
  return Object.keys(config.openvpn).filter((p) => p.endsWith('.conf') && !p.includes('/'));
}

/** The client-config-dir a server's .conf names, or ''. */
function clientDirOf(conf: string): string {
  return /^client-config-dir\s+(\S+)\s*$/m.exec(conf)?.[1] ?? '';
}

/** A server without clients names a client-config-dir no file lands in, and openvpn will not start without it. */
function makeClientDirs(dir: string, config: NetworkConfigPayload): void {
  for (const text of Object.values(config.openvpn)) {
    const clientDir = clientDirOf(text);
    if (clientDir) mkdirSync(inside(dir, clientDir), { recursive: true });
  }
}

/** The common names whose client-config file in clientDir is among the paths (changed or gone; a new one has no client yet). */
function clientsChangedIn(paths: string[], clientDir: string): string[] {
  const prefix = `${normalize(clientDir)}/`;
  return paths.map((p) => normalize(p)).filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/')).map((p) => p.slice(prefix.length));
}

/**
 * Writes a file the server named, inside the network's directory: to a temporary file renamed over the
 * old one, so a running openvpn never reads half a CRL. The member's key is readable by its owner only.
 */
function writeInside(dir: string, path: string, text: string): void {
  const file = inside(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: basename(file) === 'member.key' ? 0o600 : 0o644 });
  renameSync(temporary, file);
}
