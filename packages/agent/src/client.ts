import WebSocket from 'ws';
import {
  DEVICE_CLOSE,
  DEVICE_FEATURES,
  DEVICE_LIMITS,
  DEVICE_PROTOCOL,
  DEVICE_TIMING,
  serverMessage,
  type DeviceMessage,
  type HelloMessage,
  type NetworkConfigPayload,
  type ServerMessage,
  type SessionReport,
  type WelcomeMessage,
} from '@hublink/contract';
import { backoffDelay, DEFAULT_BACKOFF, RESTART_MAX_MS, type BackoffPolicy } from './backoff';
import { ClientAuthDesk } from './clientAuthDesk';
import { DirectoryRelay } from './directoryRelay';
import type { Device, DeviceSession } from './device';
import { sharedScheduler, type Scheduled, type Scheduler } from './scheduler';

export type Identity = { kind: 'router'; router_name: string } | { kind: 'app'; login: string };

export interface ClientOptions {
  /** ws://host[:port] or the full ws://host/api/device/v1/ws. */
  url: string;
  identity: Identity;
  secret?: string;
  /** A credential saved from an earlier welcome. */
  credential?: string;
  device: Device;
  scheduler?: Scheduler;
  backoff?: BackoffPolicy;
  /** Flow records are sent every this many status intervals. */
  flowsEvery?: number;
  /** Called with every credential the server issues, and with undefined when one is refused. */
  saveCredential?: (credential: string | undefined) => void;
  /** The device's own random id (StateDir.deviceId), sent in the hello so the tenant can approve this device (issue 30). */
  deviceId?: string;
  /** The local address to connect from (a simulator spreads its agents over 127.0.0.0/8, as sites have addresses of their own). */
  localAddress?: string;
  /** How long to wait after 4030 (awaiting approval); DEVICE_TIMING.approvalRetry seconds by default. */
  approvalRetryMs?: number;
  onStateChange?: (state: ClientState, client: DeviceClient) => void;
  log?: (line: string) => void;
}

/**
 * connecting/waiting: on the way to a session; connected: welcomed; failed: the server refused the device
 * for good (bad or revoked secret, disabled, replaced by another session), see `failure`; stopped: stop().
 */
export type ClientState = 'idle' | 'connecting' | 'connected' | 'waiting' | 'failed' | 'stopped';

export interface Failure {
  code: number;
  reason: string;
}

/** A link change is reported this soon, so changes coming together go in one status message. */
const STATUS_SOON_MS = 200;
/** Session reports wait this long for others to go with them in one `sessions` message (protocol 3). */
const SESSIONS_SOON_MS = 200;
const AUTH_CODES: ReadonlySet<number> = new Set([DEVICE_CLOSE.authFailed, DEVICE_CLOSE.disabled, DEVICE_CLOSE.revoked]);
const DEVICE_PATH = '/api/device/v1/ws';

/** What a close code means, for the log line when the server gives no reason text. */
const CLOSE_MEANING: Record<number, string> = {
  [DEVICE_CLOSE.goingAway]: 'server going away',
  [DEVICE_CLOSE.tooBig]: 'message too big',
  [DEVICE_CLOSE.serverError]: 'server error',
  [DEVICE_CLOSE.authFailed]: 'wrong name, login, secret or credential',
  [DEVICE_CLOSE.disabled]: 'member disabled',
  [DEVICE_CLOSE.revoked]: 'member deleted or its secret changed',
  [DEVICE_CLOSE.replaced]: 'replaced by a newer session',
  [DEVICE_CLOSE.helloExpected]: 'hello expected',
  [DEVICE_CLOSE.heartbeatTimeout]: 'heartbeat timeout',
  [DEVICE_CLOSE.protocolError]: 'protocol error',
  [DEVICE_CLOSE.unsupportedProtocol]: 'protocol version not supported',
  [DEVICE_CLOSE.tooManyAttempts]: 'too many sign-in attempts',
  [DEVICE_CLOSE.awaitingApproval]: 'this device waits for the administrator’s approval',
  [DEVICE_CLOSE.deviceRefused]: 'the administrator refused this device',
  1006: 'connection lost',
};

export function deviceUrl(url: string): string {
  const u = new URL(url.replace(/^http/, 'ws'));
  if (u.pathname === '/' || u.pathname === '') u.pathname = DEVICE_PATH;
  return u.toString();
}

