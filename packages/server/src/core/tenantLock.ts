import type { Db } from '../db/connect';
import type { Ctx } from './context';

/**
 * Serialises the changes of one tenant that a quota or a uniqueness rule spans (members, networks):
 * the tenant's account row is the lock on PostgreSQL; SQLite runs one write transaction at a time.
 * Every such transaction takes it first, so two of them never lock in opposite orders.
 */
export async function lockTenant(ctx: Ctx, trx: Db, tenantId: number): Promise<void> {
  await trx
    .selectFrom('account')
    .select('id')
    .where('id', '=', tenantId)
    .$if(ctx.dialect === 'postgres', (qb) => qb.forUpdate())
    .execute();
}
