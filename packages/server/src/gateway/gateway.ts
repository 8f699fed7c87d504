import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { DEVICE_CLOSE, DEVICE_FEATURES, DEVICE_PROTOCOL, DEVICE_TIMING, helloMessage, type HelloMessage } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { ApiError } from '../core/errors';
import { DEVICE_CHANNELS, WATCH_TTL_MS, watchRequest } from '../domain/deviceChannels';
import type { Unsubscribe } from '../core/pubsub';
import { authenticate, DEVICE_CONNECTION_LIMIT } from './auth';
import { deviceOrigin, startWebSignIns, stopWebSignIns } from './webSignIn';
import { FLOOD_BASE, floodLimits } from './floodLimit';
import { configsOf, networkConfigsOf, networksOf, payloadFor, type HeldConfig } from './configs';
import { delivery, publishDelivery, type Delivery } from './deliveries';
import { GatewayMetrics } from './metrics';
import { metricsOf } from '../core/metrics';
import { DeviceSession } from './session';
import { DirectoryTunnels } from './directoryTunnels';
import { DeviceMessages, messageType } from './messages';
import { recordEnds, recordRefusal, type SessionEndSeen } from './diagnosisRows';
import { INSTANCE_BEAT_MS, beat, beginSession, endSession, endSessions, sweepSessions } from './sessionRows';

/** The window in which a session's messages are counted (floodLimit.ts: how many it may send). */
const CHECK_MS = 5_000;
/** How often sessions are checked for the heartbeat timeout (so a lost device is offline within a second of it). */
const HEARTBEAT_CHECK_MS = 1_000;
/** Session ends written per transaction (a shutdown or a mass disconnect ends thousands at once). */
const END_BATCH = 500;
const LINK_FLUSH_MS = 1_000;
const COUNTER_FLUSH_MS = 60_000;
const HISTORY_FLUSH_MS = 10_000;

/**
 * The device gateway of one instance: the sessions it holds from hello to end, and what other instances
 * ask of them (deliveries over pub/sub); what their messages after the hello do is in messages.ts.
 * docs/device-protocol.md describes the protocol.
 */
export class Gateway {
  private readonly sessions = new Map<number, DeviceSession>();
  private readonly writes = new Set<Promise<unknown>>();
  private readonly messages: DeviceMessages;
  private readonly metrics: GatewayMetrics;
  /** LDAP private mode: connections to tenants' directories through their routers (issue 33). */
  private readonly tunnels: DirectoryTunnels;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribes: Unsubscribe[] = [];
  private stopping = false;
  private readonly endQueue: { id: string; at: number; seen: SessionEndSeen; done: () => void }[] = [];
  private endWorker: Promise<void> | undefined;

  constructor(private readonly ctx: Ctx) {
    this.tunnels = new DirectoryTunnels(ctx, (id) => this.sessions.get(id));
    this.messages = new DeviceMessages(ctx, this.tunnels, {
      track: (p) => this.track(p),
      close: (s, code, reason) => this.close(s.socket, code, reason, s),
    });
    const prom = metricsOf(ctx);
    this.metrics = new GatewayMetrics(prom?.observeDeviceMessage);
    prom?.watch({ devices: () => this.sessions.size });
  }

  get size() {
    return this.sessions.size;
  }

  sessionOf(memberId: number): DeviceSession | undefined {
    return this.sessions.get(memberId);
  }

