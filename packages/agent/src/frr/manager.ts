import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../backoff';
import { CommandError, findCommand, type HostCommands, type ProcessExit } from '../host/commands';
import { sharedScheduler, type Scheduled, type Scheduler } from '../scheduler';
import { frrConfig, type FrrConfig } from './config';
import { DAEMONS, endLeftovers, exitText, FrrDaemon, type DaemonName } from './daemon';
import { readDynamic, type NetworkDynamic } from './section';
import { configDiff, parseConfig } from './tree';

/*
 * Dynamic routing on the device (a member's quagga flag): one FRRouting instance for every network the
 * device is in, run by the agent as its children and configured only from the compiled `dynamic`
 * sections (config.ts). The first apply starts zebra, bgpd and (for OSPF) ospfd and loads the whole
 * configuration; a later one checks the new configuration with FRR's own parser first (refused: the
 * daemons keep what works), then applies only the difference (tree.ts), so a BGP session whose lines
 * did not change never flaps. A daemon that dies is started again after a jittered backoff and given
 * the whole configuration; no section left stops them all, and zebra takes its routes with it.
 */

export const FRR_MISSING = 'dynamic routing needs FRRouting (Debian: apt-get install frr)';
/** Debian's place for FRR's daemons. */
export const FRR_DIR = '/usr/lib/frr';
/** A daemon that ran this long before it died starts its backoff afresh. */
const STABLE_MS = 60_000;

export interface FrrManagerOptions {
  host: HostCommands;
  /** The agent's state directory: FRR's files go in its `frr` directory (network numbers start with N). */
  stateDir: string;
  log: (line: string) => void;
  scheduler?: Scheduler;
  /** Waits before starting a daemon that died again (default: the reconnect backoff, 1-5 s up to 30 s). */
  backoff?: BackoffPolicy;
  /** Where FRR's daemons are (default /usr/lib/frr). */
  frrDir?: string;
}

/** What the agent hands over for each network whose compiled configuration has a `dynamic` section. */
export interface DynamicInput {
  network: string;
  /** The section as it came (routingOf(config).dynamic): read strictly here. */
  dynamic: unknown;
}

export interface FrrRoute {
  prefix: string;
  /** 'bgp', 'ospf', 'connected', 'kernel', … */
  protocol: string;
  selected: boolean;
  installed: boolean;
  nexthops: { ip: string | null; interface: string | null }[];
}

export interface BgpPeer {
  address: string;
  description: string;
  state: string;
  /** How long the session has been established (0 when it is not). */
  uptimeMs: number;
  received: number;
  sent: number;
}

interface Applied {
  config: FrrConfig;
  /** The daemons the configuration needs. */
  daemons: DaemonName[];
}

const errorText = (e: unknown) => (e instanceof CommandError ? e.stderr.trim() || e.message : e instanceof Error ? e.message : String(e));

export class FrrManager {
  /** FRR's directory: sockets, pid files, logs, the configuration. */
  readonly dir: string;
  private readonly frrDir: string;
  private readonly scheduler: Scheduler;
  private readonly daemons = new Map<DaemonName, FrrDaemon>();
  private readonly restarts = new Map<DaemonName, { timer: Scheduled | null; attempt: number }>();
  /** What the daemons run (or are given when they start again); null: FRR is not running. */
  private applied: Applied | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private group: string | null = null;

  constructor(private readonly options: FrrManagerOptions) {
    this.dir = join(options.stateDir, 'frr');
    this.frrDir = options.frrDir ?? FRR_DIR;
    this.scheduler = options.scheduler ?? sharedScheduler();
  }

  /**
   * Makes FRR run the configuration of these networks (in the device's order: the first one's AS and
   * router id win). Resolves with the problems, [] when all is applied. A section that cannot be read,
   * or a configuration FRR refuses, changes nothing: the daemons keep the previous configuration.
   */
  apply(sections: DynamicInput[]): Promise<string[]> {
    return this.serially(() => this.applyNow(sections));
  }

  /** Ends every daemon (zebra takes its routes out of the kernel); a later apply starts them again. */
  stop(): Promise<void> {
    return this.serially(() => this.stopAll(true));
  }

  /** The pid of each running daemon. */
  pids(): Partial<Record<DaemonName, number>> {
    const out: Partial<Record<DaemonName, number>> = {};
    for (const [name, d] of this.daemons) if (d.pid !== null) out[name] = d.pid;
    return out;
  }

  /** Runs vtysh commands (`show …`) against the running daemons and returns their output. */
  vtysh(...commands: string[]): Promise<string> {
    return this.runVtysh(commands.flatMap((c) => ['-c', c]));
  }

  /** zebra's routing table: what BGP and OSPF learned and whether it is in the kernel. */
  async routes(): Promise<FrrRoute[]> {
    if (!this.applied) return [];
    type Json = Record<string, { prefix: string; protocol: string; selected?: boolean; installed?: boolean; nexthops?: { ip?: string; interfaceName?: string }[] }[]>;
    const json = JSON.parse(await this.vtysh('show ip route json')) as Json;
    return Object.values(json).flatMap((entries) =>
      entries.map((r) => ({
        prefix: r.prefix,
        protocol: r.protocol,
        selected: r.selected === true,
        installed: r.installed === true,
        nexthops: (r.nexthops ?? []).map((n) => ({ ip: n.ip ?? null, interface: n.interfaceName ?? null })),
      })),
    );
  }