/**
 * The device side of the gateway protocol for one member: hello, welcome, configs, commands and the
 * periodic reports, with reconnects. All its timing runs on one shared Scheduler entry per client.
 */
export class DeviceClient {
  state: ClientState = 'idle';
  failure: Failure | null = null;
  sessionId: string | null = null;
  /** Welcomes received (a reconnect counts again). */
  welcomes = 0;
  readonly held = new Map<string, number>();

  private ws: WebSocket | null = null;
  private credential: string | undefined;
  private usedCredential = false;
  /** The next hello with the secret is the last try: an auth refusal of it stops the client. */
  private secretIsLastTry = false;
  private attempt = 0;
  /** The server said it was going away (1001): it is restarting, so retries stay short until the next welcome. */
  private restarting = false;
  private timing: Record<'heartbeat' | 'ping' | 'status' | 'traffic', number> = { heartbeat: DEVICE_TIMING.heartbeatTimeout, ping: DEVICE_TIMING.pingInterval, status: DEVICE_TIMING.statusInterval, traffic: DEVICE_TIMING.trafficInterval };
  private next: Scheduled | null = null;
  /** The protocol version the welcome named (what this session may send). */
  private protocol = 1;
  /** Session reports waiting to go in one `sessions` message, and the flush that sends them. */
  private pendingSessions: SessionReport[] = [];
  private sessionsFlush: Scheduled | null = null;
  private due = { status: 0, traffic: 0, flows: 0 };
  private lastSent = 0;
  private lastReceived = 0;
  private lastTraffic = 0;
  private lastFlows = 0;
  private pingFrameSent = false;
  /** The local address of the connection to the gateway: where this device is reached from outside (see sendHello). */
  private localAddress = '';
  private work: Promise<void> = Promise.resolve();
  private readonly scheduler: Scheduler;
  private readonly url: string;
  private readonly log: (line: string) => void;
  private readonly clientAuth = new ClientAuthDesk((m) => this.send(m));
  /** LDAP private mode: connections to the tenant's directory, for the gateway only (issue 33). */
  private readonly directory = new DirectoryRelay(
    (m) => this.send(m),
    (line) => this.log(line),
  );

  constructor(private readonly options: ClientOptions) {
    this.scheduler = options.scheduler ?? sharedScheduler();
    this.url = deviceUrl(options.url);
    this.credential = options.credential;
    this.log = options.log ?? ((line) => console.log(`[${this.name}] ${line}`));
    options.device.attach({
      sessionUp: (s) => this.sendSession('up', s),
      sessionDown: (s) => this.sendSession('down', s),
      log: (line) => this.log(line),
      linksChanged: () => this.statusSoon(),
      clientAuth: (network, request) => this.clientAuth.ask(network, request),
      tunnelLogin: () => (options.identity.kind === 'app' && this.credential ? { username: options.identity.login, password: this.credential } : null),
    });
  }

  get name(): string {
    const id = this.options.identity;
    return id.kind === 'router' ? id.router_name : id.login;
  }

  /** Connections to the tenant's directory relayed now. */
  get connectionsRelayed(): number {
    return this.directory.connections;
  }

  get device(): Device {
    return this.options.device;
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.open();
  }

  async stop(): Promise<void> {
    this.next?.cancel();
    this.next = null;
    this.dropPendingSessions();
    this.setState('stopped');
    this.ws?.close(1000);
    this.ws = null;
    this.directory.closeAll();
    await this.work;
    await this.options.device.stop();
  }

