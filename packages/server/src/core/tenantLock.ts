import type { Db } from '../db/connect';
import type { Ctx } from './context';

/**
 * Serialises the changes of one tenant that a quota, a kept count or a uniqueness rule spans:
 * adding or deleting members, network members, networks and sub-accounts, and members' phones. The
 * tenant's account row is the lock on PostgreSQL (the triggers that keep the counts update that row
 * too); SQLite runs one write transaction at a time. Every such transaction takes it first, so two
 * of them never lock in opposite orders.
 */
export async function lockTenant(ctx: Ctx, trx: Db, tenantId: number): Promise<void> {
  await trx
    .selectFrom('account')
    .select('id')
    .where('id', '=', tenantId)
    .$if(ctx.dialect === 'postgres', (qb) => qb.forUpdate())
    .execute();
}
