import type { Db } from '../db/connect';

export interface Applied {
  tenant_id: number;
  network_id: number;
  member_id: number;
  version: number;
  ok: boolean;
  error: string;
  at: number;
}

/** How long an acknowledgement waits for others to be written with it. */
const DELAY_MS = 50;

/**
 * Devices' acknowledgements of config versions (`applied`), written a batch per transaction: a change
 * to ten networks of 1,000 is acknowledged by 10,000 devices within seconds, and one commit each kept
 * SQLite's single writer busy for seconds. The latest acknowledgement of a member's network wins; what is
 * pending when the instance dies is acknowledged again by the device's next welcome (it gets the
 * version again, applies it and says so).
 */
export class AppliedWriter {
  private pending = new Map<string, Applied>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(a: Applied) {
    this.pending.set(`${a.network_id}:${a.member_id}`, a);
    this.timer ??= setTimeout(() => void this.flush(), DELAY_MS);
  }

  /** Writes what is pending; writes never overlap (a slow one makes the next wait). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.flushing = this.flushing.then(() => this.write(batch)).catch(this.onError);
    return this.flushing;
  }

  private async write(batch: Applied[]) {
    if (batch.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const a of batch) {
        await trx
          .updateTable('member_config')
          .set({ applied_version: a.version, applied_error: a.ok ? '' : a.error, applied_time: a.ok ? a.at : null })
          .where('network_id', '=', a.network_id)
          .where('member_id', '=', a.member_id)
          .where('tenant_id', '=', a.tenant_id)
          .execute();
      }
    });
  }
}