  async start() {
    const { ctx } = this;
    const ended = await sweepSessions(ctx, Date.now(), ctx.config.instance);
    if (ended > 0) ctx.log.info({ ended }, 'gateway: ended the sessions an earlier run of this instance left open');
    await beat(ctx.db, ctx.config.instance, Date.now());
    startWebSignIns(ctx);
    this.unsubscribes.push(
      await ctx.pubsub.subscribe(DEVICE_CHANNELS.deliver, (m) => {
        const d = delivery.safeParse(m);
        if (d.success) this.track(this.onDelivery(d.data));
      }),
      await ctx.pubsub.subscribe(DEVICE_CHANNELS.watch, (m) => {
        const w = watchRequest.safeParse(m);
        if (w.success) this.watch(w.data.member_id);
      }),
      await this.tunnels.start(),
    );
    const every = (ms: number, work: () => Promise<unknown> | void) => {
      const t = setInterval(() => {
        const p = work();
        if (p) this.track(p);
      }, ms);
      t.unref();
      this.timers.push(t);
    };
    every(INSTANCE_BEAT_MS, () => beat(ctx.db, ctx.config.instance, Date.now()));
    every(CHECK_MS, () => this.checkFloods());
    every(HEARTBEAT_CHECK_MS, () => this.checkHeartbeats(Date.now()));
    every(LINK_FLUSH_MS, () => this.messages.flushLinks());
    every(COUNTER_FLUSH_MS, () => this.messages.flushCounters());
    every(HISTORY_FLUSH_MS, () => this.messages.flushHistory());
    const metricsSeconds = ctx.config.gatewayMetricsSeconds;
    if (metricsSeconds) {
      // Asked for explicitly, so logged whatever the log level.
      const log = ctx.log.child({}, { level: 'info' });
      every(metricsSeconds * 1000, () => log.info({ sessions: this.sessions.size, ...this.metrics.take() }, 'gateway: message handling'));
    }
  }

  /** Closes every session (1001: reconnect elsewhere or later), writes their ends and what is pending. */
  async stop() {
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    stopWebSignIns(this.ctx);
    for (const u of this.unsubscribes) await u();
    this.unsubscribes = [];
    for (const s of this.sessions.values()) this.close(s.socket, DEVICE_CLOSE.goingAway, 'server shutting down', s);
    await Promise.all([...this.sessions.values()].map((s) => this.end(s)));
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
    await this.messages.flush();
  }

  /** Keeps a write in view so stop() waits for it; its failure is logged, never thrown into a socket handler. */
  private track(p: Promise<unknown>) {
    const tracked = p.catch((err: unknown) => this.ctx.log.error({ err }, 'gateway: a write failed'));
    this.writes.add(tracked);
    void tracked.finally(() => this.writes.delete(tracked));
  }

  /** A new WebSocket: it must say hello within the heartbeat timeout. */
  accept(socket: WebSocket, req: FastifyRequest) {
    if (this.stopping) return this.close(socket, DEVICE_CLOSE.goingAway, 'server shutting down');
    const remote = { ip: req.ip, port: req.socket.remotePort ?? 0 };
    const origin = deviceOrigin(this.ctx, req);
    let session: DeviceSession | undefined;
    let closed = false;
    // Messages are handled one after another, so a status never overtakes the hello it follows.
    let chain: Promise<void> = Promise.resolve();
    const helloTimer = setTimeout(() => this.close(socket, DEVICE_CLOSE.helloExpected, 'hello expected'), DEVICE_TIMING.heartbeatTimeout * 1000);
    helloTimer.unref();
    const admitted = this.admit(remote.ip);
    void admitted.then((ok) => ok || this.close(socket, DEVICE_CLOSE.tooManyAttempts, 'too many connections from this address, try later'));

    // Messages that arrive while the hello is handled count toward the session's first window.
    let early = 0;
    socket.on('message', (data: RawData, isBinary: boolean) => {
      const received = performance.now();
      if (session) {
        session.lastSeen = Date.now();
        session.messages++;
      } else early++;
      const parsed = isBinary ? undefined : parseJson(data);
      if (parsed === undefined) return this.close(socket, DEVICE_CLOSE.protocolError, 'a message must be one JSON object');
      chain = chain.then(async () => {
        if (closed || !(await admitted)) return;
        if (!session) {
          clearTimeout(helloTimer);
          session = await this.hello(socket, parsed, remote);
          if (session) {
            session.origin = origin;
            session.messages += early;
          }
          this.metrics.record('hello', performance.now() - received);
          if (session && closed) await this.end(session);
          return;
        }
        await this.messages.onMessage(session, parsed);
        this.metrics.record(messageType(parsed), performance.now() - received);
      }).catch((err: unknown) => {
        // One message that could not be handled must not stop the session's later ones.
        this.ctx.log.error({ err }, 'gateway: handling a device message failed');
      });
      this.track(chain);
    });
    socket.on('close', (code: number, reason: Buffer) => {
      closed = true;
      clearTimeout(helloTimer);
      if (session) {
        session.closedWith(code, reason.toString('utf8'));
        this.track(this.end(session));
      }
    });
    socket.on('error', (err) => this.ctx.log.debug({ err }, 'gateway: socket error'));
  }

