import { tooMany } from './errors';
import type { KvStore } from './store';

export interface Limit {
  /** Name of the limit, part of the key. */
  name: string;
  max: number;
  windowSeconds: number;
  message: string;
}

/** The limits of sign-in and code sending, in one place. */
export const RATE_LIMITS = {
  loginPerAccount: { name: 'login-account', max: 10, windowSeconds: 900 },
  loginPerIp: { name: 'login-ip', max: 50, windowSeconds: 900 },
  codePerDestination: { name: 'code-dest', max: 10, windowSeconds: 3600 },
  codePerIp: { name: 'code-ip', max: 30, windowSeconds: 3600 },
  captchaPerIp: { name: 'captcha-ip', max: 120, windowSeconds: 600 },
  recoveryPerIp: { name: 'recovery-ip', max: 30, windowSeconds: 900 },
  /** Failed registrations (a wrong code, a name taken), counted like failed logins. */
  registerPerIp: { name: 'register-ip', max: 30, windowSeconds: 900 },
} as const;

/** An attempt counted before the work it guards: a failure keeps it, a success gives it back. */
export interface Reservation {
  release(): Promise<void>;
}

/** A limit's counter for one subject in the store. */
const keyOf = (limit: Pick<Limit, 'name'>, subject: string) => `rl:${limit.name}:${subject.toLowerCase()}`;

/** Fixed-window counters over the shared store. */
export class RateLimiter {
  constructor(private readonly store: KvStore) {}

  /** Counts one event and refuses with 429 once the window is full. */
  async hit(limit: Limit, subject: string): Promise<void> {
    const n = await this.store.incr(keyOf(limit, subject), limit.windowSeconds);
    if (n > limit.max) throw tooMany(limit.message);
  }

  /** Refuses when the window is already full, without counting (a look, not a reservation: see reserve). */
  async check(limit: Limit, subject: string): Promise<void> {
    const n = Number((await this.store.get(keyOf(limit, subject))) ?? 0);
    if (n >= limit.max) throw tooMany(limit.message);
  }

  /**
   * Counts an attempt against each limit before the slow check it guards (a password's scrypt), and
   * refuses with 429 when any window is full. The count is one atomic step in the store, so parallel
   * attempts cannot all pass a look taken before any of them was counted (issue 32). A refused attempt
   * takes its counts back; the caller releases a successful one.
   */
  async reserve(...limits: [Limit, string][]): Promise<Reservation> {
    const taken: string[] = [];
    const release = async () => {
      for (const key of taken.splice(0)) await this.store.decr(key);
    };
    for (const [limit, subject] of limits) {
      const key = keyOf(limit, subject);
      taken.push(key);
      if ((await this.store.incr(key, limit.windowSeconds)) > limit.max) {
        await release();
        throw tooMany(limit.message);
      }
    }
    return { release };
  }

  async reset(limit: Limit, subject: string): Promise<void> {
    await this.store.del(keyOf(limit, subject));
  }
}