  /** Sends a message if a session is up; reports are dropped while disconnected (the server has no session to put them in). */
  send(message: DeviceMessage | HelloMessage): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    if (message.type !== 'hello' && this.state !== 'connected') return false;
    this.ws.send(JSON.stringify(message));
    this.lastSent = Date.now();
    return true;
  }

  private setState(state: ClientState): void {
    if (this.state === state || this.state === 'stopped') return;
    this.state = state;
    this.options.onStateChange?.(state, this);
  }

  private open(): void {
    if (this.state === 'stopped' || this.state === 'failed') return;
    this.setState('connecting');
    // No permessage-deflate: a zlib context per socket is what would make 10,000 agents heavy.
    const ws = new WebSocket(this.url, { maxPayload: 64 * 1024 * 1024, handshakeTimeout: this.timing.heartbeat * 1000, perMessageDeflate: false, ...(this.options.localAddress ? { localAddress: this.options.localAddress } : {}) });
    this.ws = ws;
    ws.on('upgrade', (res) => {
      this.localAddress = (res.socket.localAddress ?? '').replace(/^::ffff:/, '');
    });
    ws.on('open', () => this.sendHello());
    ws.on('message', (data) => {
      this.lastReceived = Date.now();
      this.pingFrameSent = false;
      this.onMessage(data.toString());
    });
    ws.on('pong', () => {
      this.lastReceived = Date.now();
      this.pingFrameSent = false;
    });
    ws.on('error', () => {
      // 'close' follows with 1006; the cause (refused, reset) is in the log line there.
    });
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.clientAuth.dropAll();
      this.onClose(code, reason.toString());
    });
  }

  private sendHello(): void {
    const id = this.identity();
    this.usedCredential = this.credential !== undefined;
    const base = {
      type: 'hello' as const,
      protocol: DEVICE_PROTOCOL.current,
      ...(this.usedCredential ? { credential: this.credential } : { secret: this.options.secret }),
      os: id.os,
      version: id.version,
      sys_brand: id.sys_brand,
      sys_model: id.sys_model,
      sys_version: id.sys_version,
      ...(this.options.deviceId ? { device_id: this.options.deviceId } : {}),
      interfaces: id.interfaces.slice(0, DEVICE_LIMITS.interfaces),
      configs: [...this.held].slice(0, DEVICE_LIMITS.links).map(([network_number, version]) => ({ network_number, version })),
    };
    const who = this.options.identity;
    // A real device is dialled where it reaches the gateway from: its first interface may be a LAN.
    const ipv4 = this.options.device.mode === 'openvpn' && /^\d+\.\d+\.\d+\.\d+$/.test(this.localAddress) && !this.localAddress.startsWith('127.') ? this.localAddress : id.router_ipv4;
    const hello: HelloMessage =
      who.kind === 'router'
        ? { ...base, kind: 'router', router_name: who.router_name, router_model: id.router_model, router_mac: id.router_mac, router_ipv4: ipv4 }
        : { ...base, kind: 'app', login: who.login };
    this.send(hello);
  }

  private identity() {
    return this.options.device.identity();
  }

  private onMessage(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.log('ignored a message that is not JSON');
      return;
    }
    const parsed = serverMessage.safeParse(raw);
    if (!parsed.success) {
      // A type this agent does not know is a newer server's: ignore it. A known type that does not parse is logged.
      const type = (raw as { type?: unknown } | null)?.type;
      if (['welcome', 'config', 'leave', 'command', 'pong', 'error', 'client_auth_result', 'client_kill'].includes(String(type))) this.log(`ignored a malformed ${String(type)} message`);
      return;
    }
    this.handle(parsed.data);
  }

  private handle(message: ServerMessage): void {
    switch (message.type) {
      case 'welcome':
        this.onWelcome(message);
        return;
      case 'config':
        this.queue(() => this.applyConfig(message));
        return;
      case 'leave':
        this.queue(async () => {
          await this.leave(message.network_number);
        });
        return;
      case 'command':
        this.queue(async () => {
          let error = '';
          try {
            await this.options.device.command(message.kind, message.network_number);
          } catch (e) {
            error = errorText(e);
          }
          this.send({ type: 'ack', command_id: Math.max(1, message.command_id), ok: error === '', error });
        });
        return;
      case 'error':
        this.log(`server: ${message.code} ${message.message}`);
        return;
      case 'pong':
        return;
      case 'client_auth_result':
        this.clientAuth.onResult(message);
        return;
      case 'client_kill':
        this.queue(() => this.options.device.killClients?.(message.network_number, message.common_names) ?? Promise.resolve());
        return;
      case 'directory_target':
        this.directory.name(message.host, message.port);
        return;
      case 'directory_open':
        this.directory.connect(message.id, message.host, message.port);
        return;
      case 'directory_data':
        this.directory.write(message.id, message.data);
        return;
      case 'directory_close':
        this.directory.close(message.id);
        return;
    }
  }

  private onWelcome(welcome: WelcomeMessage): void {
    this.attempt = 0;
    this.restarting = false;
    this.secretIsLastTry = false;
    this.sessionId = welcome.session_id;
    this.protocol = welcome.protocol;
    this.welcomes++;
    if (welcome.credential && welcome.credential !== this.credential) {
      this.credential = welcome.credential;
      this.options.saveCredential?.(welcome.credential);
      // The member's own tunnels present the credential to their centers: the new one from now on.
      this.queue(() => this.options.device.loginChanged?.() ?? Promise.resolve());
    }
    const t = welcome.timing;
    // A zero or negative interval from a confused server must not become a busy loop.
    const at = (seconds: number) => Math.max(0.02, seconds);
    this.timing = { heartbeat: at(t.heartbeat_timeout), ping: at(t.ping_interval), status: at(t.status_interval), traffic: at(t.traffic_interval) };
    const now = Date.now();
    this.lastTraffic = now;
    this.lastFlows = now;
    this.lastReceived = now;
    this.due = { status: now, traffic: now + this.timing.traffic * 1000, flows: now + this.flowsPeriodMs() };
    this.setState('connected');
    this.log(`connected (session ${welcome.session_id}, ${welcome.networks.length} network(s), ${welcome.configs.length} config(s) to apply)`);
    const listed = new Set(welcome.networks);
    this.queue(async () => {
      for (const network of [...this.held.keys()]) if (!listed.has(network)) await this.leave(network);
      for (const config of welcome.configs) await this.applyConfig(config);
    });
    for (const session of this.options.device.openSessions()) this.sendSession('up', session);
    this.flushSessions();
    this.schedule();
  }

  private async applyConfig(config: NetworkConfigPayload): Promise<void> {
    let error = '';
    try {
      await this.options.device.apply(config);
      this.held.set(config.network_number, config.version);
    } catch (e) {
      error = errorText(e);
      this.log(`config ${config.network_number} v${config.version} not applied: ${error}`);
    }
    this.send({ type: 'applied', network_number: config.network_number, version: config.version, ok: error === '', error });
  }

  private async leave(networkNumber: string): Promise<void> {
    this.held.delete(networkNumber);
    try {
      await this.options.device.leave(networkNumber);
    } catch (e) {
      this.log(`leaving ${networkNumber} failed: ${errorText(e)}`);
    }
  }

  /** Configs, leaves and commands run one at a time in arrival order, so a leave never races its own config. */
  private queue(task: () => Promise<void>): void {
    this.work = this.work.then(task).catch((e: unknown) => this.log(`task failed: ${errorText(e)}`));
  }

  /**
   * Reports a session's start or end. A server of protocol 3 gets them in batches (a center whose 5,000
   * clients connect sends a few messages, not 5,000); an older one gets one message each.
   */
  sendSession(event: 'up' | 'down', s: DeviceSession): void {
    const report: SessionReport = { event, ...s, time: event === 'up' ? s.time : nowSeconds() };
    if (this.protocol < DEVICE_FEATURES.sessionBatches) {
      this.send({ type: 'session', ...report });
      return;
    }
    // Nothing goes out before the welcome (it resends the open sessions), nor is kept across a reconnect.
    if (this.state !== 'connected') return;
    this.pendingSessions.push(report);
    if (this.pendingSessions.length >= DEVICE_LIMITS.sessionsPerMessage) this.flushSessions();
    else this.sessionsFlush ??= this.scheduler.after(SESSIONS_SOON_MS, () => this.flushSessions());
  }

  private flushSessions(): void {
    const sessions = this.pendingSessions;
    this.dropPendingSessions();
    if (sessions.length > 0) this.send({ type: 'sessions', sessions });
  }

  private dropPendingSessions(): void {
    this.sessionsFlush?.cancel();
    this.sessionsFlush = null;
    this.pendingSessions = [];
  }

  /** A link changed: report the links within a moment rather than at the next status interval. */
  private statusSoon(): void {
    if (this.state !== 'connected') return;
    const soon = Date.now() + STATUS_SOON_MS;
    if (this.due.status <= soon) return;
    this.due.status = soon;
    this.schedule();
  }

  private flowsPeriodMs(): number {
    return this.timing.status * 1000 * (this.options.flowsEvery ?? 6);
  }

  private schedule(): void {
    this.next?.cancel();
    if (this.state !== 'connected') return;
    const pingDue = this.lastSent + this.timing.ping * 1000;
    const liveness = this.lastReceived + this.timing.heartbeat * 1000;
    const at = Math.min(this.due.status, this.due.traffic, this.due.flows, pingDue, liveness);
    this.next = this.scheduler.after(at - Date.now(), () => this.tick());
  }

  private tick(): void {
    this.next = null;
    if (this.state !== 'connected') return;
    const now = Date.now();
    const device = this.options.device;
    if (now >= this.due.traffic) {
      const sample = device.traffic(Math.max(0.001, (now - this.lastTraffic) / 1000));
      this.lastTraffic = now;
      this.send({ type: 'traffic', data: sample.data.slice(0, DEVICE_LIMITS.trafficPoints), rx_bytes: sample.rx_bytes, tx_bytes: sample.tx_bytes });
      this.due.traffic = now + this.timing.traffic * 1000;
    }
    if (now >= this.due.status) {
      this.send({ type: 'status', links: device.links().slice(0, DEVICE_LIMITS.links) });
      this.due.status = now + this.timing.status * 1000;
    }
    if (now >= this.due.flows) {
      const records = device.flows(Math.max(0.001, (now - this.lastFlows) / 1000));
      this.lastFlows = now;
      const time = nowSeconds();
      if (records.length) this.send({ type: 'flows', records: records.slice(0, DEVICE_LIMITS.flowRecords).map((r) => ({ ...r, time })) });
      this.due.flows = now + this.flowsPeriodMs();
    }
    if (now >= this.lastSent + this.timing.ping * 1000) this.send({ type: 'ping' });
    this.checkLiveness(now);
    this.schedule();
  }

  /** A server that went silent (a dead route, not a closed socket) is probed with a ping frame, then dropped. */
  private checkLiveness(now: number): void {
    const silentMs = now - this.lastReceived;
    const limit = this.timing.heartbeat * 1000;
    if (silentMs < limit || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (!this.pingFrameSent) {
      this.pingFrameSent = true;
      this.lastReceived = now - limit / 2;
      this.ws.ping();
      return;
    }
    this.log('server silent: reconnecting');
    this.ws.terminate();
  }

  private onClose(code: number, reason: string): void {
    this.next?.cancel();
    this.next = null;
    // The server ends a closed session's sessions itself; the next welcome reports the open ones again.
    this.dropPendingSessions();
    this.directory.closeAll();
    if (this.state === 'stopped') return;
    const wasCredential = this.usedCredential;
    const text = `${code} (${reason || CLOSE_MEANING[code] || 'closed'})`;
    if (AUTH_CODES.has(code) && code !== DEVICE_CLOSE.disabled && (wasCredential || code === DEVICE_CLOSE.revoked) && !this.secretIsLastTry) {
      // A refused credential, or a revoked session: the secret may still (or newly) be valid, so try it once.
      this.dropCredential();
      if (this.options.secret === undefined) return this.fail(code, `${text}; no secret to sign in with`);
      this.secretIsLastTry = true;
      this.log(`closed ${text}: signing in again with the secret`);
      this.setState('waiting');
      this.open();
      return;
    }
    if (AUTH_CODES.has(code) || code === DEVICE_CLOSE.unsupportedProtocol) return this.fail(code, text);
    if (code === DEVICE_CLOSE.replaced || code === DEVICE_CLOSE.deviceRefused) return this.fail(code, text);
    if (code === DEVICE_CLOSE.awaitingApproval) {
      // Not a failure: the tenant approves new devices. Ask again at a steady pace until an administrator decides.
      const wait = this.options.approvalRetryMs ?? DEVICE_TIMING.approvalRetry * 1000;
      this.log(`closed ${text}: waiting for approval, asking again in ${(wait / 1000).toFixed(0)} s`);
      this.setState('waiting');
      this.next = this.scheduler.after(wait, () => {
        this.next = null;
        this.open();
      });
      return;
    }
    if (code === DEVICE_CLOSE.goingAway) this.restarting = true;
    const policy = this.options.backoff ?? DEFAULT_BACKOFF;
    // A restart takes seconds: waits that grew to half a minute would keep devices away long after it.
    const delay = backoffDelay(this.restarting ? { ...policy, maxMs: Math.min(policy.maxMs, RESTART_MAX_MS) } : policy, this.attempt++, code === DEVICE_CLOSE.tooManyAttempts);
    this.log(`closed ${text}: reconnecting in ${(delay / 1000).toFixed(1)} s`);
    this.setState('waiting');
    this.next = this.scheduler.after(delay, () => {
      this.next = null;
      this.open();
    });
  }

  private dropCredential(): void {
    if (this.credential === undefined) return;
    this.credential = undefined;
    this.options.saveCredential?.(undefined);
  }

  private fail(code: number, reason: string): void {
    this.failure = { code, reason };
    this.log(`stopped: ${reason}`);
    this.setState('failed');
    this.options.device.stop().catch((e: unknown) => this.log(`stopping the tunnels failed: ${errorText(e)}`));
  }
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).slice(0, 256);
}
