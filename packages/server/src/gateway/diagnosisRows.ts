import type { Db } from '../db/connect';

/*
 * What diagnosis needs from the gateway (table member_diagnosis, migration 0030): the last refused hello
 * that named a member (time, address, close code) and its last session's end (the device's last message,
 * its address, the close code and reason). One row per member, overwritten; written beside the session
 * rows, never in the way of a session's begin or end.
 */

export interface RefusedHello {
  member_id: number;
  tenant_id: number;
  at: number;
  ip: string;
  code: number;
}

export async function recordRefusal(db: Db, r: RefusedHello): Promise<void> {
  await db
    .insertInto('member_diagnosis')
    .values({ member_id: r.member_id, tenant_id: r.tenant_id, fail_time: r.at, fail_ip: r.ip.slice(0, 64), fail_code: r.code })
    .onConflict((oc) => oc.column('member_id').doUpdateSet({ fail_time: r.at, fail_ip: r.ip.slice(0, 64), fail_code: r.code }))
    .execute();
}

export interface SessionEndSeen {
  member_id: number;
  tenant_id: number;
  seen: number;
  ip: string;
  code: number;
  reason: string;
}

/** Rows per statement: far under the bound parameters either database allows. */
const BATCH = 500;

/** The last session ends of many members (a shutdown ends thousands at once); the latest per member wins. */
export async function recordEnds(db: Db, ends: readonly SessionEndSeen[]): Promise<void> {
  const latest = new Map<number, SessionEndSeen>();
  for (const e of ends) if ((latest.get(e.member_id)?.seen ?? -1) <= e.seen) latest.set(e.member_id, e);
  if (latest.size === 0) return;
  // A member deleted while its session ended has no row to write (and its foreign key would fail the batch).
  const present = new Set<number>();
  const ids = [...latest.keys()];
  for (let i = 0; i < ids.length; i += BATCH) {
    for (const r of await db.selectFrom('member').select('id').where('id', 'in', ids.slice(i, i + BATCH)).execute()) present.add(r.id);
  }
  const rows = [...latest.values()].filter((e) => present.has(e.member_id)).map((e) => ({
    member_id: e.member_id,
    tenant_id: e.tenant_id,
    seen_time: e.seen,
    seen_ip: e.ip.slice(0, 64),
    close_code: e.code,
    close_reason: e.reason.slice(0, 128),
  }));
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto('member_diagnosis')
      .values(rows.slice(i, i + BATCH))
      .onConflict((oc) =>
        oc.column('member_id').doUpdateSet((eb) => ({
          seen_time: eb.ref('excluded.seen_time'),
          seen_ip: eb.ref('excluded.seen_ip'),
          close_code: eb.ref('excluded.close_code'),
          close_reason: eb.ref('excluded.close_reason'),
        }))
          // A sweep that ends a dead instance's session late never overwrites a newer end.
          .where((eb) => eb.or([eb('member_diagnosis.seen_time', 'is', null), eb('member_diagnosis.seen_time', '<=', eb.ref('excluded.seen_time'))])),
      )
      .execute();
  }
}
