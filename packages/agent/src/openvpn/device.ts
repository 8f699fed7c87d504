import { accessSync, constants, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { arch, hostname, networkInterfaces, release, type } from 'node:os';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import type { DeviceInterface, DeviceLink, NetworkConfigPayload, TrafficPoint } from '@hublink/contract';
import type { Device, DeviceEvents, DeviceIdentity, DeviceSession, FlowSample, TrafficSample } from '../device';
import type { BackoffPolicy } from '../backoff';
import type { HostCommands } from '../host/commands';
import { dnsManager, type DnsMethod } from '../host/dns';
import { FrrManager } from '../frr/manager';
import { TUNNEL_DEVICE_PREFIX } from '../host/names';
import { dialledHosts, plannedLinks, tunnelRemotes, type PlannedLink } from '../plan';
import { routingOf, type RoutingConfig } from '../routing/config';
import { Paths, pathKey } from '../routing/paths';
import { Router } from '../routing/router';
import { desiredState, type NetworkView } from '../routing/select';
import { sharedScheduler, type Scheduled, type Scheduler } from '../scheduler';
import { hash } from '../simulated';
import { AGENT_VERSION } from '../version';
import { clientPushes } from './clientAuth';
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
  /** How often a server's client list is read, ms (default 1000: a point's failover moves the center's routes too). */
  pollMs?: number;
  /** Waits before restarting an openvpn that died (default: the reconnect backoff, 1-5 s up to 30 s). */
  backoff?: BackoffPolicy;
  /**
   * Where the member's routes, forwarding, masquerading and DNS are applied: the machine (localHost()) or
   * a network namespace (namespaceHost()). Without it the agent changes nothing outside its tunnels: an
   * agent embedded in a test process must never touch the host it runs on.
   */
  host?: HostCommands;
  /** How DNS is applied (default none); resolvConf for the file method. */
  dns?: { method: DnsMethod; resolvConf?: string };
  /** Hosts the agent itself must keep reaching through the uplink when the default route moves into a tunnel (the gateway's). */
  controlHosts?: string[];
  /** Where FRRouting's daemons are (default Debian's /usr/lib/frr). */
  frrDir?: string;
}

interface Network {
  config: NetworkConfigPayload;
  dir: string;
  links: PlannedLink[];
  routing: RoutingConfig;
  instances: Map<string, OpenvpnInstance>;
  /** Every file written, by its path in the network's directory, with its text. */
  files: Map<string, string>;
  /** Its place among the networks, for its transit tables. */
  index: number;
}

