import { describe, expect, it } from 'vitest';
import { MemoryStore } from './store';
import { exclusive, Slots } from './turns';

/** A job that runs until released, noting when it starts. */
function job(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { run: async () => (started.push(name), await done, name), release };
}

describe('Slots', () => {
  it('runs at most `max` jobs at once; the others start in order as slots free up, and past the waiting room it refuses', async () => {
    const slots = new Slots(2, 1, 'busy');
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => job(started, n));
    const results = [slots.run(a!.run), slots.run(b!.run), slots.run(c!.run)];
    await expect(slots.run(d!.run)).rejects.toMatchObject({ code: 429, message: 'busy' });
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    b!.release();
    await results[1];
    await expect.poll(() => started).toEqual(['a', 'b', 'c']);
    a!.release();
    c!.release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    // All slots are free again, and a failing job frees its slot too.
    await expect(slots.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await Promise.all([slots.run(async () => 1), slots.run(async () => 2), slots.run(async () => 3)])).toEqual([1, 2, 3]);
  });
});

describe('exclusive', () => {
  it('refuses a second holder of a key while the first runs, and frees the key after, also after a failure', async () => {
    const store = new MemoryStore();
    let release!: () => void;
    const first = exclusive(store, 'k', 60, 'busy', () => new Promise<string>((r) => (release = () => r('first'))));
    await expect(exclusive(store, 'k', 60, 'busy', async () => 'second')).rejects.toMatchObject({ code: 429, message: 'busy' });
    expect(await exclusive(store, 'other', 60, 'busy', async () => 'other')).toBe('other');
    release();
    expect(await first).toBe('first');
    await expect(exclusive(store, 'k', 60, 'busy', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await exclusive(store, 'k', 60, 'busy', async () => 'again')).toBe('again');
  });
});
