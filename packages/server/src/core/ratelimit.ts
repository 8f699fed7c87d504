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

/** Fixed-window counters over the shared store. */
export class RateLimiter {
  constructor(private readonly store: KvStore) {}

  /** Counts one event and refuses with 429 once the window is full. */
  async hit(limit: Limit, subject: string): Promise<void> {
    const n = await this.store.incr(`rl:${limit.name}:${subject.toLowerCase()}`, limit.windowSeconds);
    if (n > limit.max) throw tooMany(limit.message);
  }

  /** Refuses when the window is already full, without counting (check before work, count failures). */
  async check(limit: Limit, subject: string): Promise<void> {
    const n = Number((await this.store.get(`rl:${limit.name}:${subject.toLowerCase()}`)) ?? 0);
    if (n >= limit.max) throw tooMany(limit.message);
  }

  async reset(limit: Limit, subject: string): Promise<void> {
    await this.store.del(`rl:${limit.name}:${subject.toLowerCase()}`);
  }
}