  /** Whether the address is within its connection rate (a failing store admits: the sign-in limits still hold). */
  private async admit(ip: string): Promise<boolean> {
    try {
      await this.ctx.limiter.hit(DEVICE_CONNECTION_LIMIT, ip);
      return true;
    } catch (err) {
      if (err instanceof ApiError) return false;
      this.ctx.log.error({ err }, 'gateway: the connection limit could not be counted');
      return true;
    }
  }

  private async hello(socket: WebSocket, raw: unknown, remote: { ip: string; port: number }): Promise<DeviceSession | undefined> {
    const parsed = helloMessage.safeParse(raw);
    if (!parsed.success) {
      this.close(socket, isHelloShaped(raw) ? DEVICE_CLOSE.protocolError : DEVICE_CLOSE.helloExpected, 'hello expected');
      return undefined;
    }
    const hello = parsed.data;
    if (hello.protocol < DEVICE_PROTOCOL.oldest) {
      this.close(socket, DEVICE_CLOSE.unsupportedProtocol, `protocol ${hello.protocol} is no longer supported; oldest is ${DEVICE_PROTOCOL.oldest}`);
      return undefined;
    }
    const auth = await authenticate(this.ctx, hello, remote.ip);
    if (!auth.ok) {
      // Recorded before the close, so whoever sees the device refused also finds the refusal in diagnosis.
      try {
        if (auth.member) await recordRefusal(this.ctx.db, { member_id: auth.member.id, tenant_id: auth.member.tenant_id, at: Date.now(), ip: remote.ip, code: auth.code });
      } finally {
        this.close(socket, auth.code, auth.reason);
      }
      return undefined;
    }
    if (socket.readyState !== socket.OPEN) return undefined;
    const member = auth.member;
    const now = Date.now();
    const session = new DeviceSession(randomUUID(), member, socket, Math.min(hello.protocol, DEVICE_PROTOCOL.current), now, remote.ip);

    // One session per member: an older one, here or on another instance, is closed.
    const older = this.sessions.get(member.id);
    if (older) {
      this.close(older.socket, DEVICE_CLOSE.replaced, 'another session of this member signed in', older);
      await this.end(older);
    }
    await publishDelivery(this.ctx, { kind: 'close', member_id: member.id, code: DEVICE_CLOSE.replaced, reason: 'another session of this member signed in', except: session.id });

    await beginSession(this.ctx, { id: session.id, member, instance: this.ctx.config.instance, remoteIp: remote.ip, remotePort: remote.port, hello, now });
    this.sessions.set(member.id, session);
    try {
      await this.welcome(session, hello, auth.credential);
      await this.deliverCommands(session);
    } catch (err) {
      // Left without its welcome, the device would wait for one until its heartbeat ran out: it comes again.
      this.close(socket, DEVICE_CLOSE.serverError, 'the server could not set the session up', session);
      throw err;
    }
    return session;
  }

  private async welcome(s: DeviceSession, hello: HelloMessage, credential: string | undefined) {
    const { tenant_id, id } = s.member;
    const networks = await networksOf(this.ctx, tenant_id, id);
    for (const n of networks) s.networks.set(n.id, { number: n.network_number, memberType: n.member_type });
    // Only the configs the device lacks are loaded (a restart storm's devices hold them all).
    const held = new Map(hello.configs.map((c) => [c.network_number, c.version]));
    const stale = networks.filter((n) => n.version !== null && held.get(n.network_number) !== n.version).map((n) => n.id);
    const configs = await configsOf(this.ctx, tenant_id, id, stale);
    for (const c of configs) this.hold(s, c);
    s.send({
      type: 'welcome',
      protocol: s.protocol,
      session_id: s.id,
      ...(credential ? { credential } : {}),
      member: { router_name: s.member.router_name, router_type: s.member.router_type },
      timing: {
        heartbeat_timeout: DEVICE_TIMING.heartbeatTimeout,
        ping_interval: DEVICE_TIMING.pingInterval,
        status_interval: DEVICE_TIMING.statusInterval,
        traffic_interval: DEVICE_TIMING.trafficInterval,
      },
      configs: configs.filter((c) => held.get(c.network_number) !== c.payload.version).map((c) => payloadFor(s.protocol, c.payload)),
      networks: networks.map((n) => n.network_number),
    });
  }

