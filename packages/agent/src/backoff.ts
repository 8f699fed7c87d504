/**
 * Jittered exponential backoff for reconnects: when a server restarts, thousands of agents spread their
 * hellos over the first seconds instead of answering in the same millisecond.
 */
export interface BackoffPolicy {
  /** The first retry waits a random time in [firstMinMs, firstMaxMs]. */
  firstMinMs: number;
  firstMaxMs: number;
  /** No wait is longer than this. */
  maxMs: number;
  /** After 4029 (too many attempts) the wait is at least this long. */
  throttledMinMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { firstMinMs: 1_000, firstMaxMs: 5_000, maxMs: 30_000, throttledMinMs: 30_000 };

/** The longest wait between retries after the server said it was restarting (1001), until a welcome. */
export const RESTART_MAX_MS = 10_000;

/**
 * The wait before retry number `attempt` (0 for the first): the window doubles each time, capped, and the
 * wait is drawn uniformly from its upper half-and-more so retries never line up.
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, throttled = false, random: () => number = Math.random): number {
  const high = Math.min(policy.maxMs, policy.firstMaxMs * 2 ** Math.min(attempt, 20));
  const low = Math.min(high, policy.firstMinMs * 2 ** Math.min(attempt, 20), policy.maxMs / 2);
  const delay = low + random() * (high - low);
  if (!throttled) return Math.round(delay);
  return Math.round(Math.max(policy.throttledMinMs, delay) * (1 + random()));
}
