import { Redis } from 'ioredis';

/**
 * A small key-value store with expiry, for captchas and rate limits: in process by default,
 * Redis when several instances must share it.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Reads and deletes in one step (single-use values). */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  /** Increments a counter; the first increment starts its window of ttlSeconds. Returns the new count. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /** Takes one back from a live counter (its window unchanged); one taken back to zero is gone, and a gone counter stays gone. */
  decr(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryStore implements KvStore {
  private readonly map = new Map<string, { value: string; expires: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000);

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper.unref();
  }

  private live(key: string) {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep() {
    const now = this.now();
    for (const [k, e] of this.map) if (e.expires <= now) this.map.delete(k);
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }
  async set(key: string, value: string, ttlSeconds: number) {
    this.map.set(key, { value, expires: this.now() + ttlSeconds * 1000 });
  }
  async take(key: string) {
    const v = this.live(key)?.value ?? null;
    this.map.delete(key);
    return v;
  }
  async del(key: string) {
    this.map.delete(key);
  }
  async incr(key: string, ttlSeconds: number) {
    const e = this.live(key);
    if (!e) {
      this.map.set(key, { value: '1', expires: this.now() + ttlSeconds * 1000 });
      return 1;
    }
    e.value = String(Number(e.value) + 1);
    return Number(e.value);
  }
  async decr(key: string) {
    const e = this.live(key);
    if (!e) return;
    if (Number(e.value) <= 1) this.map.delete(key);
    else e.value = String(Number(e.value) - 1);
  }
  async close() {
    clearInterval(this.sweeper);
    this.map.clear();
  }
}

const DECR_LIVE = "local n = tonumber(redis.call('GET', KEYS[1]) or '0') if n > 1 then redis.call('DECR', KEYS[1]) elseif n > 0 then redis.call('DEL', KEYS[1]) end return 0";

export class RedisStore implements KvStore {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'hublink:') {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }

  async get(key: string) {
    return this.redis.get(this.prefix + key);
  }
  async set(key: string, value: string, ttlSeconds: number) {
    await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds);
  }
  async take(key: string) {
    return this.redis.getdel(this.prefix + key);
  }
  async del(key: string) {
    await this.redis.del(this.prefix + key);
  }
  async incr(key: string, ttlSeconds: number) {
    const k = this.prefix + key;
    // Create the counter with its window only if absent, then count; one transaction, and it works
    // on every Redis (EXPIRE … NX needs Redis 7).
    const results = await this.redis.multi().set(k, '0', 'EX', ttlSeconds, 'NX').incr(k).exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('redis: transaction aborted');
    return Number(results[1]![1]);
  }
  async decr(key: string) {
    // DECR alone would bring back an expired counter as -1 without a window: only a live one, and at zero it goes.
    await this.redis.eval(DECR_LIVE, 1, this.prefix + key);
  }
  async close() {
    await this.redis.quit();
  }
}

export function createStore(redisUrl: string | undefined, prefix?: string): KvStore {
  return redisUrl ? new RedisStore(redisUrl, prefix) : new MemoryStore();
}
