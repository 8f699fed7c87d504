import { sql } from 'kysely';
import type { FlowRecord } from '@hublink/contract';
import type { FlowMinuteTable } from '../db/types';
import { MinuteSums } from './minuteSums';

const MINUTE_MS = 60_000;
const CONTROL = /\p{Cc}/gu;

export const minuteOf = (epochSeconds: number) => Math.floor(epochSeconds / 60) * MINUTE_MS;

/**
 * Flow records of SaaS devices (application and source-address analysis), added up in memory per
 * member, kind, name and minute and written in batches: however many devices report, the database
 * sees one row per name and minute, and a few statements per flush. A row already written for that
 * minute is added to, so flushes in the same minute (or records arriving late) add up.
 */
export class FlowWriter extends MinuteSums<FlowMinuteTable> {
  add(memberId: number, tenantId: number, records: readonly FlowRecord[]) {
    for (const r of records) {
      // PostgreSQL text holds no NUL, and no control character belongs in a name the console shows.
      const name = r.name.replace(CONTROL, '').trim();
      if (!name) continue;
      const minute = minuteOf(r.time);
      const key = `${memberId}\u0000${r.kind}\u0000${minute}\u0000${name}`;
      const row = this.rows.get(key);
      if (row) {
        row.download += r.download;
        row.upload += r.upload;
      } else {
        this.rows.set(key, { tenant_id: tenantId, member_id: memberId, kind: r.kind, name, minute, download: r.download, upload: r.upload });
      }
    }
  }

  protected upsert(rows: FlowMinuteTable[]) {
    return this.db
      .insertInto('flow_minute')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['member_id', 'kind', 'name', 'minute']).doUpdateSet({
          download: sql`flow_minute.download + excluded.download`,
          upload: sql`flow_minute.upload + excluded.upload`,
        }),
      )
      .execute();
  }
}
