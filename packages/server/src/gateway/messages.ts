import {
  DEVICE_CLOSE,
  DEVICE_LIMITS,
  DEVICE_MESSAGE_TYPES,
  deviceMessage,
  type DeviceLink,
  type DeviceMessage,
  type SessionReport,
} from '@hublink/contract';
import type { Ctx } from '../core/context';
import { GroupCommit } from '../core/groupCommit';
import type { Db } from '../db/connect';
import { DEVICE_CHANNELS, trafficRelay } from '../domain/deviceChannels';
import { writeApplied, type Applied } from './applied';
import { deny, judgeClient } from './clientAuth';
import type { DirectoryTunnels } from './directoryTunnels';
import { FlowWriter } from './flows';
import { LiveWriter } from './liveWriter';
import { sessionsReported } from './onlineLog';
import type { DeviceSession } from './session';
import { TrafficHistoryWriter } from './trafficHistory';

/** Flow records held before a flush comes early (a burst of reports between two timer flushes). */
const FLOWS_EARLY_FLUSH = 50_000;

const known = new Set<string>(DEVICE_MESSAGE_TYPES);

/** What the handler asks of the gateway that holds the sessions. */
export interface MessageHost {
  /** Keeps a write in view until the gateway stops. */
  track(p: Promise<unknown>): void;
  /** Says why, then closes the session. */
  close(s: DeviceSession, code: number, reason: string): void;
}

/**
 * What a device's messages after its hello do (docs/device-protocol.md), and the writers they feed:
 * links and traffic counters, traffic history, flow minute sums, session reports and config
 * acknowledgements. The gateway flushes the writers on its timers and at its stop.
 */
export class DeviceMessages {
  private readonly writer: LiveWriter;
  /** Devices' acknowledgements of config versions: 10,000 devices acknowledging a change were 10,000 commits. */
  private readonly applied: GroupCommit<Applied>;
  private readonly sessionLog: GroupCommit<{ s: DeviceSession; reports: SessionReport[] }>;
  private readonly flows: FlowWriter;
  private readonly trafficHistory: TrafficHistoryWriter;

  constructor(
    private readonly ctx: Ctx,
    private readonly tunnels: DirectoryTunnels,
    private readonly host: MessageHost,
  ) {
    this.writer = new LiveWriter(ctx.db);
    this.sessionLog = new GroupCommit(ctx.db, (trx, { s, reports }) => this.writeSessions(trx, s, reports));
    this.applied = new GroupCommit(ctx.db, writeApplied);
    this.flows = new FlowWriter(ctx.db);
    this.trafficHistory = new TrafficHistoryWriter(ctx.db);
  }

  flushLinks() {
    return this.writer.flushLinks();
  }

  flushCounters() {
    return this.writer.flushCounters();
  }

  flushHistory() {
    return Promise.all([this.flows.flush(), this.trafficHistory.flush()]);
  }

  /** Everything the writers hold. */
  flush() {
    return Promise.all([this.writer.flush(), this.flows.flush(), this.trafficHistory.flush()]);
  }

  /** One message of a session after its welcome; one that breaks the protocol closes the session. */
  async onMessage(s: DeviceSession, raw: unknown) {
    const type = (raw as { type?: unknown }).type;
    if (typeof type !== 'string') return this.host.close(s, DEVICE_CLOSE.protocolError, 'a message needs a type');
    // A newer device's message types are ignored, so old servers keep working with new agents.
    if (!known.has(type)) return;
    const parsed = deviceMessage.safeParse(raw);
    if (!parsed.success) return this.host.close(s, DEVICE_CLOSE.protocolError, `message ${type} does not match the protocol`);
    await this.handle(s, parsed.data);
  }

  private async handle(s: DeviceSession, m: DeviceMessage) {
    const { db } = this.ctx;
    const now = Date.now();
    switch (m.type) {
      case 'ping':
        return s.send({ type: 'pong' });
      case 'status':
        return this.onStatus(s, m.links);
      case 'traffic': {
        s.keepTraffic(m.data);
        this.trafficHistory.add(s.member.id, s.member.tenant_id, m.data);
        this.writer.traffic(s.member.id, s.member.tenant_id, m.rx_bytes, m.tx_bytes);
        if (s.watchedUntil > now && m.data.length > 0) await this.ctx.pubsub.publish(DEVICE_CHANNELS.traffic(s.member.id), trafficRelay.parse({ member_id: s.member.id, data: m.data }));
        return;
      }
      case 'session': {
        const { type: _, ...report } = m;
        return this.onSessions(s, [report]);
      }
      case 'sessions':
        return this.onSessions(s, m.sessions);
      case 'flows':
        // Minute sums for SaaS analysis, written in batches.
        this.flows.add(s.member.id, s.member.tenant_id, m.records);
        if (this.flows.pending > FLOWS_EARLY_FLUSH) await this.flows.flush();
        return;
      case 'ack':
        await db
          .updateTable('member_command')
          .set({ state: m.ok ? 'done' : 'failed', error: m.error, update_time: now })
          .where('id', '=', m.command_id)
          .where('member_id', '=', s.member.id)
          .where('tenant_id', '=', s.member.tenant_id)
          .where('state', 'in', ['queued', 'sent'])
          .execute();
        return;
      case 'client_auth': {
        // A client waits on this answer: a failure here refuses it, and the session carries on.
        const { verdict, byAgent } = await judgeClient(this.ctx, s.member, m, now, { session_id: s.id, origin: s.origin }).catch((err: unknown) => {
          this.ctx.log.error({ err }, 'gateway: judging a client failed');
          return { verdict: deny('the platform could not decide', ''), byAgent: false };
        });
        s.send({ type: 'client_auth_result', id: m.id, ...verdict });
        // A standard client admitted (or signing in on the web): its center's report of its session is written as the member's.
        if (verdict.verdict !== 'deny' && !byAgent && !m.reauth && s.clientHellos.size < DEVICE_LIMITS.links) {
          s.clientHellos.set(m.common_name.toLowerCase(), { os: m.platform, version: m.client_version });
        }
        return;
      }
      case 'directory_opened':
      case 'directory_data':
      case 'directory_close':
        return this.tunnels.fromDevice(s, m);
      case 'applied': {
        const networkId = s.networkIdOf(m.network_number);
        if (networkId === undefined) return;
        this.host.track(this.applied.run({ tenant_id: s.member.tenant_id, network_id: networkId, member_id: s.member.id, version: m.version, ok: m.ok, error: m.error, at: now }));
        return;
      }
    }
  }

