import type { Db } from '../db/connect';

/** Items written in one transaction at most (a long transaction holds SQLite's one writer). */
const GROUP_MAX = 200;

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Writes that many callers make at once, committed together: the items queued by the time a transaction
 * starts (one turn of the event loop after the first) go in it, and those queued while it runs go in the
 * next (group commit), so a quiet moment costs one turn's wait and a burst of 20,000 about a hundred
 * commits instead of 20,000. Each caller's promise settles when its item is committed;
 * a group that fails is written again item by item, so one bad item fails alone (its writes are rolled
 * back with the group's, then tried on their own: `write` must not keep state outside the transaction
 * it could not redo).
 */
export class GroupCommit<T> {
  private readonly queue: Waiting<T>[] = [];
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly write: (trx: Db, item: T) => Promise<void>,
  ) {}

  run(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain() {
    this.running = true;
    while (this.queue.length > 0) {
      // One turn of the event loop first: the messages already received get to queue their items (a
      // transaction on SQLite runs without ever yielding to I/O, so otherwise every group was of one).
      await new Promise((resolve) => setImmediate(resolve));
      const group = this.queue.splice(0, GROUP_MAX);
      try {
        await this.db.transaction().execute(async (trx) => {
          for (const w of group) await this.write(trx, w.item);
        });
        for (const w of group) w.resolve();
      } catch (err) {
        if (group.length === 1) {
          group[0]!.reject(err);
          continue;
        }
        for (const w of group) {
          try {
            await this.db.transaction().execute((trx) => this.write(trx, w.item));
            w.resolve();
          } catch (e) {
            w.reject(e);
          }
        }
      }
    }
    this.running = false;
  }
}