/** A center's transit tables: two per network from here on. */
const TRANSIT_TABLE_BASE = 7100;
/** How often routing is checked even when nothing was reported (a route a human deleted comes back). */
const ROUTING_CHECK_MS = 10_000;
/** Changes that come together (a config's instances starting) are applied together. */
const ROUTING_DEBOUNCE_MS = 20;
/** A routing run longer than this is logged (a loaded machine delays failover by it). */
const SLOW_ROUTING_MS = 1000;
/** How long a config's failed routing waits before each new try. */
const ROUTING_RETRY_MS = [500, 1500];

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
  /** Where each reported session runs, to read its counters when it ends. */
  private readonly sessionLinks = new Map<string, { network: string; conf: string; peer: string; server: boolean }>();
  private readonly lastBytes = new Map<string, { bytesIn: number; bytesOut: number }>();
  private sessionSeq = 0;
  private readonly scheduler: Scheduler;
  private readonly paths = new Paths();
  private readonly router: Router | null;
  /** Tun device numbers in use, by network and instance. */
  private readonly devs = new Map<string, number>();
  private routing: { running: Promise<void>; again: boolean; timer: Scheduled | null; cleaned: boolean } = { running: Promise.resolve(), again: false, timer: null, cleaned: false };
  private lastProblems = '';
  private check: Scheduled | null = null;
  private readonly frr: FrrManager | null;

  constructor(private readonly options: OpenvpnDeviceOptions) {
    this.scheduler = options.scheduler ?? sharedScheduler();
    this.router = options.host
      ? new Router({
          host: options.host,
          dns: dnsManager({ method: options.dns?.method ?? 'none', resolvConf: options.dns?.resolvConf, stateDir: options.stateDir, host: options.host }),
          log: (line) => this.events.log(line),
          controlHosts: options.controlHosts ?? [],
        })
      : null;
    this.frr = options.host
      ? new FrrManager({ host: options.host, stateDir: options.stateDir, log: (line) => this.events.log(line), scheduler: this.scheduler, backoff: options.backoff, frrDir: options.frrDir })
      : null;
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
    this.addLogin(config, files);
    const network = this.networks.get(config.network_number);
    const previous = network?.config;
    if (network) await this.update(network, config, files);
    else {
      // An openvpn an earlier run of the agent left (it was killed) would hold the tunnel's device.
      endLeftovers(dir, (line) => this.events.log(`${config.network_number}: ${line}`));
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (const [path, text] of files) writeInside(dir, path, text);
      makeClientDirs(dir, config);
      const index = Math.max(-1, ...[...this.networks.values()].map((n) => n.index)) + 1;
      const fresh: Network = { config, dir, links: plannedLinks(config.config), routing: routingOf(config.config), instances: new Map(), files, index };
      this.networks.set(config.network_number, fresh);
      for (const conf of tunnelConfs(config)) this.startInstance(fresh, conf);
    }
    const problems = await this.settle();
    if (problems.length === 0) return;
    // What the device cannot apply is refused whole: the configuration that worked stays in force.
    if (previous) {
      const kept = filesOf(previous, dir);
      this.addLogin(previous, kept);
      await this.update(this.networks.get(config.network_number)!, previous, kept);
      await this.settle();
      this.events.log(`${config.network_number}: kept version ${previous.version}: ${problems.join('; ')}`);
    } else {
      await this.leave(config.network_number);
    }
    throw new Error(problems.join('; '));
  }

  /** The login file of a config whose tunnels name one (a software member's), from the client's credential. */
  private addLogin(config: NetworkConfigPayload, files: Map<string, string>): void {
    if (![...files.values()].some((text) => /^auth-user-pass auth\.txt$/m.test(text))) return;
    const login = this.events.tunnelLogin?.();
    files.set(AUTH_FILE, login ? `${login.username}\n${login.password}\n` : '\n\n');
  }

  /**
   * Routing and dynamic routing made to follow the networks; what of it the configuration cannot have.
   * A route the kernel refuses is almost always a tunnel's device that went or is not there yet: it is
   * logged and tried again at every change and every ROUTING_CHECK_MS, never held against the
   * configuration. What is the configuration's — FRR refusing it, DNS that cannot be applied — is tried
   * again a few times (a daemon may be starting), and only what stays refuses it.
   */
  private async settle(): Promise<string[]> {
    let problems: string[] = [];
    for (const wait of [0, ...ROUTING_RETRY_MS]) {
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      problems = [...(await this.routeNow()).filter((p) => p.startsWith('DNS')), ...(await this.applyDynamic())];
      if (problems.length === 0) break;
    }
    return problems;
  }

  /** FRR follows the `dynamic` sections of the networks (none: it stops). */
  private async applyDynamic(): Promise<string[]> {
    if (!this.frr) return [];
    return this.frr.apply([...this.networks].filter(([, n]) => n.routing.dynamic).map(([network, n]) => ({ network, dynamic: n.routing.dynamic })));
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
    network.routing = routingOf(config.config);
    network.files = files;
    const confs = new Set(tunnelConfs(config));
    const certificatesChanged = KEY_FILES.some((f) => changed.has(f));
    for (const [conf, instance] of [...network.instances]) {
      if (!confs.has(conf)) {
        network.instances.delete(conf);
        await instance.stop();
        this.releaseDev(network, conf);
        // Gone with its instance: a new instance of the same name starts from down.
        this.paths.forgetInstance(config.network_number, instance.name);
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
      // A tunnel gets its own device name (routes name it); a test's `dev null` stays as it is.
      dev: /^dev tun\s*$/m.test(network.files.get(conf) ?? '') ? this.devOf(network, conf) : null,
      scheduler: this.scheduler,
      pollMs: this.options.pollMs ?? 1000,
      backoff: this.options.backoff,
      log: (line) => this.events.log(`${number}: ${line}`),
      onChange: () => this.onInstanceChange(),
      // A service that asks the agent about each client lists a client before its answer: only admitted ones count.
      asksAboutClients: /^management-client-auth$/m.test(network.files.get(conf) ?? ''),
      clientAuth: (request) => this.events.clientAuth?.(number, request) ?? Promise.resolve({ verdict: 'deny', reason: 'this agent cannot ask the platform', clientReason: '' }),
      clientConfig: () => clientPushes(this.networks.get(number)?.config.config ?? {}),
    });
    network.instances.set(conf, instance);
    instance.start();
  }

  /** The lowest free tun device number, kept by the instance while it exists (its restarts reopen the same device). */
  private devOf(network: Network, conf: string): string {
    const key = `${network.config.network_number}/${conf}`;
    let n = this.devs.get(key);
    if (n === undefined) {
      const used = new Set(this.devs.values());
      n = 0;
      while (used.has(n)) n++;
      this.devs.set(key, n);
    }
    return `${TUNNEL_DEVICE_PREFIX}${n}`;
  }

  private releaseDev(network: Network, conf: string): void {
    this.devs.delete(`${network.config.network_number}/${conf}`);
  }

  async leave(networkNumber: string): Promise<void> {
    const network = this.networks.get(networkNumber);
    await this.stopNetwork(networkNumber);
    this.networks.delete(networkNumber);
    if (network) {
      for (const conf of tunnelConfs(network.config)) this.releaseDev(network, conf);
      rmSync(network.dir, { recursive: true, force: true });
    }
    this.paths.forget(networkNumber);
    this.refreshSessions();
    await this.routeNow();
    const problems = await this.applyDynamic();
    if (problems.length > 0) this.events.log(`dynamic routing: ${problems.join('; ')}`);
  }

  async loginChanged(): Promise<void> {
    for (const network of this.networks.values()) {
      const files = new Map(network.files);
      this.addLogin(network.config, files);
      const text = files.get(AUTH_FILE);
      if (text === undefined || text === network.files.get(AUTH_FILE)) continue;
      writeInside(network.dir, AUTH_FILE, text);
      network.files = files;
    }
  }

  async killClients(networkNumber: string, commonNames: string[]): Promise<void> {
    const network = this.networks.get(networkNumber);
    if (!network) return;
    for (const [conf, instance] of network.instances) if (clientDirOf(network.files.get(conf) ?? '')) await instance.kill(commonNames);
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
        // A point's tunnel that is up says whether it came through a POP relay (its remote's `via`).
        const path = live.since && live.link.role === 'client' && !live.link.between_centers ? (live.pop ? { path: 'pop' as const, pop_area: live.pop } : { path: 'center' as const }) : {};
        out.push({ network_number, peer: live.link.peer, vpn_ip: live.vpnIp, online: live.since ? 1 : 0, since: live.since, ...path });
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
    this.check?.cancel();
    this.check = null;
    this.routing.timer?.cancel();
    for (const number of [...this.networks.keys()]) await this.stopNetwork(number);
    await this.frr?.stop().catch((e: unknown) => this.events.log(`stopping FRR failed: ${errorText(e)}`));
    await this.routing.running;
    // A stopped agent leaves the machine as it found it: its routes, rules, masquerading and DNS go.
    if (this.router && this.routing.cleaned) await this.router.stop().catch((e: unknown) => this.events.log(`undoing the routing failed: ${errorText(e)}`));
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
      if (link.role === 'server' && !link.between_centers) {
        const client = instance.clients.find((c) => c.commonName === link.peer);
        return { link, vpnIp: client?.virtualAddress || link.vpn_ip, since: client?.connectedSince ?? 0, orig: client?.realAddress ?? '', pop: '' };
      }
      if (!instance.connected || !instance.state) return { link, vpnIp: link.vpn_ip, since: 0, orig: '', pop: '' };
      const remote = tunnelRemotes(network.config.config, link.conf).find((r) => r.host === instance.state!.remoteIp);
      return {
        link,
        vpnIp: link.between_centers ? link.vpn_ip : instance.state.localIp || link.vpn_ip,
        since: instance.state.time,
        orig: instance.state.remoteIp ? `${instance.state.remoteIp}:${instance.state.remotePort}` : '',
        pop: remote?.via === 'pop' ? remote.name : '',
      };
    });
  }

  /** An instance's state or client list changed: its paths, the sessions reported, and the routes follow. */
  private onInstanceChange(): void {
    let changed = false;
    for (const [number, network] of this.networks) {
      const timers = network.routing.timers;
      for (const [conf, instance] of network.instances) {
        const name = instance.name;
        if (isServerConf(network, conf)) {
          const connected = new Set(instance.clients.map((c) => c.commonName));
          for (const link of network.links) if (link.conf === conf) changed = this.paths.set(pathKey(number, name, link.peer), connected.has(link.peer), timers) || changed;
        } else if (this.paths.set(pathKey(number, name), instance.connected, timers)) {
          changed = true;
          // A tunnel or link between centers going down or coming back is what an operator looks for first.
          const held = this.paths.holdDownMs(pathKey(number, name), timers);
          this.events.log(`${number}: ${name} ${instance.connected ? `up${held > 0 ? `, used after a hold-down of ${Math.round(held / 1000)} s` : ''}` : `down (${instance.state?.detail || instance.state?.state || 'stopped'}): its routes move`}`);
        }
      }
    }
    this.refreshSessions();
    if (changed) {
      this.events.linksChanged?.();
      this.scheduleRouting(ROUTING_DEBOUNCE_MS);
    }
  }

  private views(): NetworkView[] {
    return [...this.networks.entries()].map(([number, network]) => {
      const running = (instance: string) => network.instances.get(`${instance}.conf`);
      const devsWhere = (test: (conf: string) => boolean) => [...network.instances].filter(([conf]) => test(conf)).flatMap(([, i]) => (i.dev ? [i.dev] : []));
      return {
        number,
        config: network.routing,
        devOf: (instance) => running(instance)?.dev ?? null,
        // A center delivers to a connected client at once: holding it down would send the client's traffic
        // over a link to the other center, which does the same (the point's own hold-down is what counts).
        state: (instance, client) => {
          if (running(instance) === undefined) return 'down';
          const key = pathKey(number, instance, client);
          return client === null ? this.paths.state(key, network.routing.timers) : this.paths.isUp(key) ? 'ready' : 'down';
        },
        servers: devsWhere((conf) => isServerConf(network, conf)),
        links: devsWhere((conf) => network.links.some((l) => l.conf === conf && l.between_centers)),
        tables: { fromTunnels: TRANSIT_TABLE_BASE + 2 * network.index, fromLinks: TRANSIT_TABLE_BASE + 2 * network.index + 1 },
      };
    });
  }

  /** Routes again after `ms` (changes coming together are applied together). */
  private scheduleRouting(ms: number): void {
    if (!this.router) return;
    this.routing.timer?.cancel();
    this.routing.timer = this.scheduler.after(ms, () => {
      this.routing.timer = null;
      void this.routeNow();
    });
  }

  /**
   * Makes the kernel follow the networks and the paths up now (one run at a time; a call during a run
   * runs once more after it). Returns what could not be applied; a held-down path is looked at again
   * when its hold-down ends.
   */
  private async routeNow(): Promise<string[]> {
    const router = this.router;
    if (!router) return [];
    if (this.routing.again) return this.routing.running.then(() => []);
    const previous = this.routing.running;
    this.routing.again = true;
    let problems: string[] = [];
    const run = previous.then(async () => {
      this.routing.again = false;
      if (!this.routing.cleaned) {
        await router.clean().catch((e: unknown) => this.events.log(`cleaning what an earlier run left failed: ${errorText(e)}`));
        this.routing.cleaned = true;
      }
      const started = Date.now();
      const devices = [...this.networks.values()].flatMap((n) => [...n.instances.values()].flatMap((i) => (i.dev ? [i.dev] : [])));
      const dialled = [...this.networks.values()].flatMap((n) => dialledHosts(n.config.config));
      problems = await router.apply(desiredState(this.views()), dialled, devices);
      const took = Date.now() - started;
      if (took > SLOW_ROUTING_MS) this.events.log(`routing took ${took} ms`);
      const text = problems.join('; ');
      if (text && text !== this.lastProblems) this.events.log(`routing: ${text}`);
      this.lastProblems = text;
      this.armHoldDowns();
      this.check?.cancel();
      if (this.networks.size > 0) this.check = this.scheduler.after(ROUTING_CHECK_MS, () => void this.routeNow());
    });
    this.routing.running = run.catch((e: unknown) => this.events.log(`routing failed: ${errorText(e)}`));
    await this.routing.running;
    return problems;
  }

  /** The next end of a hold-down, when routing must look again. */
  private armHoldDowns(): void {
    let next = Infinity;
    for (const [number, network] of this.networks) {
      for (const [conf, instance] of network.instances) {
        if (isServerConf(network, conf)) continue;
        const ms = this.paths.holdDownMs(pathKey(number, instance.name), network.routing.timers);
        if (ms > 0) next = Math.min(next, ms);
      }
    }
    if (next < Infinity) this.scheduleRouting(next + 10);
  }

  /** A session's own counters at its end: a center's for that client, a tunnel's since it came up. */
  private sessionBytes(where: { network: string; conf: string; peer: string; server: boolean }): { bytesIn: number; bytesOut: number } | undefined {
    const instance = this.networks.get(where.network)?.instances.get(where.conf);
    if (!instance) return undefined;
    return where.server ? instance.takeEnded(where.peer) : instance.tunnelBytes();
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
        this.sessionLinks.set(key, { network: number, conf: live.link.conf, peer: live.link.peer, server: live.link.role === 'server' && !live.link.between_centers });
        this.events.sessionUp(session);
      }
    }
    for (const [key, session] of this.sessions) {
      if (up.has(key)) continue;
      this.sessions.delete(key);
      const where = this.sessionLinks.get(key);
      this.sessionLinks.delete(key);
      const bytes = where ? this.sessionBytes(where) : undefined;
      this.events.sessionDown(bytes ? { ...session, bytes_received: bytes.bytesIn, bytes_sent: bytes.bytesOut } : session);
    }
  }
}

