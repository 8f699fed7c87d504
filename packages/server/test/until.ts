import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `check` holds, looking every 10 ms; fails after timeoutMs (a bound, not a delay). */
export async function until(check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}
