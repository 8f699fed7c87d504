import type { Db } from '../db/connect';

/** Rows per statement: at most 7 parameters a row, well under both databases' parameter limits. */
const CHUNK = 200;

/**
 * Sums kept in memory by key and added to the database in batches (upserts that add to a row already
 * written): the base of the flow and traffic-history writers. Flushes never overlap (a slow one makes the
 * next wait); a chunk that fails (a member deleted since its report: foreign key) is written row by row,
 * so only that member's rows are lost.
 */
export abstract class MinuteSums<Row> {
  protected readonly rows = new Map<string, Row>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(protected readonly db: Db) {}

  /** Rows waiting for the next flush (the gateway may flush early when this grows large). */
  get pending(): number {
    return this.rows.size;
  }

  flush(): Promise<void> {
    const batch = [...this.rows.values()];
    this.rows.clear();
    const work = () => this.write(batch);
    this.flushing = this.flushing.then(work, work);
    return this.flushing;
  }

  private async write(batch: Row[]) {
    for (let i = 0; i < batch.length; i += CHUNK) {
      const rows = batch.slice(i, i + CHUNK);
      await this.upsert(rows).catch(async () => {
        for (const row of rows) await this.upsert([row]).catch(() => undefined);
      });
    }
  }

  /** Inserts the rows, adding to the sums of rows already there. */
  protected abstract upsert(rows: Row[]): Promise<unknown>;
}
