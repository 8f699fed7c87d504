import { sql } from 'kysely';
import type { TrafficPoint } from '@hublink/contract';
import type { TrafficMinuteTable } from '../db/types';
import { MinuteSums } from './minuteSums';
import { minuteOf } from './flows';

/**
 * The traffic history of devices (the SaaS detail chart): each report's rates, all interfaces of one
 * time together, added up per member and minute with the number of reports, so the chart shows the
 * minute's average (sum / samples). Kept in memory and written in batches like the live counters.
 */
export class TrafficHistoryWriter extends MinuteSums<TrafficMinuteTable> {
  add(memberId: number, tenantId: number, points: readonly TrafficPoint[]) {
    const byTime = new Map<number, { down: number; upload: number }>();
    for (const p of points) {
      const t = byTime.get(p.time) ?? { down: 0, upload: 0 };
      t.down += p.down;
      t.upload += p.upload;
      byTime.set(p.time, t);
    }
    for (const [time, t] of byTime) {
      const minute = minuteOf(time);
      const key = `${memberId}:${minute}`;
      const row = this.rows.get(key);
      if (row) {
        row.down_sum += t.down;
        row.upload_sum += t.upload;
        row.samples += 1;
      } else {
        this.rows.set(key, { tenant_id: tenantId, member_id: memberId, minute, down_sum: t.down, upload_sum: t.upload, samples: 1 });
      }
    }
  }

  protected upsert(rows: TrafficMinuteTable[]) {
    return this.db
      .insertInto('traffic_minute')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['member_id', 'minute']).doUpdateSet({
          down_sum: sql`traffic_minute.down_sum + excluded.down_sum`,
          upload_sum: sql`traffic_minute.upload_sum + excluded.upload_sum`,
          samples: sql`traffic_minute.samples + excluded.samples`,
        }),
      )
      .execute();
  }
}
