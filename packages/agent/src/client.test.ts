import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_CLOSE, DEVICE_LIMITS, DEVICE_PROTOCOL, sessionMessage, sessionsMessage, statusMessage, trafficMessage, flowsMessage } from '@hublink/contract';
import { DeviceClient, type ClientOptions } from './client';
import { Scheduler } from './scheduler';
import { SimulatedDevice } from './simulated';
import { centerConfig, FakeGateway, pointConfig } from './testing/fakeGateway';

const fast = { firstMinMs: 10, firstMaxMs: 30, maxMs: 100, throttledMinMs: 300 };

let gateway: FakeGateway;
let url: string;
let scheduler: Scheduler;
const clients: DeviceClient[] = [];

beforeEach(async () => {
  gateway = new FakeGateway();
  url = await gateway.start();
  scheduler = new Scheduler();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.stop()));
  scheduler.stop();
  await gateway.stop();
});

function agent(overrides: Partial<ClientOptions> = {}, kind: 'router' | 'app' = 'router'): DeviceClient {
  const name = kind === 'router' ? 'store1' : 'alice@acme';
  const client = new DeviceClient({
    url,
    identity: kind === 'router' ? { kind, router_name: name } : { kind, login: name },
    secret: 's3cret',
    device: new SimulatedDevice({ kind, name, scheduler, linkDelayMs: [5, 20] }),
    scheduler,
    backoff: fast,
    log: () => {},
    ...overrides,
  });
  clients.push(client);
  client.start();
  return client;
}

describe('hello', () => {
  it('a router signs in with its name, secret, protocol, identity and interfaces', async () => {
    agent();
    await expect.poll(() => gateway.hellos.length).toBe(1);
    const hello = gateway.hellos[0]!;
    expect(hello).toMatchObject({ type: 'hello', kind: 'router', router_name: 'store1', secret: 's3cret', protocol: DEVICE_PROTOCOL.current, os: 'linux', configs: [] });
    expect(hello.credential).toBeUndefined();
    expect(hello.interfaces.map((i) => i.interface)).toEqual(['eth0', 'eth1']);
    if (hello.kind === 'router') expect(hello.router_mac).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
  });

  it('an app signs in with its login', async () => {
    agent({}, 'app');
    await expect.poll(() => gateway.hellos.length).toBe(1);
    expect(gateway.hellos[0]).toMatchObject({ kind: 'app', login: 'alice@acme', secret: 's3cret' });
  });
});

describe('credentials and close codes', () => {
  it('reuses the welcome credential instead of the secret after a reconnect', async () => {
    const saved: (string | undefined)[] = [];
    gateway.onHello = () => ({ credential: 'cred-1' });
    const client = agent({ saveCredential: (c) => saved.push(c) });
    await expect.poll(() => client.state).toBe('connected');
    gateway.last.socket.close(DEVICE_CLOSE.goingAway);
    await expect.poll(() => gateway.hellos.length).toBe(2);
    expect(gateway.hellos[1]).toMatchObject({ credential: 'cred-1' });
    expect(gateway.hellos[1]!.secret).toBeUndefined();
    expect(saved).toEqual(['cred-1']);
    await expect.poll(() => client.welcomes).toBe(2);
  });

  it('a refused credential is retried once with the secret; a refused secret then stops the agent', async () => {
    const saved: (string | undefined)[] = [];
    gateway.onHello = () => ({ close: DEVICE_CLOSE.authFailed });
    const client = agent({ credential: 'old', saveCredential: (c) => saved.push(c) });
    await expect.poll(() => client.state).toBe('failed');
    expect(gateway.hellos.map((h) => [h.credential, h.secret])).toEqual([
      ['old', undefined],
      [undefined, 's3cret'],
    ]);
    expect(saved).toEqual([undefined]);
    expect(client.failure?.code).toBe(DEVICE_CLOSE.authFailed);
  });

  it('a refused credential falls back to the secret, which signs in', async () => {
    gateway.onHello = (h) => (h.credential ? { close: DEVICE_CLOSE.authFailed } : { credential: 'fresh' });
    const client = agent({ credential: 'old' });
    await expect.poll(() => client.state).toBe('connected');
    expect(gateway.hellos.map((h) => h.credential ?? h.secret)).toEqual(['old', 's3cret']);
  });

  it('a revoked session signs in again with the secret and stops if that is refused', async () => {
    gateway.onHello = (_h, i) => (i === 0 ? {} : { close: DEVICE_CLOSE.revoked });
    const client = agent();
    await expect.poll(() => client.state).toBe('connected');
    gateway.last.socket.close(DEVICE_CLOSE.revoked);
    await expect.poll(() => client.state).toBe('failed');
    expect(gateway.hellos).toHaveLength(2);
    expect(gateway.hellos[1]!.secret).toBe('s3cret');
  });

  it.each([
    ['disabled', DEVICE_CLOSE.disabled],
    ['replaced', DEVICE_CLOSE.replaced],
    ['wrong secret', DEVICE_CLOSE.authFailed],
  ])('stops for good when %s', async (_what, code) => {
    gateway.onHello = (_h, i) => (i === 0 ? {} : { close: code });
    const client = agent();
    await expect.poll(() => client.state).toBe('connected');
    gateway.last.socket.close(code === DEVICE_CLOSE.authFailed ? DEVICE_CLOSE.goingAway : code);
    if (code === DEVICE_CLOSE.authFailed) await expect.poll(() => gateway.hellos.length).toBe(2);
    await expect.poll(() => client.state).toBe('failed');
    expect(client.failure?.code).toBe(code);
    // Nothing left to run: no reconnect is scheduled, no link is coming up.
    expect(scheduler.pending).toBe(0);
  });

  it('reconnects with backoff after the server goes away, heartbeat timeout or a dropped socket', async () => {
    const client = agent({ backoff: { ...fast, firstMinMs: 200, firstMaxMs: 250, maxMs: 1000 } });
    await expect.poll(() => client.welcomes).toBe(1);
    for (const [i, close] of [
      () => gateway.last.socket.close(DEVICE_CLOSE.goingAway),
      () => gateway.last.socket.close(DEVICE_CLOSE.heartbeatTimeout),
      () => gateway.last.socket.terminate(),
    ].entries()) {
      const closedAt = Date.now();
      close();
      await expect.poll(() => client.state).toBe('waiting');
      await expect.poll(() => client.welcomes).toBe(i + 2);
      // Not before the first backoff window opens (the window doubles, but a welcome resets it).
      expect(Date.now() - closedAt).toBeGreaterThanOrEqual(200);
    }
  });

  it('backs off at least throttledMinMs after 4029', async () => {
    gateway.onHello = (_h, i) => (i === 0 ? { close: DEVICE_CLOSE.tooManyAttempts } : {});
    const started = Date.now();
    const client = agent();
    await expect.poll(() => client.welcomes).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(fast.throttledMinMs);
  });
});

