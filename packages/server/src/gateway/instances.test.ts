import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_CLOSE, killUser } from '@hublink/contract';
import { RedisStore } from '../core/store';
import { DEVICE_CHANNELS, trafficRelay, type TrafficRelay } from '../domain/deviceChannels';
import { TestDevice, parallelHellos, routerHello } from '../../test/device';
import { DEVICE_AUTH_LIMITS } from './auth';
import { createTestApp, newAccount, sharedDatabase, type TestApp } from '../../test/helpers';
import { SEEDED_MEMBER_SECRET, createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { until } from '../../test/until';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

// Two instances as deployed for scale: one PostgreSQL database, one Redis; a device on A, a console on B.
describe.skipIf(!databaseUrl || !redisUrl)('the gateway across two instances on PostgreSQL and Redis', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let device: TestDevice;
  let token = '';
  let networkNumber = '';
  let point = '';

  beforeAll(async () => {
    shared = await sharedDatabase('postgres');
    const prefix = `hublink-test:${randomBytes(6).toString('hex')}:`;
    // The store too is Redis, as deployed: the sign-in limits are counted there.
    a = await createTestApp('postgres', { config: { redisUrl, instance: 'gw-a' }, backbone: { redisPrefix: prefix }, database: shared.open(), store: new RedisStore(redisUrl!, prefix) });
    b = await createTestApp('postgres', { config: { redisUrl, instance: 'gw-b' }, backbone: { redisPrefix: prefix }, database: shared.open(), store: new RedisStore(redisUrl!, prefix) });
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    const account = await newAccount(b);
    token = account.token;
    const [center = '', p = ''] = await seedFreshMembers(b, account.account.id, 2);
    point = p;
    networkNumber = await createNetworkThroughApi(b, token, { center: [center], point: [point] });
    await b.ctx.events.settle();
    device = await TestDevice.open(`http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`);
    device.send(routerHello(point, SEEDED_MEMBER_SECRET));
    await device.next('welcome');
  });
  afterAll(async () => {
    device?.close();
    await a?.close();
    await b?.close();
    await shared?.drop();
  });

  it('delivers to a device on A a command issued on B', async () => {
    expect((await b.call(killUser, { token, body: { network_number: networkNumber, router_name: point } })).code).toBe(200);
    const cmd = await device.next('command', (c) => c.kind === 'kill');
    device.send({ type: 'ack', command_id: cmd.command_id, ok: true });
    await until(async () => (await b.db.selectFrom('member_command').select('state').where('id', '=', cmd.command_id).executeTakeFirstOrThrow()).state === 'done', 'the ack seen on B');
  });

  it("relays to a watcher on B the traffic of a device on A, only while watched", async () => {
    const member = await b.db.selectFrom('member').select('id').where('router_key', '=', point.toLowerCase()).executeTakeFirstOrThrow();
    const seen: TrafficRelay[] = [];
    const stop = await b.ctx.pubsub.subscribe(DEVICE_CHANNELS.traffic(member.id), (m) => seen.push(trafficRelay.parse(m)));
    try {
      const point1 = { interface: 'wan', time: Math.floor(Date.now() / 1000), down: 8.5, upload: 1.25 };
      // Not watched yet: the instance holding the device publishes nothing.
      device.send({ type: 'traffic', data: [point1], rx_bytes: 1000, tx_bytes: 500 });
      device.send({ type: 'ping' });
      await device.next('pong');
      await b.ctx.pubsub.publish(DEVICE_CHANNELS.watch, { member_id: member.id });
      // The watcher gets the latest points at once, then every new report.
      await until(() => seen.length === 1, 'the latest points on watch');
      expect(seen[0]!.data).toEqual([point1]);
      const point2 = { ...point1, time: point1.time + 5, down: 9 };
      device.send({ type: 'traffic', data: [point2], rx_bytes: 2000, tx_bytes: 900 });
      await until(() => seen.some((s) => s.data[0]?.down === 9), 'the next report relayed');
    } finally {
      await stop();
    }
  });

  it('holds the sign-in limits across both instances: parallel wrong hellos on A and B get at most the limit in checks', async () => {
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const bases = [a, b].map((x) => `http://127.0.0.1:${(x.app.server.address() as AddressInfo).port}`);
    const [victim = ''] = await seedFreshMembers(b, (await newAccount(b)).account.id, 1);
    const forOne = await parallelHellos(bases, Array.from({ length: 30 }, (_, i) => routerHello(victim, `guess-${i}`)));
    expect(forOne.get(DEVICE_CLOSE.authFailed)).toBe(DEVICE_AUTH_LIMITS.perMember.max);
    expect(forOne.get(DEVICE_CLOSE.tooManyAttempts)).toBe(30 - DEVICE_AUTH_LIMITS.perMember.max);
    await a.ctx.limiter.reset(DEVICE_AUTH_LIMITS.perIp, '127.0.0.1');
    const fromOne = await parallelHellos(bases, Array.from({ length: 300 }, (_, i) => routerHello(`nosuch-${i}`, 'guess')));
    expect(fromOne.get(DEVICE_CLOSE.authFailed)).toBe(DEVICE_AUTH_LIMITS.perIp.max);
    expect(fromOne.get(DEVICE_CLOSE.tooManyAttempts)).toBe(300 - DEVICE_AUTH_LIMITS.perIp.max);
    await a.ctx.limiter.reset(DEVICE_AUTH_LIMITS.perIp, '127.0.0.1');
  });
});