  private hold(s: DeviceSession, c: HeldConfig) {
    const memberType = typeof c.payload.config.member_type === 'string' ? c.payload.config.member_type : '';
    s.networks.set(c.network_id, { number: c.network_number, memberType });
  }

  /** Sends the member's commands that are queued or were sent without an answer (oldest first). */
  private async deliverCommands(s: DeviceSession, only?: number) {
    const rows = await this.ctx.db
      .selectFrom('member_command as c')
      .innerJoin('network as n', 'n.id', 'c.network_id')
      .select(['c.id', 'c.kind', 'c.payload', 'c.network_id', 'n.network_number'])
      .where('c.member_id', '=', s.member.id)
      .where('c.tenant_id', '=', s.member.tenant_id)
      .where('c.state', 'in', ['queued', 'sent'])
      .$if(only !== undefined, (qb) => qb.where('c.id', '=', only!))
      .orderBy('c.id')
      .execute();
    for (const c of rows) {
      const kind = c.kind === 'kill' || c.kind === 'restart' || c.kind === 'resend_config' ? c.kind : null;
      if (!kind) continue;
      if (kind === 'resend_config') await this.pushConfigs(s, [c.network_id]);
      s.send({ type: 'command', command_id: c.id, kind, network_number: c.network_number, payload: parseObject(c.payload) });
      await this.ctx.db.updateTable('member_command').set({ state: 'sent', update_time: Date.now() }).where('id', '=', c.id).where('state', '=', 'queued').execute();
    }
  }

  private async pushConfigs(s: DeviceSession, networkIds: number[]) {
    for (const c of await configsOf(this.ctx, s.member.tenant_id, s.member.id, networkIds)) {
      this.hold(s, c);
      s.send({ type: 'config', ...payloadFor(s.protocol, c.payload) });
    }
  }

  private async onDelivery(d: Delivery) {
    switch (d.kind) {
      case 'config': {
        const held = d.member_ids.map((id) => this.sessions.get(id)).filter((s) => s !== undefined);
        if (held.length === 0) return;
        const configs = await networkConfigsOf(this.ctx, held[0]!.member.tenant_id, d.network_id, held.map((s) => s.member.id));
        for (const s of held) {
          const c = configs.get(s.member.id);
          // A session that ended meanwhile gets its configs in its next welcome.
          if (!c || this.sessions.get(s.member.id) !== s) continue;
          this.hold(s, c);
          s.send({ type: 'config', ...payloadFor(s.protocol, c.payload) });
        }
        return;
      }
      case 'leave':
        for (const id of d.member_ids) {
          const s = this.sessions.get(id);
          const held = s?.networks.get(d.network_id);
          if (!s || !held) continue;
          s.networks.delete(d.network_id);
          s.send({ type: 'leave', network_number: held.number });
        }
        return;
      case 'command': {
        const s = this.sessions.get(d.member_id);
        if (s) await this.deliverCommands(s, d.command_id);
        return;
      }
      case 'client_kill':
        for (const id of d.member_ids) {
          const s = this.sessions.get(id);
          const held = s?.networks.get(d.network_id);
          if (s && held && s.protocol >= DEVICE_FEATURES.clientAuth) s.send({ type: 'client_kill', network_number: held.number, common_names: d.common_names });
        }
        return;
      case 'client_auth_result': {
        const s = this.sessions.get(d.member_id);
        // Only the session that asked knows the id (a new session of the center asked nothing).
        if (s && s.id === d.session_id) s.send({ type: 'client_auth_result', id: d.id, verdict: d.verdict, reason: d.reason, client_reason: d.client_reason, url: '', timeout: 0 });
        return;
      }
      case 'close': {
        const s = this.sessions.get(d.member_id);
        if (s && s.id !== d.except) {
          this.close(s.socket, d.code, d.reason, s);
          await this.end(s);
        }
        return;
      }
    }
  }

