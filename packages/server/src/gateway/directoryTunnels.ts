import { DIRECTORY_RELAY, ROUTER_TYPE, type DeviceMessage } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { RELAY_CHANNELS, relayOpen, relayUp, type RelayDown, type RelayOpen } from '../domain/directoryRelay';
import type { Unsubscribe } from '../core/pubsub';
import type { DeviceSession } from './session';

/*
 * The gateway's part of LDAP private mode (issue 33; docs/device-protocol.md "Directory relay"): the
 * instance holding a router's session relays one connection to the tenant's directory between the
 * server that asked (core/directoryRelay.ts, on any instance, over pub/sub) and the router's agent.
 * It asks only the tenant's own hardware router, and names to it the host and port the request
 * carries, which the LDAP module takes from the tenant's configuration and nowhere else.
 */

type RelayMessage = Extract<DeviceMessage, { type: 'directory_opened' | 'directory_data' | 'directory_close' }>;

interface Tunnel {
  session: DeviceSession;
  unsubscribe?: Unsubscribe;
}

export class DirectoryTunnels {
  private readonly tunnels = new Map<string, Tunnel>();

  constructor(
    private readonly ctx: Ctx,
    private readonly sessionOf: (memberId: number) => DeviceSession | undefined,
  ) {}

  /** Listens for requests; the sessions this instance holds answer theirs. */
  start(): Promise<Unsubscribe> {
    return this.ctx.pubsub.subscribe(RELAY_CHANNELS.open, (m) => {
      const r = relayOpen.safeParse(m);
      if (r.success) void this.open(r.data).catch((err: unknown) => this.ctx.log.error({ err }, 'gateway: a directory relay could not open'));
    });
  }

  private down(id: string, m: RelayDown) {
    return this.ctx.pubsub.publish(RELAY_CHANNELS.down(id), m);
  }

  private async open(r: RelayOpen) {
    const s = this.sessionOf(r.member_id);
    // Another instance holds the session (or none does: the requester's wait ends it).
    if (!s) return;
    if (s.member.tenant_id !== r.tenant_id || s.member.router_type !== ROUTER_TYPE.hardware) return this.down(r.id, { kind: 'opened', ok: false, error: 'not_named' });
    if (this.tunnels.has(r.id)) return this.down(r.id, { kind: 'opened', ok: false, error: 'duplicate' });
    if (this.countOf(s) >= DIRECTORY_RELAY.connections) return this.down(r.id, { kind: 'opened', ok: false, error: 'too_many' });
    const tunnel: Tunnel = { session: s };
    this.tunnels.set(r.id, tunnel);
    const unsubscribe = await this.ctx.pubsub.subscribe(RELAY_CHANNELS.up(r.id), (m) => {
      const up = relayUp.safeParse(m);
      if (!up.success || this.tunnels.get(r.id) !== tunnel) return;
      if (up.data.kind === 'data') return s.send({ type: 'directory_data', id: r.id, data: up.data.data });
      s.send({ type: 'directory_close', id: r.id, error: '' });
      this.drop(r.id);
    });
    tunnel.unsubscribe = unsubscribe;
    // The session ended while subscribing.
    if (this.tunnels.get(r.id) !== tunnel) return void unsubscribe().catch(() => undefined);
    s.send({ type: 'directory_target', host: r.host, port: r.port });
    s.send({ type: 'directory_open', id: r.id, host: r.host, port: r.port });
  }

  /** A relay message from a router: passed to the server that asked, when the connection is this session's. */
  async fromDevice(s: DeviceSession, m: RelayMessage) {
    const tunnel = this.tunnels.get(m.id);
    if (!tunnel || tunnel.session !== s) return;
    switch (m.type) {
      case 'directory_opened':
        if (!m.ok) this.drop(m.id);
        return this.down(m.id, { kind: 'opened', ok: m.ok, error: m.error });
      case 'directory_data':
        return this.down(m.id, { kind: 'data', data: m.data });
      case 'directory_close':
        this.drop(m.id);
        return this.down(m.id, { kind: 'close', error: m.error });
    }
  }

  /** The router's session ended: its connections end with it. */
  sessionEnded(s: DeviceSession) {
    for (const [id, tunnel] of this.tunnels) {
      if (tunnel.session !== s) continue;
      this.drop(id);
      void this.down(id, { kind: 'close', error: 'router_offline' }).catch(() => undefined);
    }
  }

  private countOf(s: DeviceSession) {
    let n = 0;
    for (const t of this.tunnels.values()) if (t.session === s) n++;
    return n;
  }

  private drop(id: string) {
    const tunnel = this.tunnels.get(id);
    this.tunnels.delete(id);
    void tunnel?.unsubscribe?.().catch(() => undefined);
  }
}
