import { tooMany } from './errors';
import type { KvStore } from './store';

/**
 * Runs `work` unless another call holding `key` is running, on any instance sharing the store; then
 * refuses with 429 and `busy`. The key expires after `ttlSeconds` in case its holder dies with it.
 */
export async function exclusive<T>(store: KvStore, key: string, ttlSeconds: number, busy: string, work: () => Promise<T>): Promise<T> {
  if ((await store.incr(key, ttlSeconds)) > 1) throw tooMany(busy);
  try {
    return await work();
  } finally {
    await store.del(key);
  }
}

/**
 * At most `max` jobs at once in this process; the others wait their turn in order, at most
 * `maxWaiting` of them (beyond that 429 with `busy`).
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly maxWaiting: number,
    private readonly busy: string,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active < this.max) this.active++;
    else if (this.waiting.length < this.maxWaiting) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw tooMany(this.busy);
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
