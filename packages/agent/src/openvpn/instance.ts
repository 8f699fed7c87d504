import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../backoff';
import type { Scheduled, Scheduler } from '../scheduler';
import { answerCommand, PLATFORM_UNREACHABLE, requestOf, type ClientAuthAnswer, type ClientAuthCommand, type ClientAuthHandler } from './clientAuth';
import type { ClientNotification, OpenvpnClient, OpenvpnState, RealtimeEvent } from './management';
import { parseStateLine, parseStatus } from './management';
import { ManagementClient } from './managementClient';

export interface InstanceOptions {
  binary: string;
  /** The network's directory: the .conf, its ccd files and the certificates. */
  dir: string;
  conf: string;
  /** The tun device it opens (hlN): routes name it, and a restart opens the same one. Null: as its .conf says. */
  dev: string | null;
  scheduler: Scheduler;
  log: (line: string) => void;
  /** Called when the instance's state or client list changed. */
  onChange: () => void;
  /** How often a server's client list is read (`status 3`), ms. */
  pollMs?: number;
  /** Waits before restarting an openvpn that died. */
  backoff?: BackoffPolicy;
  /** Answers the clients of a server started with management-client-auth (a center's software service). */
  clientAuth?: ClientAuthHandler;
  /** The .conf has management-client-auth: a client counts once OpenVPN says ESTABLISHED (not while refused or pending). */
  asksAboutClients?: boolean;
  /** The settings an admitted client gets (its routes and DNS), read at each admission. */
  clientConfig?: () => string[];
}

/** A client whose answer never came is refused: OpenVPN would otherwise hold it until hand-window. */
const NO_ANSWER = { verdict: 'deny', reason: 'the platform did not answer', clientReason: PLATFORM_UNREACHABLE } as const;

/** Bytes in and out, kept across a client's reconnects and the process's restarts (openvpn restarts its counters). */
export interface Counters {
  bytesIn: number;
  bytesOut: number;
}

const MANAGEMENT_CONNECT_TRIES = 50;
/** How long a stopped openvpn may take to end (it tells its peer first: explicit-exit-notify). */
const STOP_BOUND_MS = 5_000;

/** One supervised `openvpn --config <conf>` with its management connection. */
export class OpenvpnInstance {
  state: OpenvpnState | null = null;
  /** Real-time state lines seen: the answer to the first `state` query yields to one that came in after it was asked. */
  private stateEvents = 0;
  clients: OpenvpnClient[] = [];
  readonly total: Counters = { bytesIn: 0, bytesOut: 0 };
  /** Bytes per client real address since the last flows() read. */
  readonly bySource = new Map<string, Counters>();
  private child: ChildProcess | null = null;
  private management: ManagementClient | null = null;
  private stopping = false;
  private attempt = 0;
  private timer: Scheduled | null = null;
  private lastSeen = new Map<number, Counters>();
  /** A server's clients that left, with their session's counters (OpenVPN's at DISCONNECT, else the last poll's), by common name. */
  private readonly ended = new Map<string, Counters>();
  /** Clients OpenVPN said ESTABLISHED and not yet DISCONNECT, by client id (with asksAboutClients). */
  private readonly established = new Set<number>();
  /** A tunnel's counters when it last came up, and counted since: they outlive the process's exit. */
  private tunnelBase: Counters = { bytesIn: 0, bytesOut: 0 };
  private tunnelCount: Counters = { bytesIn: 0, bytesOut: 0 };
  private exited: Promise<void> = Promise.resolve();
  /** Bumped by every start and stop: a spawn still waiting for its port gives up when it changed. */
  private generation = 0;
  private spawning: Promise<void> = Promise.resolve();

  constructor(private readonly options: InstanceOptions) {}

  get name(): string {
    return this.options.conf.replace(/\.conf$/, '');
  }

  get connected(): boolean {
    return this.state?.state === 'CONNECTED';
  }

  /** A client's session that ended: its counters (received from it, sent to it), once. */
  takeEnded(commonName: string): Counters | undefined {
    const c = this.ended.get(commonName);
    this.ended.delete(commonName);
    return c;
  }

  /** This tunnel's counters from when it last came up to its last byte count (received, sent). */
  tunnelBytes(): Counters {
    return { ...this.tunnelCount };
  }


  get dev(): string | null {
    return this.options.dev;
  }

  /** The openvpn process's pid file, which a later run of the agent reads to end one this run left behind. */
  get pidFile(): string {
    return join(this.options.dir, `${this.name}.pid`);
  }

