import { WebSocket } from 'ws';
import { serverMessage, type ServerMessage } from '@hublink/contract';
import { until } from './until';

/**
 * A bare device for gateway tests: it speaks the protocol message by message, as the test says, and
 * keeps everything the server sends (checked against the contract) and how the socket closed.
 */
export class TestDevice {
  readonly received: ServerMessage[] = [];
  closed: { code: number; reason: string } | undefined;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.received.push(serverMessage.parse(JSON.parse(String(data)))));
    socket.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
  }

  static async open(baseUrl: string): Promise<TestDevice> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/device/v1/ws`);
    const device = new TestDevice(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return device;
  }

  send(message: object) {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message of a type received so far (or after waiting for it). */
  async next<T extends ServerMessage['type']>(type: T, where: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true): Promise<Extract<ServerMessage, { type: T }>> {
    const find = () => this.received.find((m): m is Extract<ServerMessage, { type: T }> => m.type === type && where(m as Extract<ServerMessage, { type: T }>));
    await until(() => find() !== undefined || this.closed !== undefined, `a ${type} message`);
    const found = find();
    if (!found) throw new Error(`closed (${this.closed?.code} ${this.closed?.reason}) before a ${type} message`);
    return found;
  }

  async closedWith(): Promise<{ code: number; reason: string }> {
    await until(() => this.closed !== undefined, 'the socket to close');
    return this.closed!;
  }

  close() {
    this.socket.close(1000);
  }
}

export const routerHello = (router_name: string, secret: string, extra: object = {}) => ({
  type: 'hello',
  protocol: 1,
  kind: 'router',
  router_name,
  secret,
  version: '1.2.3',
  os: 'linux',
  interfaces: [{ interface_uuid: 'u-wan', interface: 'wan', protocol: 'dhcp', ipv4: '192.0.2.10', ipv4_subnet_mask: '255.255.255.0', mtu: 1500 }],
  ...extra,
});

/** Opens one device per hello (spread over `bases`), sends them all at once, and counts how they were closed. */
export async function parallelHellos(bases: string[], hellos: object[]): Promise<Map<number, number>> {
  const codes = await Promise.all(
    hellos.map(async (hello, i) => {
      const d = await TestDevice.open(bases[i % bases.length]!);
      d.send(hello);
      return (await d.closedWith()).code;
    }),
  );
  const counted = new Map<number, number>();
  for (const c of codes) counted.set(c, (counted.get(c) ?? 0) + 1);
  return counted;
}
