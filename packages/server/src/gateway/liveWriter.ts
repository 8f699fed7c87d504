import { sql } from 'kysely';
import type { Db } from '../db/connect';

export interface LinkState {
  network_id: number;
  member_id: number;
  center_member_id: number;
  vpn_online: number;
  vpn_ip: string;
  /** Epoch ms the link came up, null when down. */
  since: number | null;
  /** 'center' or 'pop' as the point's device reported an up link's path, else '' (issue 30). */
  path?: string;
  /** The POP area's name when path is 'pop'. */
  path_area?: string;
}

interface Counters {
  tenantId: number;
  rx: number;
  tx: number;
}

/** Rows per statement: well under both databases' parameter limits. */
const CHUNK = 200;

/**
 * Live state the devices report, written in batches so the database sees a few statements a second
 * however many devices report: the latest state of each changed link, and byte counters per member.
 * What is pending when the instance dies is reported again by the devices (status every 10 s).
 */
export class LiveWriter {
  private links = new Map<string, LinkState>();
  private counters = new Map<number, Counters>();
  /** Members whose counters were never written by this instance: their first report goes with the next link flush. */
  private readonly written = new Set<number>();
  private firstCounters = new Map<number, Counters>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  link(l: LinkState) {
    this.links.set(`${l.network_id}:${l.member_id}:${l.center_member_id}`, l);
  }

  traffic(memberId: number, tenantId: number, rx: number, tx: number) {
    if (this.written.has(memberId)) this.counters.set(memberId, { tenantId, rx, tx });
    else this.firstCounters.set(memberId, { tenantId, rx, tx });
  }

  get pending(): number {
    return this.links.size + this.counters.size + this.firstCounters.size;
  }

  /** Writes what is pending (and the first counters of newly seen members); flushes never overlap (a slow one makes the next wait). */
  flushLinks(now = Date.now()): Promise<void> {
    const batch = [...this.links.values()];
    this.links.clear();
    const first = this.takeFirstCounters();
    return this.then(async () => {
      await this.writeLinks(batch, now);
      await this.writeCounters(first);
    });
  }

  flushCounters(): Promise<void> {
    const batch = [...this.counters.entries(), ...this.takeFirstCounters()];
    this.counters.clear();
    return this.then(() => this.writeCounters(batch));
  }

  private takeFirstCounters(): [number, Counters][] {
    const first = [...this.firstCounters.entries()];
    this.firstCounters.clear();
    for (const [id] of first) this.written.add(id);
    return first;
  }

  flush(now = Date.now()): Promise<void> {
    return Promise.all([this.flushLinks(now), this.flushCounters()]).then(() => undefined);
  }

  private then(work: () => Promise<void>): Promise<void> {
    this.flushing = this.flushing.then(work, work);
    return this.flushing;
  }

  private async writeLinks(batch: LinkState[], now: number) {
    for (let i = 0; i < batch.length; i += CHUNK) {
      const rows = batch.slice(i, i + CHUNK).map((l) => ({
        network_id: l.network_id,
        member_id: l.member_id,
        center_member_id: l.center_member_id,
        vpn_online: l.vpn_online,
        vpn_ip: l.vpn_ip,
        vpn_online_time: l.since,
        path: l.path ?? '',
        path_area: l.path_area ?? '',
        update_time: now,
      }));
      await this.upsertLinks(rows).catch(async () => {
        // A network or member deleted since the report fails its row (foreign key): write the others one by one.
        for (const row of rows) await this.upsertLinks([row]).catch(() => undefined);
      });
    }
  }

  private upsertLinks(rows: (Omit<LinkState, 'since'> & { vpn_online_time: number | null; update_time: number })[]) {
    return this.db
        .insertInto('member_link')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['network_id', 'member_id', 'center_member_id']).doUpdateSet({
            vpn_online: sql`excluded.vpn_online`,
            vpn_ip: sql`excluded.vpn_ip`,
            vpn_online_time: sql`excluded.vpn_online_time`,
            path: sql`excluded.path`,
            path_area: sql`excluded.path_area`,
            update_time: sql`excluded.update_time`,
          }),
        )
        .execute();
  }

  private async writeCounters(batch: [number, Counters][]) {
    if (batch.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const [memberId, c] of batch) {
        await trx.updateTable('member').set({ traffic_in: c.rx, traffic_out: c.tx }).where('id', '=', memberId).where('tenant_id', '=', c.tenantId).execute();
      }
    });
  }
}
