import { randomBytes } from 'node:crypto';
import { siteInfo } from '@hublink/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sharedDatabase, type TestApp } from '../../test/helpers';
import { until } from '../../test/until';
import { MemoryPubSub } from './pubsub';

const silent = { error: () => undefined, warn: () => undefined } as unknown as ConstructorParameters<typeof MemoryPubSub>[0];

describe('pub/sub in one process', () => {
  it('reaches the channel’s subscribers with a copy, until they unsubscribe; a failing one does not stop the others', async () => {
    const bus = new MemoryPubSub(silent);
    const got: unknown[] = [];
    const off = await bus.subscribe('traffic:r1', (m) => got.push(m));
    await bus.subscribe('traffic:r1', () => {
      throw new Error('broken subscriber');
    });
    await bus.subscribe('traffic:r2', () => got.push('wrong channel'));
    const message = { down: 1, up: 2 };
    await bus.publish('traffic:r1', message);
    message.down = 99;
    await off();
    await bus.publish('traffic:r1', { down: 3 });
    expect(got).toEqual([{ down: 1, up: 2 }]);
    await bus.close();
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

// Two instances as deployed for scale: one PostgreSQL database and one Redis, shared.
describe.skipIf(!databaseUrl || !redisUrl)('two instances on PostgreSQL and Redis (needs TEST_DATABASE_URL and TEST_REDIS_URL)', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    shared = await sharedDatabase('postgres');
    const prefix = `hublink-test:${randomBytes(6).toString('hex')}:`;
    const options = { config: { redisUrl, apiRateLimitPerMinute: 6 }, backbone: { redisPrefix: prefix } };
    one = await createTestApp('postgres', { ...options, database: shared.open() });
    two = await createTestApp('postgres', { ...options, database: shared.open() });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await shared?.drop();
  });

  it('delivers a message published on one instance to a subscriber on the other', async () => {
    const got: unknown[] = [];
    const off = await two.ctx.pubsub.subscribe('command:router-1', (m) => got.push(m));
    await one.ctx.pubsub.publish('command:router-1', { type: 'kill_user', id: 7 });
    await until(() => got.length === 1, 'the message crosses to the other instance');
    expect(got).toEqual([{ type: 'kill_user', id: 7 }]);
    await off();
    await one.ctx.pubsub.publish('command:router-1', { type: 'late' });
    // A message on a channel nobody listens to any more reaches nobody; prove the line is still up with another.
    const probe: unknown[] = [];
    await two.ctx.pubsub.subscribe('probe', (m) => probe.push(m));
    await one.ctx.pubsub.publish('probe', 1);
    await until(() => probe.length === 1, 'the probe arrives');
    expect(got).toHaveLength(1);
  });

  it('counts one client’s calls against the global limit across both instances', async () => {
    const ip = '198.51.100.23';
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await one.call(siteInfo, { ip })).status);
    for (let i = 0; i < 3; i++) answers.push((await two.call(siteInfo, { ip })).status);
    // The limit is 6 a minute: the seventh call, on the second instance, is refused.
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });
});
