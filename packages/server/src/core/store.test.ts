import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimiter } from './ratelimit';
import { createStore, MemoryStore, RedisStore, type KvStore } from './store';

/** A store and a way to let time pass for it. */
interface Subject {
  store: KvStore;
  elapse(seconds: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const SUBJECTS: [string, () => Subject][] = [
  [
    'MemoryStore',
    () => {
      let now = Date.now();
      return {
        store: new MemoryStore(() => now),
        elapse: async (s) => {
          now += s * 1000;
        },
      };
    },
  ],
];
const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  SUBJECTS.push([
    'RedisStore',
    // Redis keeps its own clock: time really has to pass (a tenth of a second past the expiry).
    () => ({ store: new RedisStore(redisUrl, `hublink-test:${randomBytes(6).toString('hex')}:`), elapse: (s) => sleep(s * 1000 + 100) }),
  ]);
}

for (const [name, make] of SUBJECTS) {
  describe(`KvStore: ${name}`, () => {
    const { store, elapse } = make();
    afterAll(() => store.close());

    it('set then get; a missing key is null', async () => {
      await store.set('a', 'one', 60);
      expect(await store.get('a')).toBe('one');
      await store.set('a', 'two', 60);
      expect(await store.get('a')).toBe('two');
      expect(await store.get('missing')).toBeNull();
    });

    it('take reads once', async () => {
      await store.set('once', 'v', 60);
      expect(await store.take('once')).toBe('v');
      expect(await store.take('once')).toBeNull();
      expect(await store.get('once')).toBeNull();
    });

    it('of several takes at once, one gets the value', async () => {
      await store.set('race', 'v', 60);
      const got = await Promise.all(Array.from({ length: 8 }, () => store.take('race')));
      expect(got.filter((v) => v !== null)).toEqual(['v']);
    });

    it('del removes', async () => {
      await store.set('gone', 'v', 60);
      await store.del('gone');
      expect(await store.get('gone')).toBeNull();
      await store.del('never-set');
    });

    it('values expire after their ttl', async () => {
      await store.set('short', 'v', 1);
      await store.set('long', 'v', 30);
      await elapse(1);
      expect(await store.get('short')).toBeNull();
      expect(await store.take('short')).toBeNull();
      expect(await store.get('long')).toBe('v');
    });

    it('incr counts within a fixed window that later increments do not extend', async () => {
      expect(await store.incr('n', 2)).toBe(1);
      expect(await store.incr('n', 2)).toBe(2);
      await elapse(1);
      expect(await store.incr('n', 2)).toBe(3);
      await elapse(1);
      // The window began with the first increment: it is over, counting starts again.
      expect(await store.incr('n', 2)).toBe(1);
    });

    it('increments at once are all counted', async () => {
      const counts = await Promise.all(Array.from({ length: 20 }, () => store.incr('burst', 60)));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('decr takes one back from a live counter, removes it at zero, and leaves a gone one gone', async () => {
      await store.incr('d', 2);
      await store.incr('d', 2);
      await store.incr('d', 2);
      await store.decr('d');
      expect(await store.get('d')).toBe('2');
      await store.decr('d');
      await store.decr('d');
      expect(await store.get('d')).toBeNull();
      await store.decr('d');
      expect(await store.incr('d', 2)).toBe(1);
      await store.decr('never');
      expect(await store.get('never')).toBeNull();
      // The window is the first increment's: a decrement does not extend it.
      await store.incr('w', 2);
      await store.incr('w', 2);
      await store.decr('w');
      await elapse(2);
      expect(await store.get('w')).toBeNull();
    });

    it('reservations at once let exactly the limit through, and refused ones take their count back', async () => {
      const limiter = new RateLimiter(store);
      const limit = { name: 'burst-reserve', max: 5, windowSeconds: 60, message: 'too many' };
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => limiter.reserve([limit, 'who'])));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
      expect(await store.get('rl:burst-reserve:who')).toBe('5');
      // Two succeed: their counts come back, so two more may try.
      for (const o of outcomes.filter((o) => o.status === 'fulfilled').slice(0, 2)) await o.value.release();
      expect(await store.get('rl:burst-reserve:who')).toBe('3');
      const more = await Promise.allSettled(Array.from({ length: 5 }, () => limiter.reserve([limit, 'who'])));
      expect(more.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    });

    it('a reservation refused by its second limit gives the first its count back', async () => {
      const limiter = new RateLimiter(store);
      const wide = { name: 'pair-wide', max: 10, windowSeconds: 60, message: 'too many' };
      const narrow = { name: 'pair-narrow', max: 1, windowSeconds: 60, message: 'too many' };
      await limiter.reserve([wide, 'ip'], [narrow, 'member']);
      await expect(limiter.reserve([wide, 'ip'], [narrow, 'member'])).rejects.toThrow('too many');
      expect(await store.get('rl:pair-wide:ip')).toBe('1');
      expect(await store.get('rl:pair-narrow:member')).toBe('1');
    });

    it('counters and values are separate keys', async () => {
      await store.incr('k1', 60);
      expect(await store.get('k1')).toBe('1');
      expect(await store.get('k2')).toBeNull();
    });
  });
}

describe.runIf(redisUrl)('RedisStore prefixes', () => {
  it('keeps stores with different prefixes apart', async () => {
    const a = new RedisStore(redisUrl!, `hublink-test:${randomBytes(6).toString('hex')}:`);
    const b = new RedisStore(redisUrl!, `hublink-test:${randomBytes(6).toString('hex')}:`);
    try {
      await a.set('shared', 'from-a', 60);
      expect(await b.get('shared')).toBeNull();
      expect(await a.get('shared')).toBe('from-a');
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('createStore', () => {
  it('is in memory without a Redis URL', async () => {
    const s = createStore(undefined);
    expect(s).toBeInstanceOf(MemoryStore);
    await s.close();
  });

  it.runIf(redisUrl)('is Redis with one', async () => {
    const s = createStore(redisUrl, `hublink-test:${randomBytes(6).toString('hex')}:`);
    expect(s).toBeInstanceOf(RedisStore);
    await s.set('x', 'y', 5);
    expect(await s.get('x')).toBe('y');
    await s.close();
  });
});
