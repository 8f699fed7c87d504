import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';
import { Scheduler } from './scheduler';

describe('Scheduler', () => {
  it('runs entries in due order on one timer, skipping cancelled ones', async () => {
    let now = 1000;
    const s = new Scheduler(() => now);
    const ran: string[] = [];
    s.after(30, () => ran.push('c'));
    s.after(10, () => ran.push('a'));
    const b = s.after(20, () => ran.push('b'));
    s.after(10, () => ran.push('a2'));
    b.cancel();
    now += 25;
    await expect.poll(() => ran).toEqual(['a', 'a2']);
    now += 10;
    await expect.poll(() => ran).toEqual(['a', 'a2', 'c']);
    expect(s.size).toBe(0);
  });

  it('an entry added from a task runs too', async () => {
    const s = new Scheduler();
    const ran: number[] = [];
    s.after(0, () => {
      ran.push(1);
      s.after(0, () => ran.push(2));
    });
    await expect.poll(() => ran).toEqual([1, 2]);
  });
});

describe('backoffDelay', () => {
  const draws = [0, 0.5, 0.999];
  it('waits 1-5 s before the first retry, within the cap later, and longer when throttled', () => {
    for (const r of draws) {
      const first = backoffDelay(DEFAULT_BACKOFF, 0, false, () => r);
      expect(first).toBeGreaterThanOrEqual(1000);
      expect(first).toBeLessThanOrEqual(5000);
      for (let attempt = 1; attempt < 40; attempt++) expect(backoffDelay(DEFAULT_BACKOFF, attempt, false, () => r)).toBeLessThanOrEqual(30_000);
      expect(backoffDelay(DEFAULT_BACKOFF, 0, true, () => r)).toBeGreaterThanOrEqual(30_000);
    }
  });

  it('grows with the attempts and spreads agents out', () => {
    expect(backoffDelay(DEFAULT_BACKOFF, 4, false, () => 0)).toBeGreaterThan(backoffDelay(DEFAULT_BACKOFF, 0, false, () => 0.999));
    const spread = new Set(Array.from({ length: 100 }, () => backoffDelay(DEFAULT_BACKOFF, 0)));
    expect(spread.size).toBeGreaterThan(50);
  });
});
