import { afterEach, expect, it } from 'vitest';
import { simulate, type Simulation } from './simulator';
import { centerConfig, FakeGateway, pointConfig } from './testing/fakeGateway';

let gateway: FakeGateway | null = null;
let run: Simulation | null = null;

afterEach(async () => {
  await run?.stop();
  await gateway?.stop();
});

it('runs 200 agents of one tenant in one process: all connect and report', async () => {
  gateway = new FakeGateway();
  gateway.timing = { heartbeat_timeout: 30, ping_interval: 10, status_interval: 0.2, traffic_interval: 0.2 };
  gateway.onHello = (hello) => ({ configs: [hello.kind === 'router' && hello.router_name === 'r0' ? centerConfig('N1') : pointConfig('N1')] });
  const url = await gateway.start();
  const members = [
    ...Array.from({ length: 150 }, (_, i) => ({ kind: 'router' as const, router_name: `r${i}`, secret: 'pw' })),
    ...Array.from({ length: 50 }, (_, i) => ({ kind: 'app' as const, login: `u${i}@acme`, secret: 'pw' })),
  ];
  run = simulate({ url, members, startSpreadMs: 200, linkDelayMs: [10, 50], flowsEvery: 1 });
  await expect.poll(() => run!.counts().connected).toBe(200);
  expect(run.summary()).toBe('200 agents: 200 connected, 0 connecting, 0 failed');
  const reporters = (type: 'status' | 'traffic' | 'session' | 'flows') => new Set(gateway!.sessions.filter((s) => s.messages.some((m) => m.type === type)).map((s) => s.hello));
  await expect.poll(() => reporters('traffic').size).toBe(200);
  await expect.poll(() => reporters('session').size).toBe(200);
  await expect.poll(() => reporters('flows').size).toBe(200);
  await expect.poll(() => reporters('status').size).toBe(200);
  expect(gateway.sessions).toHaveLength(200);
  expect(new Set(gateway.hellos.map((h) => (h.kind === 'router' ? h.router_name : h.login))).size).toBe(200);
  expect(gateway.invalid).toEqual([]);
});

it('after a server restart the agents come back, their hellos spread out by the jittered backoff', async () => {
  gateway = new FakeGateway();
  const url = await gateway.start();
  const members = Array.from({ length: 200 }, (_, i) => ({ kind: 'router' as const, router_name: `r${i}`, secret: 'pw' }));
  run = simulate({ url, members, startSpreadMs: 0, backoff: { firstMinMs: 100, firstMaxMs: 600, maxMs: 2000, throttledMinMs: 2000 } });
  await expect.poll(() => run!.counts().connected).toBe(200);
  const port = Number(new URL(url).port);
  await gateway.stop();
  await expect.poll(() => run!.counts().connected).toBe(0);
  gateway = new FakeGateway();
  await gateway.start(port);
  await expect.poll(() => run!.counts().connected).toBe(200);
  expect(run.clients.every((c) => c.welcomes === 2)).toBe(true);
  const times = gateway.helloTimes;
  // Uniform over a 500 ms window: 200 hellos landing within 150 ms of each other would mean no jitter.
  expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(150);
});

it('counts agents the server refuses as failed', async () => {
  gateway = new FakeGateway();
  gateway.onHello = (hello) => (hello.kind === 'router' && hello.router_name === 'bad' ? { close: 4001 } : {});
  const url = await gateway.start();
  run = simulate({ url, members: [{ kind: 'router', router_name: 'good', secret: 'pw' }, { kind: 'router', router_name: 'bad', secret: 'pw' }], startSpreadMs: 0 });
  await expect.poll(() => run!.summary()).toBe('2 agents: 1 connected, 0 connecting, 1 failed (bad: 4001 (wrong name, login, secret or credential))');
});