  private watch(memberId: number) {
    const s = this.sessions.get(memberId);
    if (!s) return;
    const wasWatched = s.watchedUntil > Date.now();
    s.watchedUntil = Date.now() + WATCH_TTL_MS;
    // A new watcher sees the latest points at once rather than after the next report.
    if (!wasWatched && s.recentTraffic.length > 0) {
      this.track(this.ctx.pubsub.publish(DEVICE_CHANNELS.traffic(memberId), { member_id: memberId, data: s.recentTraffic }));
    }
  }

  private checkHeartbeats(now: number) {
    for (const s of this.sessions.values()) {
      if (now - s.lastSeen > DEVICE_TIMING.heartbeatTimeout * 1000) this.close(s.socket, DEVICE_CLOSE.heartbeatTimeout, 'no message within the heartbeat timeout', s);
    }
  }

  /** Closes the sessions that sent more in the last window than their links explain (floodLimit.ts). */
  private async checkFloods() {
    const suspects: [DeviceSession, number][] = [];
    for (const s of this.sessions.values()) {
      if (s.messages > FLOOD_BASE) suspects.push([s, s.messages]);
      s.messages = 0;
    }
    if (suspects.length === 0) return;
    const limits = await floodLimits(this.ctx.db, suspects.map(([s]) => s.member.id));
    for (const [s, messages] of suspects) {
      if (messages > limits.get(s.member.id)! && this.sessions.get(s.member.id) === s) this.close(s.socket, DEVICE_CLOSE.tooManyAttempts, 'too many messages', s);
    }
  }

  /** Says why, then closes; a session that is closed by the server is ended at once (a dead peer never answers the close). */
  private close(socket: WebSocket, code: number, reason: string, session?: DeviceSession) {
    session?.closedWith(code, reason);
    if (socket.readyState === socket.OPEN) {
      socket.send(JSON.stringify({ type: 'error', code, message: reason }));
      socket.close(code, reason);
    }
    if (session) this.track(this.end(session));
    // A peer that does not finish the closing handshake is cut off.
    setTimeout(() => socket.terminate(), 5_000).unref();
  }

  /** Writes the session's end once (whoever comes first: the socket's close, a replacement, stop). */
  private end(s: DeviceSession): Promise<void> {
    s.ending ??= (async () => {
      if (this.sessions.get(s.member.id) === s) this.sessions.delete(s.member.id);
      this.tunnels.sessionEnded(s);
      const at = Date.now();
      // Its session reports still waiting to be written go first, so that the end closes what they open.
      await s.writing;
      await new Promise<void>((done) => {
        const seen: SessionEndSeen = { member_id: s.member.id, tenant_id: s.member.tenant_id, seen: s.lastSeen, ip: s.remoteIp, code: s.closeCode, reason: s.closeReason };
        this.endQueue.push({ id: s.id, at, seen, done });
        this.endWorker ??= this.writeEnds();
      });
    })();
    return s.ending;
  }

  /**
   * Writes queued session ends, up to END_BATCH per transaction: 10,000 ends at once (a shutdown, a
   * network outage) written one transaction each queue on the database connection, whose lock wakes every
   * waiter at each release (it took 50 s). A failed batch is written one by one, so one bad row fails alone.
   */
  private async writeEnds() {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.endQueue.length > 0) {
      const batch = this.endQueue.splice(0, END_BATCH);
      try {
        await endSessions(this.ctx, batch);
      } catch (err) {
        this.ctx.log.warn({ err, n: batch.length }, 'gateway: a batch of session ends failed; writing them one by one');
        for (const e of batch) await endSession(this.ctx, e.id, e.at).catch((e2: unknown) => this.ctx.log.error({ err: e2 }, 'gateway: a session end failed'));
      }
      await recordEnds(this.ctx.db, batch.map((e) => e.seen)).catch((err: unknown) => this.ctx.log.warn({ err }, 'gateway: recording the ends for diagnosis failed'));
      for (const e of batch) e.done();
    }
    this.endWorker = undefined;
  }
}

function parseJson(data: RawData): unknown {
  try {
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isHelloShaped = (raw: unknown) => (raw as { type?: unknown }).type === 'hello';

function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
