/**
 * One timer for any number of agents: a min-heap of due times with a single setTimeout armed for the
 * earliest. Ten thousand agents each waiting on their own next tick cost ten thousand heap entries, not
 * ten thousand Node timers, and a cancelled entry is dropped lazily when it reaches the top.
 */
export interface Scheduled {
  cancel(): void;
}

interface Entry {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class Scheduler {
  private heap: Entry[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private armedAt = Infinity;
  private stopped = false;

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs fn once after delayMs (entries due at the same time run in the order they were added). */
  after(delayMs: number, fn: () => void): Scheduled {
    const entry: Entry = { at: this.now() + Math.max(0, delayMs), seq: this.seq++, fn, cancelled: false };
    this.push(entry);
    this.arm();
    return { cancel: () => { entry.cancelled = true; } };
  }

  get size(): number {
    return this.heap.length;
  }

  /** Entries still to run (size counts cancelled ones until they reach the top). */
  get pending(): number {
    return this.heap.filter((e) => !e.cancelled).length;
  }

  /** Drops every pending entry and the timer; the scheduler accepts no more work. */
  stop(): void {
    this.stopped = true;
    this.heap = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.stopped) return;
    while (this.heap.length && this.heap[0]!.cancelled) this.pop();
    const top = this.heap[0];
    if (!top) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.armedAt = Infinity;
      return;
    }
    if (this.timer && this.armedAt <= top.at) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedAt = top.at;
    this.timer = setTimeout(() => this.run(), Math.max(0, top.at - this.now()));
    // The scheduler alone must not keep a process alive: sockets and servers do that.
    this.timer.unref();
  }

  private run(): void {
    this.timer = null;
    this.armedAt = Infinity;
    const now = this.now();
    while (this.heap.length && this.heap[0]!.at <= now) {
      const entry = this.pop()!;
      if (entry.cancelled) continue;
      try {
        entry.fn();
      } catch (e) {
        console.error('agent scheduler: a task threw', e);
      }
      if (this.stopped) return;
    }
    this.arm();
  }

  private less(a: Entry, b: Entry): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private pop(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** The scheduler agents share unless given their own. */
let shared: Scheduler | null = null;
export function sharedScheduler(): Scheduler {
  shared ??= new Scheduler();
  return shared;
}
