import type { Db } from '../db/connect';

/** Messages any session may send per check window: pings, statuses, traffic, a few link changes. */
export const FLOOD_BASE = 200;

/**
 * What each of these members may send per window beyond FLOOD_BASE, by member id (issue 34). Every link
 * may go down and up again within a window, and a device older than protocol 3 reports each as a
 * message of its own (a center's restart storm: every client at once). A center's links are its
 * network's other members; a point's are its network's centers. Asked only of the sessions that went
 * past FLOOD_BASE, so a window without a storm costs no query.
 */
export async function floodLimits(db: Db, memberIds: readonly number[]): Promise<Map<number, number>> {
  const limits = new Map(memberIds.map((id) => [id, FLOOD_BASE]));
  if (memberIds.length === 0) return limits;
  const roles = await db.selectFrom('network_member').select(['member_id', 'network_id', 'member_type']).where('member_id', 'in', memberIds).execute();
  if (roles.length === 0) return limits;
  const sizes = await db
    .selectFrom('network_member')
    .select((eb) => ['network_id', eb.fn.countAll<number>().as('members'), eb.fn.sum<number>(eb.case().when('member_type', '=', 'center').then(1).else(0).end()).as('centers')])
    .where('network_id', 'in', [...new Set(roles.map((r) => r.network_id))])
    .groupBy('network_id')
    .execute();
  const sizeOf = new Map(sizes.map((s) => [s.network_id, { members: Number(s.members), centers: Number(s.centers) }]));
  for (const r of roles) {
    const size = sizeOf.get(r.network_id);
    if (!size) continue;
    const links = r.member_type === 'center' ? size.members - 1 : size.centers;
    limits.set(r.member_id, limits.get(r.member_id)! + 2 * links);
  }
  return limits;
}