  /** The BGP sessions and their state. */
  async peers(): Promise<BgpPeer[]> {
    if (!this.applied) return [];
    type Json = { ipv4Unicast?: { peers?: Record<string, { desc?: string; state?: string; peerUptimeMsec?: number; pfxRcd?: number; pfxSnt?: number }> } };
    const json = JSON.parse(await this.vtysh('show bgp summary json')) as Json;
    return Object.entries(json.ipv4Unicast?.peers ?? {}).map(([address, p]) => ({
      address,
      description: p.desc ?? '',
      state: p.state ?? 'unknown',
      uptimeMs: p.state === 'Established' ? (p.peerUptimeMsec ?? 0) : 0,
      received: p.pfxRcd ?? 0,
      sent: p.pfxSnt ?? 0,
    }));
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private installed(): boolean {
    return DAEMONS.every((d) => existsSync(join(this.frrDir, d))) && findCommand('vtysh') !== null;
  }

  private async applyNow(input: DynamicInput[]): Promise<string[]> {
    const sections: NetworkDynamic[] = [];
    const refused: string[] = [];
    for (const s of input) {
      const read = readDynamic(s.dynamic);
      if ('refused' in read) refused.push(`network ${s.network}: dynamic routing refused: ${read.refused}`);
      else sections.push({ network: s.network, dynamic: read.dynamic });
    }
    if (refused.length > 0) return this.applied ? [...refused, 'FRR keeps its previous configuration'] : refused;
    if (sections.length === 0) {
      if (this.applied) this.options.log('FRR: no network has dynamic routing any more; stopping it');
      await this.stopAll(true);
      return [];
    }
    if (!this.installed()) return [FRR_MISSING];
    if (!this.options.host.spawn) return ['dynamic routing needs a host that can start processes'];

    const config = frrConfig(sections);
    const wanted: Applied = { config, daemons: DAEMONS.filter((d) => d !== 'ospfd' || config.ospf) };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // vtysh reads vtysh.conf from its --config_dir: an empty one here, not FRR's /etc/frr/vtysh.conf.
    writeFileSync(join(this.dir, 'vtysh.conf'), '', { mode: 0o600 });
    const refusal = await this.check(config.text);
    if (refusal !== null) return [...config.problems, `dynamic routing: FRR refused the configuration (${refusal})${this.applied ? '; it keeps the previous one' : ''}`];
    if (this.applied?.config.text !== config.text) for (const note of config.notes) this.options.log(`FRR: ${note}`);
    try {
      if (!this.applied || !this.daemons.has('zebra')) await this.restartAll(wanted);
      else await this.change(this.applied, wanted);
    } catch (e) {
      return [...config.problems, `dynamic routing: ${errorText(e)}`];
    }
    return config.problems;
  }

  /** FRR's own parser on the whole configuration (`vtysh -C`): null when it takes it, else its complaint. */
  private async check(text: string): Promise<string | null> {
    const file = join(this.dir, 'frr.conf.new');
    writeFileSync(file, text, { mode: 0o600 });
    try {
      await this.runVtysh(['-C', '-f', file]);
      return null;
    } catch (e) {
      return errorText(e).replace(/\s+/g, ' ');
    }
  }

  /**
   * Applies the difference to the running daemons. If FRR refuses a command of it (something was
   * changed by hand), they start afresh with the whole configuration, and if even that fails, with the
   * previous one: the device keeps what works.
   */
  private async change(old: Applied, wanted: Applied): Promise<void> {
    if (old.config.text === wanted.config.text) return;
    // A daemon the old configuration did not need starts with it, then takes the difference like the others.
    for (const name of wanted.daemons) {
      if (this.daemons.has(name)) continue;
      await this.startDaemon(name);
      await this.load(old.config.text, name);
    }
    const commands = configDiff(parseConfig(old.config.text), parseConfig(wanted.config.text));
    this.setApplied(wanted);
    try {
      await this.runVtysh(['-c', 'configure terminal', ...commands.flatMap((c) => ['-c', c]), '-c', 'end']);
    } catch (e) {
      this.options.log(`FRR: applying the change failed (${errorText(e)}); starting FRR again with the whole configuration`);
      try {
        await this.restartAll(wanted);
      } catch (whole) {
        this.options.log(`FRR: the whole configuration failed too (${errorText(whole)}); starting FRR again with the previous one`);
        await this.restartAll(old);
        throw whole;
      }
      return;
    }
    for (const name of [...this.daemons.keys()]) if (!wanted.daemons.includes(name)) await this.stopDaemon(name);
  }

  /** Stops whatever runs (an earlier run's daemons too), starts the daemons the configuration needs and loads it whole. */
  private async restartAll(wanted: Applied): Promise<void> {
    await this.stopAll();
    await endLeftovers(this.dir, this.frrDir, this.options.log);
    this.setApplied(wanted);
    try {
      for (const name of wanted.daemons) await this.startDaemon(name);
      await this.load(wanted.config.text);
      this.options.log(`FRR started (${wanted.daemons.join(', ')}; logs in ${this.dir})`);
    } catch (e) {
      await this.stopAll();
      throw e;
    }
  }

  private setApplied(wanted: Applied): void {
    this.applied = wanted;
    writeFileSync(join(this.dir, 'frr.conf'), wanted.config.text, { mode: 0o600 });
  }

  /** Loads a whole configuration into every running daemon, or into one (`vtysh -d`). */
  private async load(text: string, only?: DaemonName): Promise<void> {
    const file = join(this.dir, 'frr.conf.load');
    writeFileSync(file, text, { mode: 0o600 });
    await this.runVtysh([...(only ? ['-d', only] : []), '-f', file]);
  }

  private runVtysh(args: string[]): Promise<string> {
    return this.options.host.run('vtysh', ['--config_dir', this.dir, '--vty_socket', this.dir, ...args]);
  }

  private async vtyGroup(): Promise<string> {
    if (this.group === null) {
      this.group = await this.options.host.run('getent', ['group', 'frrvty']).then(
        () => 'frrvty',
        () => 'root',
      );
    }
    return this.group;
  }

  private async startDaemon(name: DaemonName): Promise<void> {
    const daemon = new FrrDaemon({
      name,
      host: this.options.host,
      frrDir: this.frrDir,
      dir: this.dir,
      group: await this.vtyGroup(),
      onExit: (exit, ranMs) => this.onExit(daemon, exit, ranMs),
    });
    this.daemons.set(name, daemon);
    try {
      await daemon.start();
    } catch (e) {
      this.daemons.delete(name);
      throw e;
    }
  }

  /** A daemon died: started again after a backoff, with the whole configuration. */
  private onExit(daemon: FrrDaemon, exit: ProcessExit, ranMs: number): void {
    if (this.daemons.get(daemon.name) !== daemon) return;
    this.daemons.delete(daemon.name);
    this.restartLater(daemon.name, `exited (${exitText(exit)})`, ranMs);
  }

  private restartLater(name: DaemonName, what: string, ranMs: number): void {
    if (!this.applied) return;
    const restart = this.restarts.get(name) ?? { timer: null, attempt: 0 };
    if (ranMs >= STABLE_MS) restart.attempt = 0;
    const delay = backoffDelay(this.options.backoff ?? DEFAULT_BACKOFF, restart.attempt++);
    this.options.log(`FRR ${name} ${what}; restarting in ${(delay / 1000).toFixed(1)} s (see ${join(this.dir, `${name}.log`)})`);
    restart.timer?.cancel();
    restart.timer = this.scheduler.after(delay, () => {
      restart.timer = null;
      void this.serially(() => this.revive(name));
    });
    this.restarts.set(name, restart);
  }

  private async revive(name: DaemonName): Promise<void> {
    const applied = this.applied;
    if (!applied || !applied.daemons.includes(name) || this.daemons.has(name)) return;
    try {
      if (name === 'zebra') {
        // bgpd and ospfd reconnect to a new zebra but do not give it their routes again (watchfrr, too,
        // restarts every daemon when zebra died): all of them start again.
        await this.restartAll(applied);
        this.options.log('FRR zebra running again: every daemon started again with the whole configuration');
      } else {
        await this.startDaemon(name);
        await this.load(applied.config.text, name);
        this.options.log(`FRR ${name} running again with the whole configuration`);
      }
    } catch (e) {
      // It did not start, or did not take the configuration: ended, and tried again later.
      const daemon = this.daemons.get(name);
      this.daemons.delete(name);
      await daemon?.stop();
      // A failed restart of everything leaves nothing running, but FRR is still wanted.
      this.applied = applied;
      this.restartLater(name, `could not start again (${errorText(e)})`, 0);
    }
  }

  private async stopDaemon(name: DaemonName): Promise<void> {
    const restart = this.restarts.get(name);
    restart?.timer?.cancel();
    if (restart) restart.timer = null;
    const daemon = this.daemons.get(name);
    if (!daemon) return;
    this.daemons.delete(name);
    const killed = await daemon.stop();
    if (killed) this.options.log(`FRR ${name} did not end on SIGTERM: killed`);
    // zebra takes its routes out of the kernel when it ends, not when it is killed.
    if (killed && name === 'zebra') {
      for (const proto of ['bgp', 'ospf']) await this.options.host.run('ip', ['route', 'flush', 'proto', proto]).catch(() => '');
    }
  }

  /** Ends every daemon; `forget`: and their restart counts (FRR is no longer wanted, not only started again). */
  private async stopAll(forget = false): Promise<void> {
    this.applied = null;
    if (forget) this.restarts.clear();
    // The routing daemons first, so zebra sees them go; zebra last, taking the routes with it.
    await Promise.all((['bgpd', 'ospfd'] as const).map((name) => this.stopDaemon(name)));
    await this.stopDaemon('zebra');
  }
}