describe('configs, commands and reports', () => {
  it('applies the welcome configs, answers applied, and says what it holds on the next hello', async () => {
    gateway.onHello = (_h, i) => (i === 0 ? { configs: [centerConfig('N1', 3), pointConfig('N2', 7)] } : { networks: ['N1'] });
    const client = agent();
    await expect.poll(() => gateway.received('applied').length).toBe(2);
    expect(gateway.received('applied')).toEqual([
      { type: 'applied', network_number: 'N1', version: 3, ok: true, error: '' },
      { type: 'applied', network_number: 'N2', version: 7, ok: true, error: '' },
    ]);
    gateway.last.socket.close(DEVICE_CLOSE.goingAway);
    await expect.poll(() => gateway.hellos.length).toBe(2);
    expect(gateway.hellos[1]!.configs).toEqual([
      { network_number: 'N1', version: 3 },
      { network_number: 'N2', version: 7 },
    ]);
    // The second welcome lists only N1: N2 is dropped.
    await expect.poll(() => [...client.held.keys()]).toEqual(['N1']);
    await expect.poll(() => client.device.links().map((l) => l.network_number)).toEqual(['N1', 'N1']);
  });

  it('answers a config pushed later with applied, a command with ack, and a leave by dropping the network', async () => {
    const client = agent();
    await expect.poll(() => client.state).toBe('connected');
    gateway.last.send({ type: 'config', ...centerConfig('N5', 2) });
    await expect.poll(() => gateway.received('applied')).toEqual([{ type: 'applied', network_number: 'N5', version: 2, ok: true, error: '' }]);
    gateway.last.send({ type: 'command', command_id: 41, kind: 'restart', network_number: 'N5', payload: {} });
    gateway.last.send({ type: 'command', command_id: 42, kind: 'kill', network_number: 'N9', payload: {} });
    await expect.poll(() => gateway.received('ack')).toEqual([
      { type: 'ack', command_id: 41, ok: true, error: '' },
      { type: 'ack', command_id: 42, ok: false, error: 'not in network N9' },
    ]);
    await expect.poll(() => gateway.received('status').at(-1)?.links.length).toBe(2);
    gateway.last.send({ type: 'leave', network_number: 'N5' });
    await expect.poll(() => client.held.has('N5')).toBe(false);
    const statuses = gateway.received('status').length;
    await expect.poll(() => gateway.received('status').length).toBeGreaterThan(statuses);
    expect(gateway.received('status').at(-1)!.links).toEqual([]);
  });

  it('ignores message types it does not know', async () => {
    const client = agent();
    await expect.poll(() => client.state).toBe('connected');
    gateway.last.send({ type: 'firmware', url: 'x' });
    gateway.last.send({ type: 'command', command_id: 1, kind: 'resend_config', network_number: 'N1', payload: {} });
    await expect.poll(() => gateway.received('ack')).toHaveLength(1);
    expect(client.state).toBe('connected');
  });

  it('reports status, traffic, sessions and flows that match the contract', async () => {
    gateway.onHello = () => ({ configs: [centerConfig('N1'), pointConfig('N2')] });
    agent();
    await expect.poll(() => gateway.received('session').length).toBe(3);
    await expect.poll(() => gateway.received('flows').length).toBeGreaterThan(0);
    await expect.poll(() => gateway.received('status').at(-1)?.links.filter((l) => l.online === 1).length).toBe(3);
    expect(gateway.invalid).toEqual([]);
    for (const m of gateway.received('status')) statusMessage.parse(m);
    for (const m of gateway.received('traffic')) trafficMessage.parse(m);
    for (const m of gateway.received('flows')) flowsMessage.parse(m);
    const sessions = gateway.received('session').map((m) => sessionMessage.parse(m));
    expect(sessions.map((s) => [s.event, s.mode, s.network_number, s.link_router_name, s.vpn_ip]).sort()).toEqual([
      ['up', 'p2p', 'N1', 'store1', '100.64.0.2'],
      ['up', 'p2p', 'N1', 'store2', '100.64.0.3'],
      ['up', 'pop', 'N2', 'center1', '100.64.0.9'],
    ]);
    expect(sessions.find((s) => s.mode === 'pop')).toMatchObject({ pop_name: '华南' });
    const traffic = gateway.received('traffic').at(-1)!;
    expect(traffic.data.map((p) => p.interface)).toEqual(['eth0', 'eth1']);
    expect(traffic.rx_bytes).toBeGreaterThan(0);
    const flows = gateway.received('flows')[0]!.records;
    expect(flows.some((r) => r.kind === 'app')).toBe(true);
    expect(flows.some((r) => r.kind === 'orig')).toBe(true);
  });

  it('a kill takes the links down (session down) and they come back up', async () => {
    gateway.onHello = () => ({ configs: [centerConfig('N1')] });
    agent();
    await expect.poll(() => gateway.received('session').length).toBe(2);
    gateway.last.send({ type: 'command', command_id: 7, kind: 'restart', network_number: 'N1', payload: {} });
    await expect.poll(() => gateway.received('session').map((s) => s.event)).toEqual(['up', 'up', 'down', 'down', 'up', 'up']);
    // The two links' downs name the two ups' sessions (in either order: the links go down together).
    const sessions = gateway.received('session');
    expect(new Set(sessions.slice(2, 4).map((x) => x.id))).toEqual(new Set(sessions.slice(0, 2).map((x) => x.id)));
  });

  it('sends a ping when it has nothing else to say', async () => {
    gateway.timing = { heartbeat_timeout: 30, ping_interval: 0.05, status_interval: 60, traffic_interval: 60 };
    agent();
    await expect.poll(() => gateway.received('ping').length).toBeGreaterThan(1);
  });

  it('to a server of protocol 3, reports sessions in batches, in order, at most sessionsPerMessage each', async () => {
    gateway.protocol = 3;
    gateway.onHello = () => ({ configs: [centerConfig('N1')] });
    const client = agent();
    // The two links come up within a moment of each other: one message.
    await expect.poll(() => gateway.received('sessions').flatMap((m) => m.sessions).length).toBe(2);
    expect(gateway.received('sessions')).toHaveLength(1);
    gateway.last.send({ type: 'command', command_id: 7, kind: 'restart', network_number: 'N1', payload: {} });
    await expect.poll(() => gateway.received('sessions').flatMap((m) => m.sessions.map((x) => x.event))).toEqual(['up', 'up', 'down', 'down', 'up', 'up']);
    const many = DEVICE_LIMITS.sessionsPerMessage * 2 + 50;
    const before = gateway.received('sessions').length;
    for (let i = 0; i < many; i++) client.sendSession('up', { id: `x${i}`, mode: 'p2p', network_number: 'N1', link_router_name: `p${i}`, pop_name: '', area: '', orig: '', vpn_ip: '', time: 1 });
    await expect.poll(() => gateway.received('sessions').slice(before).flatMap((m) => m.sessions).length).toBe(many);
    const sent = gateway.received('sessions').slice(before);
    expect(sent.map((m) => m.sessions.length)).toEqual([DEVICE_LIMITS.sessionsPerMessage, DEVICE_LIMITS.sessionsPerMessage, 50]);
    expect(sent.flatMap((m) => m.sessions.map((x) => x.id))).toEqual(Array.from({ length: many }, (_, i) => `x${i}`));
    for (const m of sent) sessionsMessage.parse(m);
    expect(gateway.received('session')).toEqual([]);
    expect(gateway.invalid).toEqual([]);
  });

  it('resends its open sessions after a reconnect', async () => {
    gateway.onHello = (_h, i) => (i === 0 ? { configs: [centerConfig('N1')] } : { networks: ['N1'] });
    const client = agent();
    await expect.poll(() => gateway.received('session').length).toBe(2);
    gateway.last.socket.close(DEVICE_CLOSE.goingAway);
    await expect.poll(() => client.welcomes).toBe(2);
    await expect.poll(() => gateway.last.messages.filter((m) => m.type === 'session').length).toBe(2);
  });
});
