import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEVICE_CLOSE } from '@hublink/contract';
import { DeviceClient, type ClientOptions } from './client';
import { Scheduler } from './scheduler';
import { SimulatedDevice } from './simulated';
import { StateDir } from './state';
import { FakeGateway } from './testing/fakeGateway';

/** Devices join by approval (issue 30): the agent's side. */

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

function agent(overrides: Partial<ClientOptions> = {}): DeviceClient {
  const client = new DeviceClient({
    url,
    identity: { kind: 'router', router_name: 'store1' },
    secret: 's3cret',
    device: new SimulatedDevice({ kind: 'router', name: 'store1', scheduler, linkDelayMs: [5, 20] }),
    scheduler,
    backoff: { firstMinMs: 10, firstMaxMs: 30, maxMs: 100, throttledMinMs: 300 },
    log: () => {},
    ...overrides,
  });
  clients.push(client);
  client.start();
  return client;
}

it('sends its device id, waits while the device awaits approval (4030) at a steady pace, and is welcomed once approved', async () => {
  const lines: string[] = [];
  const at: number[] = [];
  gateway.onHello = (_hello, i) => {
    at.push(Date.now());
    return i < 3 ? { close: DEVICE_CLOSE.awaitingApproval, reason: 'waits for approval' } : {};
  };
  const client = agent({ deviceId: 'dev-1234-abcd', approvalRetryMs: 150, log: (l) => lines.push(l) });
  await expect.poll(() => client.state).toBe('connected');
  expect(gateway.hellos).toHaveLength(4);
  expect(gateway.hellos.every((h) => h.device_id === 'dev-1234-abcd')).toBe(true);
  // Steady, not backing off: every wait is the approval interval, never the growing backoff.
  for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(140);
  expect(lines.filter((l) => l.includes('waiting for approval'))).toHaveLength(3);
  expect(client.failure).toBeNull();
});

it('stops for good when the administrator refused the device (4031)', async () => {
  gateway.onHello = () => ({ close: DEVICE_CLOSE.deviceRefused });
  const client = agent();
  await expect.poll(() => client.state).toBe('failed');
  expect(client.failure?.code).toBe(DEVICE_CLOSE.deviceRefused);
  expect(gateway.hellos).toHaveLength(1);
  // Without a device id the hello has none.
  expect(gateway.hellos[0]!.device_id).toBeUndefined();
});

it('makes its device id once and keeps it in the state directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hublink-state-'));
  try {
    const id = new StateDir(dir).deviceId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new StateDir(dir).deviceId()).toBe(id);
    expect(readFileSync(join(dir, 'device-id'), 'utf8').trim()).toBe(id);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