  start(): void {
    this.stopping = false;
    const generation = ++this.generation;
    this.spawning = this.spawn(generation);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.generation++;
    this.timer?.cancel();
    this.timer = null;
    // A spawn waiting for its port must not start a process after this (two openvpn for one tunnel).
    await this.spawning;
    this.management?.close();
    this.management = null;
    const child = this.child;
    child?.kill('SIGTERM');
    // An openvpn in its restart pause (after a refusal) can sit on SIGTERM: it gets a bound, then SIGKILL.
    const ended = await Promise.race([this.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_BOUND_MS).unref())]);
    if (!ended) {
      this.options.log(`${this.options.conf}: openvpn did not end within ${STOP_BOUND_MS / 1000} s of SIGTERM; killed`);
      child?.kill('SIGKILL');
      await this.exited;
    }
    this.reset();
  }

  /** Tells openvpn to reconnect now (SIGUSR1), skipping its retry wait; nothing without a management connection. */
  async reconnect(): Promise<void> {
    await this.management?.command('signal SIGUSR1').catch(() => undefined);
  }

  /**
   * Disconnects the named clients of a server at once, telling each to reconnect (`client-kill`, whose
   * default message is RESTART): one still admitted comes back with its new settings, one removed is
   * refused. The client list is read fresh, as the polled one may miss a client that just connected; a
   * name not connected is no error, and without a management connection no openvpn takes clients.
   */
  async kill(commonNames: string[]): Promise<void> {
    const m = this.management;
    const names = new Set(commonNames);
    if (!m || names.size === 0) return;
    try {
      const status = parseStatus(await m.command('status 3'));
      if (status.kind !== 'server') return;
      for (const c of status.clients.filter((x) => names.has(x.commonName))) await m.command(`client-kill ${c.clientId}`);
      const left = this.admitted(status.clients).filter((c) => !names.has(c.commonName));
      this.noteLeft(left);
      this.clients = left;
      this.options.onChange();
    } catch (e) {
      this.options.log(`${this.options.conf}: disconnecting ${[...names].join(', ')} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private reset(): void {
    this.state = null;
    this.clients = [];
    this.established.clear();
    this.lastSeen = new Map();
    this.options.onChange();
  }

  private async spawn(generation: number): Promise<void> {
    const port = await freePort();
    if (this.stopping || generation !== this.generation || this.child) return;
    const { dir, conf, binary, dev } = this.options;
    const log = openSync(join(dir, `${this.name}.log`), 'a');
    // The device name follows the config so it overrides the config's `dev tun`.
    const args = ['--cd', dir, '--config', conf, '--management', '127.0.0.1', String(port), ...(dev ? ['--dev', dev, '--dev-type', 'tun'] : []), '--writepid', this.pidFile];
    const child = spawn(binary, args, { stdio: ['ignore', log, log] });
    closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) => {
      // 'close' comes after 'exit', or after 'error' when the binary could not be started at all.
      child.once('close', (code, signal) => {
        if (this.child === child) this.child = null;
        resolve();
        this.onExit(code, signal);
      });
      child.once('error', (e) => {
        this.options.log(`${conf}: cannot start openvpn: ${e.message}`);
      });
    });
    this.connectManagement(child, port, 0);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.management?.close();
    this.management = null;
    this.timer?.cancel();
    if (this.stopping) return;
    this.reset();
    const delay = backoffDelay(this.options.backoff ?? DEFAULT_BACKOFF, this.attempt++);
    this.options.log(`${this.options.conf}: openvpn exited (${signal ?? code}); restarting in ${(delay / 1000).toFixed(1)} s (see ${this.name}.log)`);
    const generation = this.generation;
    this.timer = this.options.scheduler.after(delay, () => {
      this.timer = null;
      if (!this.stopping && generation === this.generation) this.spawning = this.spawn(generation);
    });
  }

  /** openvpn opens its management port a moment after it starts: retry briefly. */
  private connectManagement(child: ChildProcess, port: number, tries: number): void {
    // Every step re-checks that this process is still the live one: it may have died while we waited.
    const current = () => !this.stopping && this.child === child;
    if (!current()) return;
    const m = new ManagementClient((e) => this.onEvent(e));
    m.connect(port)
      .then(async () => {
        if (!current()) return m.close();
        this.management = m;
        await m.command('state on');
        await m.command('bytecount 5');
        const seen = this.stateEvents;
        const [line] = await m.command('state');
        const state = line ? parseStateLine(line) : null;
        // The answer is the state when the command was read: a >STATE line that came in meanwhile is as
        // new or newer (the answer of AUTH overwrote a CONNECTED that arrived with it, and the tunnel's
        // routes moved away from a working tunnel).
        if (state && this.stateEvents === seen) this.setState(state);
        this.poll();
      })
      .catch(() => {
        m.close();
        if (!current()) return;
        if (tries >= MANAGEMENT_CONNECT_TRIES) {
          this.options.log(`${this.options.conf}: management port ${port} never answered; restarting openvpn`);
          this.child?.kill('SIGTERM');
          return;
        }
        this.timer = this.options.scheduler.after(200, () => this.connectManagement(child, port, tries + 1));
      });
  }

  private poll(): void {
    const m = this.management;
    if (!m || this.stopping) return;
    m.command('status 3')
      .then((lines) => {
        const status = parseStatus(lines);
        if (status.kind === 'server') {
          const admitted = this.admitted(status.clients);
          this.noteLeft(admitted);
          this.clients = admitted;
          this.options.onChange();
        }
      })
      .catch(() => {})
      .finally(() => {
        if (this.management === m) this.timer = this.options.scheduler.after(this.options.pollMs ?? 5000, () => this.poll());
      });
  }

  private admitted(clients: OpenvpnClient[]): OpenvpnClient[] {
    return this.options.asksAboutClients ? clients.filter((c) => this.established.has(c.clientId)) : clients;
  }

  /** Keeps the last known counters of clients gone from the list, where OpenVPN said nothing at their DISCONNECT. */
  private noteLeft(now: OpenvpnClient[]): void {
    const still = new Set(now.map((c) => c.commonName));
    for (const c of this.clients) {
      if (!still.has(c.commonName) && !this.ended.has(c.commonName)) this.ended.set(c.commonName, { bytesIn: c.bytesReceived, bytesOut: c.bytesSent });
    }
  }

  private onEvent(e: RealtimeEvent): void {
    if (e.type === 'client') this.onClient(e.client);
    else if (e.type === 'state') {
      this.stateEvents++;
      this.setState(e.state);
    }
    else if (e.type === 'bytecount') {
      this.count(-1, e.bytesIn, e.bytesOut, '');
      // OpenVPN starts its counters again after a restart inside the process.
      const since = (cur: number, base: number) => (cur >= base ? cur - base : cur);
      if (this.connected) this.tunnelCount = { bytesIn: since(e.bytesIn, this.tunnelBase.bytesIn), bytesOut: since(e.bytesOut, this.tunnelBase.bytesOut) };
    } else if (e.type === 'bytecount_cli') {
      const source = this.clients.find((c) => c.clientId === e.clientId)?.realAddress.replace(/:\d+$/, '') ?? '';
      this.count(e.clientId, e.bytesIn, e.bytesOut, source);
    }
  }

  /** A client to admit (CONNECT) or to keep (REAUTH): the platform decides, and the answer goes back for that key. */
  private onClient(n: ClientNotification): void {
    if (n.event === 'ESTABLISHED') {
      this.established.add(n.clientId);
      // A new session of this name: what an earlier one left is not its count.
      if (n.env.common_name) this.ended.delete(n.env.common_name);
      return;
    }
    if (n.event === 'DISCONNECT') this.established.delete(n.clientId);
    if (n.event === 'DISCONNECT' && n.env.common_name) {
      const int = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : 0);
      this.ended.set(n.env.common_name, { bytesIn: int(n.env.bytes_received), bytesOut: int(n.env.bytes_sent) });
      return;
    }
    const m = this.management;
    if (!m || (n.event !== 'CONNECT' && n.event !== 'REAUTH')) return;
    const handler = this.options.clientAuth;
    const who = `${n.env.common_name ?? '?'} from ${n.env.untrusted_ip ?? '?'}`;
    const send = (a: ClientAuthAnswer) => {
      if (a.verdict === 'deny') this.options.log(`${this.options.conf}: refused ${who}: ${a.reason}`);
      const command: ClientAuthCommand = a.verdict === 'accept' ? { verdict: 'accept', config: this.options.clientConfig?.() ?? [] } : a;
      return m.command(answerCommand(n, command)).catch((err: unknown) => this.options.log(`${this.options.conf}: answering ${who} failed: ${err instanceof Error ? err.message : String(err)}`));
    };
    void (handler ? handler(requestOf(n)) : Promise.resolve<ClientAuthAnswer>(NO_ANSWER))
      .catch((): ClientAuthAnswer => NO_ANSWER)
      .then(async (a) => {
        await send(a);
        if (a.verdict === 'pending') await send(await a.final.catch(() => NO_ANSWER));
      });
  }

  private count(key: number, bytesIn: number, bytesOut: number, source: string): void {
    const prev = this.lastSeen.get(key) ?? { bytesIn: 0, bytesOut: 0 };
    const dIn = Math.max(0, bytesIn - prev.bytesIn);
    const dOut = Math.max(0, bytesOut - prev.bytesOut);
    this.lastSeen.set(key, { bytesIn, bytesOut });
    this.total.bytesIn += dIn;
    this.total.bytesOut += dOut;
    if (!source) return;
    const s = this.bySource.get(source) ?? { bytesIn: 0, bytesOut: 0 };
    s.bytesIn += dIn;
    s.bytesOut += dOut;
    this.bySource.set(source, s);
  }

  private setState(state: OpenvpnState): void {
    const was = this.connected;
    this.state = state;
    if (!was && this.connected) {
      this.tunnelBase = { ...(this.lastSeen.get(-1) ?? { bytesIn: 0, bytesOut: 0 }) };
      this.tunnelCount = { bytesIn: 0, bytesOut: 0 };
    }
    if (this.connected) this.attempt = 0;
    if (was !== this.connected) this.options.onChange();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