  /**
   * Tunnel sessions began or ended: the online log, and a POP area's connection for its events, written
   * with other sessions' reports in one transaction. The session's next messages do not wait for it (an
   * acknowledgement behind a queue of 25,000 reports took seconds); its reports keep their order in the
   * queue, and its end waits for them.
   */
  private onSessions(s: DeviceSession, reports: SessionReport[]) {
    // What a standard client said of itself goes into its sign-in record; a newer hello (it connected again meanwhile) stays.
    const hellos = new Map(reports.filter((m) => m.event === 'up').map((m) => [m.link_router_name.toLowerCase(), s.clientHellos.get(m.link_router_name.toLowerCase())]));
    const written = this.sessionLog.run({ s, reports }).then(() => {
      for (const [name, hello] of hellos) if (hello && s.clientHellos.get(name) === hello) s.clientHellos.delete(name);
    });
    s.writing = written.catch(() => undefined);
    this.host.track(written);
  }

  private async writeSessions(trx: Db, s: DeviceSession, reports: SessionReport[]) {
    await sessionsReported(trx, this.ctx.events, s, reports);
    const pops = reports.filter((m) => m.event === 'up' && m.mode === 'pop');
    if (pops.length > 0) {
      await this.ctx.events.emitAll(
        trx,
        pops.map((m) => ({ type: 'pop.connected' as const, tenant_id: s.member.tenant_id, member_id: s.member.id, pop_name: m.pop_name, area: m.area, at: m.time * 1000 })),
      );
    }
  }

  /** A point's links to its centers (a center's view of the same links is not written twice). */
  private async onStatus(s: DeviceSession, links: DeviceLink[]) {
    const unknown = [...new Set(links.map((l) => l.peer.toLowerCase()).filter((p) => !s.peers.has(p)))];
    if (unknown.length > 0) {
      const rows = await this.ctx.db.selectFrom('member').select(['id', 'router_key']).where('tenant_id', '=', s.member.tenant_id).where('router_key', 'in', unknown).execute();
      for (const r of rows) s.peers.set(r.router_key, r.id);
    }
    const seen = new Set<string>();
    const networks = new Set<number>();
    for (const l of links) {
      const networkId = s.networkIdOf(l.network_number);
      const center = s.peers.get(l.peer.toLowerCase());
      if (networkId === undefined || center === undefined || s.networks.get(networkId)?.memberType !== 'point') continue;
      const key = `${networkId}:${center}`;
      seen.add(key);
      networks.add(networkId);
      const since = l.online === 1 && l.since > 0 ? l.since * 1000 : null;
      const path = l.online === 1 && l.path ? l.path : '';
      const pathArea = path === 'pop' ? (l.pop_area ?? '') : '';
      const state = `${l.online}|${l.vpn_ip}|${since}|${path}|${pathArea}`;
      if (s.reported.get(key) === state) continue;
      s.reported.set(key, state);
      this.writer.link({ network_id: networkId, member_id: s.member.id, center_member_id: center, vpn_online: l.online, vpn_ip: l.vpn_ip, since, path, path_area: pathArea });
    }
    // A center the point no longer links to (its point links changed) is no longer reported: its link is down.
    for (const [key, state] of s.reported) {
      const [networkId, center] = key.split(':').map(Number) as [number, number];
      if (seen.has(key) || !networks.has(networkId) || state.startsWith('0|')) continue;
      s.reported.set(key, '0||null');
      this.writer.link({ network_id: networkId, member_id: s.member.id, center_member_id: center, vpn_online: 0, vpn_ip: '', since: null });
    }
  }
}

/** The message's type for the metrics ('other' for one this server does not know). */
export const messageType = (raw: unknown) => {
  const type = (raw as { type?: unknown }).type;
  return typeof type === 'string' && known.has(type) ? type : 'other';
};
