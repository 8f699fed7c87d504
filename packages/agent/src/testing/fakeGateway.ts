import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { deviceMessage, helloMessage, type DeviceMessage, type HelloMessage, type NetworkConfigPayload } from '@hublink/contract';

/** What the fake gateway does with a hello: welcome it (with these extras) or close with a code. */
export type HelloVerdict = { close: number; reason?: string } | { close?: undefined; credential?: string; configs?: NetworkConfigPayload[]; networks?: string[] };

export interface GatewaySession {
  socket: WebSocket;
  hello: HelloMessage;
  messages: DeviceMessage[];
  send(message: unknown): void;
}

/**
 * The server side of the device protocol, just enough to drive an agent in tests: every message the
 * agent sends is checked against the contract's schemas (a mismatch is recorded in `invalid`).
 */
export class FakeGateway {
  readonly sessions: GatewaySession[] = [];
  readonly hellos: HelloMessage[] = [];
  /** When each hello arrived (ms), in the order of `hellos`. */
  readonly helloTimes: number[] = [];
  readonly invalid: string[] = [];
  timing = { heartbeat_timeout: 30, ping_interval: 10, status_interval: 0.05, traffic_interval: 0.05 };
  /** The protocol version the welcome names. */
  protocol = 1;
  onHello: (hello: HelloMessage, index: number) => HelloVerdict = () => ({});
  private server!: WebSocketServer;

  /** Port 0 picks a free one; a restarted gateway passes its old port so the agents find it again. */
  async start(port = 0): Promise<string> {
    this.server = new WebSocketServer({ port, host: '127.0.0.1', path: '/api/device/v1/ws' });
    await once(this.server, 'listening');
    this.server.on('connection', (socket) => this.accept(socket));
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Every message of one type the sessions received, in order. */
  received<T extends DeviceMessage['type']>(type: T): Extract<DeviceMessage, { type: T }>[] {
    return this.sessions.flatMap((s) => s.messages.filter((m): m is Extract<DeviceMessage, { type: T }> => m.type === type));
  }

  get last(): GatewaySession {
    const s = this.sessions.at(-1);
    if (!s) throw new Error('no session yet');
    return s;
  }

  private accept(socket: WebSocket): void {
    let session: GatewaySession | null = null;
    socket.on('message', (data) => {
      const raw: unknown = JSON.parse(data.toString());
      if (!session) {
        const hello = helloMessage.safeParse(raw);
        if (!hello.success) {
          this.invalid.push(`hello: ${hello.error.message}`);
          socket.close(4009);
          return;
        }
        this.hellos.push(hello.data);
        this.helloTimes.push(Date.now());
        const verdict = this.onHello(hello.data, this.hellos.length - 1);
        if (verdict.close !== undefined) {
          socket.close(verdict.close, verdict.reason ?? '');
          return;
        }
        session = { socket, hello: hello.data, messages: [], send: (m) => socket.send(JSON.stringify(m)) };
        this.sessions.push(session);
        const name = hello.data.kind === 'router' ? hello.data.router_name : hello.data.login;
        session.send({
          type: 'welcome',
          protocol: this.protocol,
          session_id: `s${this.sessions.length}`,
          ...(verdict.credential ? { credential: verdict.credential } : {}),
          member: { router_name: name, router_type: hello.data.kind === 'router' ? 1 : 2 },
          timing: this.timing,
          configs: verdict.configs ?? [],
          networks: verdict.networks ?? (verdict.configs ?? []).map((c) => c.network_number),
        });
        return;
      }
      const message = deviceMessage.safeParse(raw);
      if (!message.success) {
        this.invalid.push(`${String((raw as { type?: unknown }).type)}: ${message.error.message}`);
        return;
      }
      session.messages.push(message.data);
      if (message.data.type === 'ping') session.send({ type: 'pong' });
    });
  }
}

/** A center serving store1 and store2, and a point dialing center1 first through a POP area. */
export function centerConfig(network = 'N1', version = 1): NetworkConfigPayload {
  return {
    network_number: network,
    network_name: 'net',
    version,
    config: {
      member_type: 'center',
      services: [{ service: 'router', clients: [{ router_name: 'store1', address: '100.64.0.2' }, { router_name: 'store2', address: '100.64.0.3' }] }],
      links: [],
    },
    openvpn: { 'router.conf': 'port 1194\n' },
    certificates: null,
  };
}

export function pointConfig(network = 'N2', version = 1): NetworkConfigPayload {
  return {
    network_number: network,
    network_name: 'net2',
    version,
    config: {
      member_type: 'point',
      tunnels: [
        {
          name: 'center-center1',
          center: 'center1',
          address: '100.64.0.9',
          remotes: [
            { host: 'pop.example.net', port: 11, via: 'pop', name: '华南' },
            { host: '198.51.100.1', port: 1194, via: 'center', name: 'center1' },
          ],
        },
      ],
    },
    openvpn: { 'center-center1.conf': 'client\n' },
    certificates: null,
  };
}