/** A center's server (the renderer's router.conf or software.conf): its paths are its clients. */
const isServerConf = (_network: Network, conf: string) => conf === 'router.conf' || conf === 'software.conf';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Ends the openvpn processes whose pid files an earlier run left in the network's directory. */
function endLeftovers(dir: string, log: (line: string) => void): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.pid'));
  } catch {
    return;
  }
  for (const file of names) {
    const pid = Number(readFileSync(join(dir, file), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 1) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!command.includes('openvpn') || !command.includes(dir)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      log(`ended openvpn ${pid}, left running by an earlier run of the agent (${file})`);
    } catch {
      // gone meanwhile
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

/** A software member's login and credential, which its tunnels present to the center (auth-user-pass, read at each connection). */
const AUTH_FILE = 'auth.txt';
/** The files a .conf names that, changed, need its openvpn restarted (the CRL is read again at each connection). */
const KEY_FILES = ['ca.crt', 'member.crt', 'member.key', 'tls-crypt.key'];
/** The files only the agent's user may read. */
const SECRET_FILES = ['member.key', 'tls-crypt.key', AUTH_FILE];

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
 * old one, so a running openvpn never reads half a CRL. The keys are readable by their owner only.
 */
function writeInside(dir: string, path: string, text: string): void {
  const file = inside(dir, path);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: SECRET_FILES.includes(basename(file)) ? 0o600 : 0o644 });
  renameSync(temporary, file);
}
